import type { Authorizer } from './auth.js';
import { deadlineAfter, type Deadline } from './deadline.js';
import { ApiConnectionError, ApiTimeoutError, UnexpectedRedirectError, type OperationRef } from './errors.js';
import { durationOption } from './options.js';
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
  /** Time limit of a whole call (attempts, waits, body) in ms; `undefined` for none. A call's own `deadlineMs` wins. */
  deadlineMs?: number | undefined;
  /** Signs each attempt (report API); the API-key header needs none, it is a default header. */
  authorize?: Authorizer | undefined;
  /** Body fields that make a POST or PATCH safe to re-send (the service deduplicates on them). */
  dedupKeys: readonly string[];
  /** Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Same-origin redirects followed in one attempt before giving up. */
const MAX_REDIRECTS = 5;

/**
 * The `fetch` our clients hand to openapi-fetch. A middleware cannot re-send
 * a request, so signing, deadlines, redirects and retries live here, in one
 * loop:
 * - every attempt is signed afresh (new timestamp) and bounded by
 *   `timeoutMs`; the whole call, waits and body included, by `deadlineMs`;
 * - network failures (a body that fails mid-way included) and 429/5xx are
 *   retried only when repeating the request is safe, and a wait that would
 *   outlast the deadline is not started;
 * - redirects are followed only within the origin, re-signed; one to
 *   another origin is an UnexpectedRedirectError, so credentials, signatures
 *   and bodies never reach a host they were not meant for;
 * - every answer handed back keeps its attempt's deadline and the caller's
 *   signal over its body, and a body that fails to arrive becomes an
 *   SdkError, never a raw TypeError.
 * The caller's AbortSignal (carried by the Request) stops everything at once
 * and is never retried.
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
    const deadlineMs = callDeadline(request) ?? options.deadlineMs;
    const endsAt = deadlineMs === undefined ? Number.POSITIVE_INFINITY : now() + deadlineMs;
    const operation = () => operationOf(request);
    const deadlineError = () => new ApiTimeoutError(operation(), deadlineMs ?? 0, 'deadline');

    /** Waits `ms` before another attempt, or throws `failure` when the wait would outlast the deadline. */
    async function waitBeforeRetry(ms: number, failure: Error): Promise<void> {
      if (now() + ms >= endsAt) throw failure;
      await sleep(ms, userSignal);
    }

    async function attemptFrom(first: number): Promise<Response> {
      for (let attempt = first; ; attempt++) {
        const canRetry = retrySafe && attempt < retry.retries;
        const left = endsAt - now();
        if (left <= 0) throw deadlineError();
        // The attempt's own limit, or what is left of the call's, whichever ends first.
        const byDeadline = timeoutMs === undefined || left < timeoutMs;
        const limit = byDeadline ? left : timeoutMs;
        const deadline =
          limit === Number.POSITIVE_INFINITY
            ? undefined
            : deadlineAfter(userSignal, limit, () => new DOMException(`attempt timed out after ${limit} ms`, 'TimeoutError'));
        const timeoutError = () => (byDeadline ? deadlineError() : new ApiTimeoutError(operation(), timeoutMs ?? 0));

        let response: Response;
        try {
          response = await sendFollowingRedirects(request, body, init, deadline?.signal, baseFetch, authorize, operation);
        } catch (error) {
          deadline?.clear();
          if (userSignal.aborted || error instanceof UnexpectedRedirectError) throw error;
          const timedOut = deadline?.timedOut() === true;
          const failure = timedOut ? timeoutError() : new ApiConnectionError(operation(), error);
          if (!canRetry || (timedOut && byDeadline)) throw failure;
          await waitBeforeRetry(backoffDelay(attempt, retry, random), failure);
          continue;
        }

        if (canRetry && isRetryableStatus(response.status)) {
          const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now());
          const wait = retryAfter ?? backoffDelay(attempt, retry, random);
          const worthWaiting = (retryAfter === undefined || retryAfter <= retry.maxRetryAfterMs) && now() + wait < endsAt;
          if (worthWaiting) {
            deadline?.clear();
            // Free the connection before waiting; the body of a retried answer is not needed.
            await response.body?.cancel().catch(() => undefined);
            await sleep(wait, userSignal);
            continue;
          }
        }
        // Handed back on every branch with its deadline over the body.
        const retryBody = canRetry
          ? async (failure: Error) => {
              await waitBeforeRetry(backoffDelay(attempt, retry, random), failure);
              return attemptFrom(attempt + 1);
            }
          : undefined;
        guardBody(response, { deadline, userSignal, timeoutError, operation, retryBody });
        return response;
      }
    }

    return attemptFrom(0);
  };
}

/** A call's own `deadlineMs` (openapi-fetch copies unknown call options onto the Request). */
function callDeadline(request: Request): number | undefined {
  const value = (request as unknown as { deadlineMs?: unknown }).deadlineMs;
  if (value === undefined) return undefined;
  const ms = durationOption('deadlineMs', value);
  return ms === 0 || ms === Number.POSITIVE_INFINITY ? undefined : ms;
}

