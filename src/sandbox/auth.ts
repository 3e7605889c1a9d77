/**
 * The key of an `Authorization: Apikey <key>` header (channels, policy), or
 * `undefined` when the header is missing or not of that form.
 */
export function apiKeyOf(headers: Headers): string | undefined {
  const match = /^Apikey ([^\s]+)$/.exec(headers.get('authorization') ?? '');
  return match?.[1];
}
