/**
 * The query arguments of the report API, read. The request check generated
 * from the spec (`request-check.ts`) has already refused any argument that is
 * missing or malformed, with the spec's `400` (`MISSING_QUERY_ARGUMENT` or
 * `INVALID_QUERY_ARGUMENT`) naming it; these only read and normalise.
 */

/** A required stream ID, lowercased. */
export function feedIdArgument(query: URLSearchParams, name: string): string {
  return (query.get(name) ?? '').toLowerCase();
}

/** The required comma-separated stream IDs (`feedIDs`), lowercased, each once, in the order asked. */
export function feedIdsArgument(query: URLSearchParams, name: string): string[] {
  return [...new Set((query.get(name) ?? '').split(',').map((id) => id.toLowerCase()))];
}

/** A required Unix-seconds argument. */
export function secondsArgument(query: URLSearchParams, name: string): number {
  return Number(query.get(name));
}

/** An optional Unix-seconds argument. */
export function optionalSecondsArgument(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  return value === null ? undefined : Number(value);
}

/** An optional integer. */
export function optionalIntegerArgument(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  return value === null ? undefined : Number(value);
}

/** An optional string. */
export function optionalTextArgument(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

/** An optional boolean, `true` or `false`. */
export function optionalBooleanArgument(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  return value === null ? undefined : value === 'true';
}
