/**
 * What users of curl and `gh api` reach for, as a `fetch` around the
 * client's: `-H/--header 'Name: value'` (repeatable; the headers the SDK
 * sets from the credentials cannot be overridden), `-v/--verbose` (each
 * request's method, URL and headers, then its status and time, on stderr,
 * credentials redacted) and `-i/--include` (the last answer's status line
 * and headers, printed before the body). The client's signing, retries and
 * typed errors stay underneath.
 */
import type { FetchLike } from './clients.js';
import { CliUsageError } from './errors.js';
import { writeMessage, type CliIo } from './io.js';
import { httpVersionOf, nodeFetch } from './node-fetch.js';
import { visible } from './terminal-text.js';

/** Headers made from the credentials: never from -H. */
const AUTH_HEADERS = /^(authorization|x-authorization-.*|x-api-key|cookie)$/i;
/** Header values shown as `<redacted>` (an `Apikey` keeps its scheme). */
const SECRET_HEADERS = /^(authorization|x-authorization-signature-sha256|x-api-key|cookie)$/i;

/** `-H 'Name: value'` texts as pairs; a malformed one or an auth header is a usage error. */
export function parseHeaders(texts: readonly string[]): [string, string][] {
  return texts.map((text) => {
    const colon = text.indexOf(':');
    const name = colon < 0 ? '' : text.slice(0, colon).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new CliUsageError(`--header: expected 'Name: value', got ${JSON.stringify(text)}`);
    if (AUTH_HEADERS.test(name)) throw new CliUsageError(`-H: ${name} is set from the credentials (--api-key, --api-secret, a profile); it cannot be given as a header`);
    return [name, text.slice(colon + 1).trim()];
  });
}

function shown(name: string, value: string): string {
  if (!SECRET_HEADERS.test(name)) return value;
  return value.startsWith('Apikey ') ? 'Apikey <redacted>' : '<redacted>';
}

/** The headers to add (`-H`) and whether to trace (`-v`). */
export interface HttpConventions {
  headers: [string, string][];
  verbose: boolean;
}

/** The wrapped fetch, and what `-i` prints. */
export interface ConventionFetch {
  fetch: FetchLike;
  /** The status line and headers of the last answer, for `-i`. */
  lastAnswerHead: () => string | undefined;
}

/** A fetch around `base` (by default node:http's, src/cli/node-fetch.ts, for start-up) that adds the headers and traces on stderr. */
export function conventionFetch({ headers, verbose }: HttpConventions, io: CliIo, base: FetchLike = nodeFetch): ConventionFetch {
  let head: string | undefined;
  const wrapped: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    for (const [name, value] of headers) request.headers.set(name, value);
    const started = performance.now();
    if (verbose) {
      writeMessage(io.stderr, `> ${request.method} ${request.url}`);
      for (const [name, value] of request.headers) writeMessage(io.stderr, `> ${name}: ${shown(name, value)}`);
    }
    const response = await base(request);
    if (verbose) io.stderr.write(`< ${response.status} (${Math.round(performance.now() - started)} ms)\n`);
    head = [`HTTP/${httpVersionOf(response) ?? '1.1'} ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, ...[...response.headers].map(([name, value]) => `${name}: ${value}`)].map(visible).join('\n');
    return response;
  };
  return { fetch: wrapped, lastAnswerHead: () => head };
}