/**
 * Sends one attempt, following redirects within the request's origin (each
 * hop signed again for its own URL). A redirect elsewhere, or one that
 * cannot be read, is an UnexpectedRedirectError.
 */
async function sendFollowingRedirects(
  request: Request,
  body: string | undefined,
  init: RequestInit | undefined,
  signal: AbortSignal | undefined,
  send: FetchLike,
  authorize: Authorizer | undefined,
  operation: () => OperationRef,
): Promise<Response> {
  // The clients build every Request with `redirect: 'manual'` already, which
  // spares an init object (undici copies the Request when it gets one).
  const redirect = request.redirect === 'manual' ? undefined : ({ redirect: 'manual' } as const);
  const attemptInit: RequestInit | undefined =
    signal === undefined ? (redirect === undefined ? init : { ...init, ...redirect }) : { ...init, signal, ...redirect };
  let url = request.url;
  let method = request.method;
  let sentBody = body;
  for (let hop = 0; ; hop++) {
    const headers = hop === 0 ? request.headers : new Headers(request.headers);
    authorize?.(headers, method, url, sentBody);
    // A consumed Request cannot be sent again; rebuild it around the kept body text.
    const hopRequest =
      hop === 0
        ? sentBody === undefined
          ? request
          : new Request(request, { body: sentBody })
        : new Request(url, { method, headers, body: sentBody, signal: request.signal, redirect: 'manual' });
    const response = await send(hopRequest, attemptInit);
    if (response.type === 'opaqueredirect') {
      throw new UnexpectedRedirectError(operation(), response.status, undefined, 'a redirect this runtime does not let the SDK inspect, so it is not followed');
    }
    if (!REDIRECT_STATUSES.has(response.status)) return response;

    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let target: URL;
    try {
      target = new URL(location ?? '', url);
    } catch {
      target = new URL(url);
    }
    const shown = `${target.origin}${target.pathname}`;
    if (location === null || location === '') {
      throw new UnexpectedRedirectError(operation(), response.status, undefined, 'a redirect without a Location');
    }
    if (target.origin !== new URL(request.url).origin) {
      throw new UnexpectedRedirectError(
        operation(),
        response.status,
        shown,
        'a redirect to another origin, which the SDK does not follow (credentials stay with the origin they were meant for)',
      );
    }
    if (hop >= MAX_REDIRECTS) throw new UnexpectedRedirectError(operation(), response.status, shown, `more than ${MAX_REDIRECTS} redirects`);
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      sentBody = undefined;
    }
    url = target.href;
  }
}

type BodyReader = 'text' | 'json' | 'arrayBuffer' | 'blob' | 'formData';
const BODY_READERS: readonly BodyReader[] = ['text', 'json', 'arrayBuffer', 'blob', 'formData'];

interface BodyGuard {
  deadline: Deadline | undefined;
  userSignal: AbortSignal;
  timeoutError: () => Error;
  operation: () => OperationRef;
  /** Sends the request again (after its back-off) when the body failed and a retry is safe. */
  retryBody: ((failure: Error) => Promise<Response>) | undefined;
}

/**
 * Keeps an attempt's deadline (the caller's abort, the timeout, the call's
 * deadline) over the body, which openapi-fetch reads after we return, and
 * clears it once the body is read. A body that fails mid-way (a reset, a
 * corrupt gzip stream) becomes an ApiConnectionError, or, when a retry is
 * safe, is read again from a fresh attempt with the same status. The reader
 * methods of this one Response are wrapped, which costs well under a
 * microsecond; copying the body into a new Response measured about 12 µs.
 */
function guardBody(response: Response, guard: BodyGuard): void {
  const { deadline } = guard;
  if (response.body === null || response.headers.get('content-length') === '0') {
    deadline?.clear();
    return;
  }
  const readers = response as unknown as Record<BodyReader, () => Promise<unknown>>;
  for (const name of BODY_READERS) {
    const read = readers[name];
    readers[name] = () =>
      read.call(response).then(
        (value) => {
          deadline?.clear();
          return value;
        },
        async (error: unknown) => {
          deadline?.clear();
          if (guard.userSignal.aborted || error instanceof SyntaxError) throw error;
          if (deadline?.timedOut()) throw guard.timeoutError();
          const failure = new ApiConnectionError(guard.operation(), error);
          if (guard.retryBody === undefined) throw failure;
          const again = await guard.retryBody(failure);
          // openapi-fetch has already taken this status as the answer; only the same status can stand in.
          if (again.status !== response.status) {
            await again.body?.cancel().catch(() => undefined);
            throw failure;
          }
          return (again as unknown as Record<BodyReader, () => Promise<unknown>>)[name]();
        },
      );
  }
}

function operationOf(request: Request): OperationRef {
  const path = request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '');
  return { method: request.method, path: path || '/' };
}
