/**
 * Whether an error thrown by a `fetch` function is the network failing (the
 * service did not answer) or the function itself failing (a bug in the
 * caller's wrapper, a consumed Request, a bad argument). The transport retries
 * the first and reports the second as the caller's, at once.
 *
 * The rule leans towards "network": a failure counts as the network's when
 * it, or any error in its `cause` chain (a wrapper that gives up and throws
 * its own Error around the runtime's), has one of the forms the runtimes use:
 * - a message a `fetch` implementation uses for a failed exchange: undici
 *   (Node) `fetch failed` and `terminated`; Chromium `Failed to fetch`;
 *   Firefox `NetworkError when attempting to fetch resource.`; WebKit
 *   `Load failed`, `The network connection was lost.`, `Could not connect to
 *   the server.`, `The request timed out.`; Deno `error sending request for
 *   url ...`; Bun `Unable to connect...`; workerd `Network connection lost.`;
 *   Node's `socket hang up` and undici's `other side closed`;
 * - a connection-level code: an errno name (`ECONNREFUSED`, `ECONNRESET`,
 *   `ENOTFOUND`, `EAI_AGAIN`, `ETIMEDOUT`...), undici's socket and timeout
 *   codes, Bun's (`ConnectionRefused`, `ConnectionClosed`,
 *   `FailedToOpenSocket`...), or a TLS certificate code;
 * - a DOMException-style name: `NetworkError`, or `AbortError`/`TimeoutError`
 *   from a signal the SDK did not set (a wrapper's own timeout: the service
 *   was too slow for it).
 * Everything else is the function's own failure. The messages are matched
 * whole or by their distinctive start, never by the word "fetch" alone:
 * Chromium's `Failed to execute 'fetch' on 'Window': Illegal invocation` is a
 * programming error, and so are Node's `ERR_*` codes (`ERR_INVALID_ARG_TYPE`).
 */
export function isNetworkFailure(error: unknown): boolean {
  // The cause chain, bounded: a cause may point back at its own error.
  let current = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth++) {
    if (hasNetworkForm(current as ErrorLike)) return true;
    current = (current as ErrorLike).cause;
  }
  return false;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

const NETWORK_MESSAGES =
  /^(?:fetch failed|terminated|failed to fetch\b|networkerror when attempting to fetch|load failed$|(?:the )?network connection (?:was )?lost|could not connect to the server|the request timed out|error sending request\b|unable to connect\b|socket hang up|other side closed|network error$)/i;

const NETWORK_NAMES: ReadonlySet<string> = new Set(['NetworkError', 'AbortError', 'TimeoutError']);

/** errno names (`ECONNRESET`, `EAI_AGAIN`), but not Node's `ERR_*` argument and state errors. */
const ERRNO_CODE = /^E(?!RR_)[A-Z]+(?:_[A-Z]+)*$/;
/** undici's failures of the socket, the connection or a timer; not its argument errors (`UND_ERR_INVALID_ARG`). */
const UNDICI_CODE = /^UND_ERR_(?:SOCKET|CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT|CLOSED|DESTROYED|ABORTED|RES_CONTENT_LENGTH_MISMATCH)$/;
/** Bun's codes for a connection that failed or closed. */
const BUN_CODE = /^(?:Connection\w+|FailedToOpenSocket|DNSLookupFailed|UnableToConnect\w*|Timeout|TimedOut)$/;
/** TLS: the server's certificate was refused (Node's and Bun's spellings). */
const TLS_CODE = /CERT|TLS|SSL/;

function hasNetworkForm(error: ErrorLike): boolean {
  if (typeof error.name === 'string' && NETWORK_NAMES.has(error.name)) return true;
  if (typeof error.message === 'string' && NETWORK_MESSAGES.test(error.message.trim())) return true;
  const { code } = error;
  return typeof code === 'string' && (ERRNO_CODE.test(code) || UNDICI_CODE.test(code) || BUN_CODE.test(code) || TLS_CODE.test(code));
}
