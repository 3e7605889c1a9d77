import type { Authorizer } from './auth.js';
import { deadlineAfter, type Deadline } from './deadline.js';
import { ApiConnectionError, ApiTimeoutError, type OperationRef } from './errors.js';
import {
  abortableSleep,
  backoffDelay,
  isRetryableStatus,
  isSafeToRetry,
  parseRetryAfter,
  type ResolvedRetryOptions,
} from './retry.js';

/** The `fetch` signature openapi-fetch calls: a prepared Request, plus its optional init extension. */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchLike;
  retry: ResolvedRetryOptions;
  /** Per-attempt time limit in ms; `undefined` for none. */
  timeoutMs: number | undefined;
  /** Signs each attempt (report API); the API-key header needs none, it is a default header. */
  authorize?: Authorizer | undefined;
  /** Body fields that make a POST or PATCH safe to re-send (the service deduplicates on them). */
  dedupKeys: readonly string[];
  /** Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/**
 * The `fetch` our clients hand to openapi-fetch. A middleware cannot re-send
 * a request, so signing, per-attempt timeouts and retries live here, in one
 * loop: every attempt is signed afresh (new timestamp), bounded by the
 * timeout, and retried on network failures and 429/5xx only when repeating it
 * is safe. The caller's AbortSignal (carried by the Request) stops everything
 * at once and is never retried.
 */
export function createTransport(options: TransportOptions): FetchLike {
  const { retry, timeoutMs, authorize, dedupKeys } = options;
  const baseFetch = options.fetch;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  return async function transport(request, init) {
    const userSignal = request.signal;
    // A body can be read only once; keep its text to sign it and to re-send it.
    const body = request.body === null ? undefined : await request.text();
    const retrySafe = retry.retries > 0 && isSafeToRetry(request.method, body, dedupKeys);

    for (let attempt = 0; ; attempt++) {
      authorize?.(request.headers, request.method, request.url, body);
      // A consumed Request cannot be sent again; rebuild it around the kept body text.
      const attemptRequest = body === undefined ? request : new Request(request, { body });
      // The caller's abort and the timeout, for this attempt only (body included, see clearAfterBody).
      const deadline =
        timeoutMs === undefined
          ? undefined
          : deadlineAfter(userSignal, timeoutMs, () => new DOMException(`attempt timed out after ${timeoutMs} ms`, 'TimeoutError'));
      const attemptInit = deadline === undefined ? init : { ...init, signal: deadline.signal };
      const canRetry = retrySafe && attempt < retry.retries;

      let response: Response;
      try {
        response = await baseFetch(attemptRequest, attemptInit);
      } catch (error) {
        deadline?.clear();
        if (userSignal.aborted) throw error;
        const timedOut = deadline?.timedOut() === true;
        if (!canRetry) {
          const operation = operationOf(request);
          throw timedOut ? new ApiTimeoutError(operation, timeoutMs ?? 0) : new ApiConnectionError(operation, error);
        }
        await sleep(backoffDelay(attempt, retry, random), userSignal);
        continue;
      }

      if (!canRetry || !isRetryableStatus(response.status)) {
        if (deadline !== undefined) {
          const timeoutError = () => new ApiTimeoutError(operationOf(request), timeoutMs ?? 0);
          clearAfterBody(response, deadline, timeoutError);
        }
        return response;
      }
      deadline?.clear();
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now());
      if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs) return response;
      // Free the connection before waiting; the body of a retried answer is not needed.
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryAfter ?? backoffDelay(attempt, retry, random), userSignal);
    }
  };
}

type BodyReader = 'text' | 'json' | 'arrayBuffer' | 'blob' | 'formData';
const BODY_READERS: readonly BodyReader[] = ['text', 'json', 'arrayBuffer', 'blob', 'formData'];

/**
 * Keeps an attempt's deadline (the caller's abort and the timeout) over the
 * body, which openapi-fetch reads after we return, and clears it once the
 * body is read. The reader methods of this one Response are wrapped, which
 * costs well under a microsecond; copying the body into a new Response, the
 * obvious alternative, measured about 12 µs per request. A body nobody reads
 * (a stream left alone) keeps the deadline until it fires, harmlessly.
 */
function clearAfterBody(
  response: Response,
  deadline: Deadline,
  timeoutError: () => Error,
): void {
  if (response.body === null || response.headers.get('content-length') === '0') {
    deadline.clear();
    return;
  }
  const readers = response as unknown as Record<BodyReader, () => Promise<unknown>>;
  for (const name of BODY_READERS) {
    const read = readers[name];
    readers[name] = () =>
      read.call(response).then(
        (value) => {
          deadline.clear();
          return value;
        },
        (error: unknown) => {
          deadline.clear();
          throw deadline.timedOut() ? timeoutError() : error;
        },
      );
  }
}

function operationOf(request: Request): OperationRef {
  const path = request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '');
  return { method: request.method, path: path || '/' };
}
