/**
 * `--dry-run`: the request the command would send, as a curl command that
 * runs as printed (the key as an environment variable), other credentials
 * redacted; for the streams API also the exact inputs of the
 * HMAC signature (the key redacted). The client builds and signs the request
 * as usual, then a `fetch` that sends nothing captures it.
 */
import type { CliApi } from './apis.js';
import type { FetchLike } from './clients.js';
import { envName } from './credentials.js';
import { writeLine, type CliIo } from './io.js';

/** Headers whose values are credentials or derived from them. */
const REDACTED_HEADERS = new Set(['authorization', 'x-authorization-signature-sha256', 'x-api-key', 'cookie']);
export const REDACTED = '<redacted>';

export interface CapturedRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | undefined;
}

/** A `fetch` that records the request and answers an empty success, so that nothing leaves the machine. */
export function capturingFetch(captured: CapturedRequest[]): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : await request.text();
    captured.push({ method: request.method, url: request.url, headers: [...request.headers], body });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The request as a curl command that runs as printed: an `Apikey` header
 * names the environment variable that holds the key (`keyVariable`), in
 * double quotes so the shell expands it, and the key itself never appears.
 * Other credentials (the streams API's signature, made for one timestamp)
 * are redacted.
 */
export function curlCommand(request: CapturedRequest, keyVariable: string): string {
  const parts = ['curl', '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of request.headers) {
    if (name.toLowerCase() === 'authorization' && value.startsWith('Apikey ')) parts.push('-H', `"Authorization: Apikey $${keyVariable}"`);
    else parts.push('-H', shellQuote(`${name}: ${REDACTED_HEADERS.has(name.toLowerCase()) ? REDACTED : value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  return parts.join(' ');
}

/** Each captured request on stdout as curl, and a signed one's signing inputs on stderr. */
export async function printCaptured(captured: readonly CapturedRequest[], api: CliApi, io: CliIo): Promise<void> {
  for (const request of captured) {
    await writeLine(io.stdout, curlCommand(request, envName(api.credentials, 'apiKey')));
    const inputs = await signingInputs(request);
    if (inputs) await writeLine(io.stderr, inputs.join('\n'));
  }
}

/** The streams API's signed text and its parts, the key redacted: what the signature covers, for checking by hand. */
export async function signingInputs(request: CapturedRequest): Promise<string[] | undefined> {
  const timestamp = request.headers.find(([name]) => name.toLowerCase() === 'x-authorization-timestamp')?.[1];
  if (timestamp === undefined) return undefined;
  const { createHash } = await import('node:crypto');
  const bodyHash = createHash('sha256').update(request.body ?? '').digest('hex');
  // The signer's own functions: the path and text shown are those it signed.
  const { pathWithQuery, stringToSign } = await import('../core/auth.js');
  const path = pathWithQuery(request.url);
  return [
    'signing inputs (HMAC-SHA256 keyed with the API secret):',
    `  method      ${request.method}`,
    `  path        ${path}`,
    `  body sha256 ${bodyHash}`,
    `  api key     ${REDACTED}`,
    `  timestamp   ${timestamp}`,
    `  signed text ${stringToSign(request.method, path, bodyHash, REDACTED, Number(timestamp))}`,
  ];
}
