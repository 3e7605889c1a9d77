import type { Middleware } from 'openapi-fetch';
import { urlPathOf } from './answers.js';
import type { Authorizer } from './auth.js';
import type { CallContext } from './call-options.js';
import { requestIdOf } from './error-body.js';
import { batchedDeadlineAfter } from './batched-deadline.js';
import { deadlineAfter, type Deadline } from './deadline.js';
import { ApiConnectionError, ApiTimeoutError, ConfigurationError, FetchFunctionError, SdkError, UnexpectedRedirectError, type AttemptRecord, type OperationRef } from './errors.js';
import { isNetworkFailure } from './network-failure.js';
import { describe, durationOption } from './options.js';
import {
  abortableSleep,
  backoffDelay,
  isRetryableStatus,
  isSafeToRetry,
  parseRetryAfter,
  type ResolvedRetryOptions,
} from './retry.js';
import type { AttemptEnd, AttemptObserver, AttemptStart, RetryDecision } from './observe.js';
import { callContextOfRequest, noCallerSignal } from './sdk-request.js';

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
  /** Called around every attempt (hooks, the logger, OpenTelemetry). */
  observers?: readonly AttemptObserver[];
  /** The client's openapi-fetch middleware (`client.use()`), run around every attempt; the array is live. */
  middleware?: readonly Middleware[];
  /** The client's base URL, handed to middleware as openapi-fetch does. */
  baseUrl?: string;
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
 * - a failure of the `fetch` function itself (not the network's, see
 *   network-failure.ts) is a FetchFunctionError at once, never retried;
 * - every answer handed back keeps its attempt's deadline and the caller's
 *   signal over its body, and a body that fails to arrive becomes an
 *   SdkError, never a raw TypeError.
 * The caller's AbortSignal (carried by the Request) stops everything at once
 * and is never retried.
 */
export function createTransport(options: TransportOptions): FetchLike {
  const settings: CallSettings = {
    send: options.fetch,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    deadlineMs: options.deadlineMs,
    authorize: options.authorize,
    dedupKeys: options.dedupKeys,
    observers: options.observers ?? [],
    middleware: options.middleware ?? [],
    baseUrl: options.baseUrl ?? '',
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
  const start = (request: Request, init: RequestInit | undefined, body: string | undefined) =>
    new Call(settings, request, init, body).attemptFrom(0);
  return function transport(request, init) {
    // A body can be read only once; keep its text to sign it and to re-send it.
    if (request.body !== null) return request.text().then((body) => start(request, init, body));
    // Not an async function: a GET spares a promise. A bad option must still reject, not throw.
    try {
      return start(request, init, undefined);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

interface CallSettings {
  send: FetchLike;
  retry: ResolvedRetryOptions;
  timeoutMs: number | undefined;
  deadlineMs: number | undefined;
  authorize: Authorizer | undefined;
  dedupKeys: readonly string[];
  observers: readonly AttemptObserver[];
  middleware: readonly Middleware[];
  baseUrl: string;
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random: () => number;
  now: () => number;
}

/**
 * One call through the transport: its attempts, waits and body. A class
 * rather than closures, because a request is the hot path: one object per
 * call instead of a handful of functions.
 */
class Call {
  readonly userSignal: AbortSignal;
  /** Whether the caller may abort this call (then each attempt needs a deadline of its own). */
  readonly callerCanAbort: boolean;
  readonly retry: ResolvedRetryOptions;
  readonly timeoutMs: number | undefined;
  readonly retrySafe: boolean;
  readonly deadlineMs: number | undefined;
  readonly endsAt: number;
  /** The call's context from the client (operation template, own options, attempts); `undefined` for a bare transport call. */
  readonly context: CallContext | undefined;
  /** What each attempt got; the context's list when there is one. */
  readonly attempts: AttemptRecord[];
  readonly middleware: readonly Middleware[];
  /** Set when a middleware's own signal aborted the attempt: its reason is handed back as the caller's would be. */
  abortedByMiddleware = false;
  #operation: OperationRef | undefined;

  constructor(
    readonly settings: CallSettings,
    readonly request: Request,
    readonly init: RequestInit | undefined,
    readonly body: string | undefined,
  ) {
    const context = callContextOfRequest(request);
    this.context = context;
    this.attempts = context?.attempts ?? [];
    this.userSignal = request.signal;
    this.callerCanAbort = !noCallerSignal(request);
    this.retry = context?.retry ?? settings.retry;
    this.timeoutMs = context?.timeoutMs === undefined ? settings.timeoutMs : noLimit(context.timeoutMs);
    this.retrySafe = this.retry.retries > 0 && isSafeToRetry(request.method, body, settings.dedupKeys);
    const own = context?.deadlineMs ?? callDeadline(request);
    this.deadlineMs = own === undefined ? settings.deadlineMs : noLimit(own);
    this.endsAt = this.deadlineMs === undefined ? Number.POSITIVE_INFINITY : settings.now() + this.deadlineMs;
    const callMiddleware = context?.middleware as readonly Middleware[] | undefined;
    this.middleware = callMiddleware === undefined || callMiddleware.length === 0 ? settings.middleware : [...settings.middleware, ...callMiddleware];
    if (context !== undefined) context.urlPath = urlPathOf(request.url);
  }

  /** Method, path template (the URL path when the call came without one) and concrete URL path. */
  operation(): OperationRef {
    if (this.#operation === undefined) {
      const urlPath = urlPathOf(this.request.url);
      this.#operation = { method: this.context?.method ?? this.request.method, path: this.context?.path ?? urlPath, urlPath };
    }
    return this.#operation;
  }

  deadlineError(): ApiTimeoutError {
    return new ApiTimeoutError(this.operation(), this.deadlineMs ?? 0, 'deadline', this.attempts);
  }

  /** The error of an attempt whose time ran out: the call's deadline, or the attempt's own `timeoutMs`. */
  timeoutError(byDeadline: boolean): ApiTimeoutError {
    return byDeadline ? this.deadlineError() : new ApiTimeoutError(this.operation(), this.timeoutMs ?? 0, 'attempt', this.attempts);
  }

  /** Waits `ms` before another attempt, or throws `failure` when the wait would outlast the deadline. */
  async waitBeforeRetry(ms: number, failure: Error): Promise<void> {
    if (this.settings.now() + ms >= this.endsAt) throw failure;
    await this.settings.sleep(ms, this.userSignal);
  }

  /** Tells the observers an attempt starts; returns what to call when it ends (`undefined` when nobody listens). */
  startAttempt(attempt: number, maxAttempts: number, request: Request, startedAt: number): ((end: AttemptEnd) => void)[] | undefined {
    const { observers } = this.settings;
    if (observers.length === 0) return undefined;
    const start: AttemptStart = { operation: this.operation(), attempt, maxAttempts, url: request.url, headers: request.headers, startedAt };
    const finishes: ((end: AttemptEnd) => void)[] = [];
    for (const observe of observers) {
      try {
        const finish = observe(start);
        if (typeof finish === 'function') finishes.push(finish);
      } catch {
        // An observer's failure must not break the call.
      }
    }
    return finishes;
  }

  /**
   * Records what an attempt got (errors and `responseOf` list it) and tells
   * the observers. `failure` builds the attempt's error after the record is
   * made, so the error lists its own attempt too.
   */
  endAttempt<E extends Error | undefined>(
    finishes: ((end: AttemptEnd) => void)[] | undefined,
    attempt: number,
    maxAttempts: number,
    startedAt: number,
    outcome: { status?: number; headers?: Headers; errorType?: string },
    retry: RetryDecision,
    failure?: () => E,
  ): E {
    const durationMs = this.settings.now() - startedAt;
    const requestId = outcome.headers === undefined ? undefined : requestIdOf(outcome.headers);
    const { status, errorType } = outcome;
    this.attempts.push({ attempt, status, error: errorType, durationMs, requestId });
    const error = failure?.() as E;
    if (finishes === undefined || finishes.length === 0) return error;
    const end: AttemptEnd = {
      operation: this.operation(),
      attempt,
      maxAttempts,
      url: this.request.url,
      headers: this.request.headers,
      startedAt,
      durationMs,
      status,
      error,
      errorType,
      requestId,
      retry,
    };
    for (const finish of finishes) {
      try {
        finish(end);
      } catch {
        // An observer's failure must not break the call.
      }
    }
    return error;
  }

  async attemptFrom(first: number): Promise<Response> {
    const { settings, userSignal, retry, timeoutMs } = this;
    const maxAttempts = this.retrySafe ? retry.retries + 1 : 1;
    for (let attempt = first; ; attempt++) {
      const canRetry = this.retrySafe && attempt < retry.retries;
      const left = this.endsAt - settings.now();
      if (left <= 0) throw this.deadlineError();
      // The attempt's own limit, or what is left of the call's, whichever ends first.
      const byDeadline = timeoutMs === undefined || left < timeoutMs;
      const limit = byDeadline ? left : timeoutMs;
      const deadline =
        limit === Number.POSITIVE_INFINITY
          ? undefined
          : this.callerCanAbort
            ? deadlineAfter(userSignal, limit, attemptTimedOut)
            : batchedDeadlineAfter(limit);

      const number = attempt + 1;
      const startedAt = settings.now();
      const finishes = this.startAttempt(number, maxAttempts, this.request, startedAt);
      let response: Response;
      try {
        const attemptInit = attemptInitFor(this, deadline?.signal);
        response = this.middleware.length === 0 ? await this.send(attemptInit) : await this.sendThroughMiddleware(attemptInit, number);
      } catch (error) {
        deadline?.clear();
        // An SdkError from the `fetch` itself (a redirect we refuse, the sandbox's SandboxUsageError) says what
        // is wrong already: no retry can help, and wrapping it as a connection failure would hide it.
        if (userSignal.aborted || this.abortedByMiddleware || error instanceof SdkError) {
          const reason = userSignal.aborted || this.abortedByMiddleware ? 'the caller aborted' : 'not a failure another attempt can mend';
          const errorType = error instanceof Error ? error.name : 'abort';
          this.endAttempt(finishes, number, maxAttempts, startedAt, { errorType }, { willRetry: false, reason }, () => (error instanceof Error ? error : undefined));
          throw error;
        }
        const timedOut = deadline?.timedOut() === true;
        // The caller's own bug (a wrapper that throws, a consumed Request): sending again would meet it again.
        if (!timedOut && !isNetworkFailure(error)) {
          const reason = 'the fetch function failed, not the network';
          throw this.endAttempt(finishes, number, maxAttempts, startedAt, { errorType: 'FetchFunctionError' }, { willRetry: false, reason }, () => fetchThrew(this, error));
        }
        const delay = canRetry && !(timedOut && byDeadline) ? backoffDelay(attempt, retry, settings.random) : undefined;
        const willRetry = delay !== undefined && settings.now() + delay < this.endsAt;
        const decision = this.failureDecision(canRetry, timedOut && byDeadline, willRetry, delay);
        const failure = this.endAttempt(finishes, number, maxAttempts, startedAt, { errorType: timedOut ? 'ApiTimeoutError' : 'ApiConnectionError' }, decision, () =>
          timedOut ? this.timeoutError(byDeadline) : new ApiConnectionError(this.operation(), error, this.attempts),
        );
        if (!willRetry) throw failure;
        await this.settings.sleep(delay ?? 0, userSignal);
        continue;
      }

      if (canRetry && isRetryableStatus(response.status)) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), settings.now());
        const wait = retryAfter ?? backoffDelay(attempt, retry, settings.random);
        const withinRetryAfter = retryAfter === undefined || retryAfter <= retry.maxRetryAfterMs;
        const worthWaiting = withinRetryAfter && settings.now() + wait < this.endsAt;
        if (worthWaiting) {
          this.endAttempt(finishes, number, maxAttempts, startedAt, response, {
            willRetry: true,
            delayMs: wait,
            reason: `${response.status} is transient${retryAfter === undefined ? '' : ' (waiting out its Retry-After)'}`,
          });
          deadline?.clear();
          // Free the connection before waiting; the body of a retried answer is not needed.
          await response.body?.cancel().catch(() => undefined);
          await settings.sleep(wait, userSignal);
          continue;
        }
        this.endAttempt(finishes, number, maxAttempts, startedAt, response, {
          willRetry: false,
          reason: withinRetryAfter ? 'the next attempt would end after the call\'s deadline' : `its Retry-After (${retryAfter} ms) is longer than retry.maxRetryAfterMs`,
        });
      } else {
        this.endAttempt(finishes, number, maxAttempts, startedAt, response, this.answerDecision(response.status, canRetry));
      }
      // Handed back on every branch with its deadline over the body.
      guardBody(response, { deadline, call: this, byDeadline, retryAfter: canRetry ? attempt : undefined });
      return response;
    }
  }

  /** Sends an attempt (its first hop, then any same-origin redirects). */
  async send(attemptInit: RequestInit | undefined, request: Request = this.request, body: string | undefined = this.body): Promise<Response> {
    const response = answerOf(this, await sendFirstHop(this, attemptInit, request, body));
    // Redirects take their own loop, so the common answer waits on one promise less.
    return isRedirect(response) ? followRedirects(this, response, attemptInit) : response;
  }

  /**
   * One attempt through the client's middleware, as openapi-fetch would run
   * it for a whole call: `onRequest` in order (a Response it returns is the
   * attempt's answer), then `onResponse` or, when sending fails, `onError`,
   * in reverse order. Each sees a fresh copy of the request and `attempt`.
   */
  async sendThroughMiddleware(attemptInit: RequestInit | undefined, attempt: number): Promise<Response> {
    const { context } = this;
    const params = (context?.params ?? {}) as Record<string, unknown>;
    const schemaPath = context?.path ?? this.operation().path;
    const options = MIDDLEWARE_OPTIONS(this.settings.baseUrl);
    const id = `${attempt}`;
    const copy = this.body === undefined ? new Request(this.request) : new Request(this.request, { body: this.body });
    let request = copy;
    let body = this.body;
    let response: Response | undefined;
    for (const m of this.middleware) {
      if (typeof m.onRequest !== 'function') continue;
      const result: unknown = await m.onRequest({ request, schemaPath, params, options, id, attempt } as never);
      if (result instanceof Request) {
        request = result;
        body = result.body === null ? undefined : await result.clone().text();
      } else if (result instanceof Response) {
        response = result;
        break;
      } else if (result !== undefined) {
        throw new ConfigurationError('middleware', 'onRequest must return a Request, a Response or nothing');
      }
    }
    if (response === undefined) {
      // A middleware's own Request may carry a signal of its own: it aborts the attempt too, as the caller's would.
      const ownSignal = request === copy ? undefined : request.signal;
      const init = ownSignal === undefined ? attemptInit : { ...attemptInit, signal: attemptInit?.signal ? AbortSignal.any([attemptInit.signal, ownSignal]) : ownSignal };
      try {
        response = await this.send(init, request, body);
      } catch (error) {
        if (ownSignal?.aborted) {
          this.abortedByMiddleware = true;
          throw ownSignal.reason;
        }
        let failure: unknown = error;
        for (let i = this.middleware.length - 1; i >= 0; i--) {
          const m = this.middleware[i]!;
          if (typeof m.onError !== 'function') continue;
          const result: unknown = await m.onError({ request, error: failure, schemaPath, params, options, id, attempt } as never);
          if (result instanceof Response) {
            response = result;
            break;
          }
          if (result instanceof Error) failure = result;
          else if (result !== undefined) throw new ConfigurationError('middleware', 'onError must return a Response, an Error or nothing');
        }
        if (response === undefined) throw failure;
      }
    }
    for (let i = this.middleware.length - 1; i >= 0; i--) {
      const m = this.middleware[i]!;
      if (typeof m.onResponse !== 'function') continue;
      const result: unknown = await m.onResponse({ request, response, schemaPath, params, options, id, attempt } as never);
      if (result instanceof Response) response = result;
      else if (result !== undefined) throw new ConfigurationError('middleware', 'onResponse must return a Response or nothing');
    }
    return response;
  }

  /** Why a failed attempt (no answer) is retried or not. */
  failureDecision(canRetry: boolean, deadlineSpent: boolean, willRetry: boolean, delay: number | undefined): RetryDecision {
    if (willRetry) return { willRetry, delayMs: delay, reason: 'no answer is transient' };
    if (deadlineSpent) return { willRetry, reason: "the call's deadline is spent" };
    if (canRetry) return { willRetry, reason: "the next attempt would end after the call's deadline" };
    return { willRetry, reason: this.noRetryReason() };
  }

  /** Why an answer is handed back as it is. */
  answerDecision(status: number, canRetry: boolean): RetryDecision {
    if (!isRetryableStatus(status)) return { willRetry: false, reason: status < 400 ? 'answered' : `${status} is not transient` };
    return { willRetry: false, reason: canRetry ? 'answered' : this.noRetryReason() };
  }

  noRetryReason(): string {
    if (this.retry.retries === 0) return 'retries are off';
    if (!this.retrySafe) return `not safe to repeat a ${this.request.method} without a deduplication key`;
    return 'last attempt';
  }

  /** Reads the answer again from a fresh attempt after `attempt`'s body failed (and a retry is safe). */
  async retryAfterBodyFailure(attempt: number, failure: Error): Promise<Response> {
    await this.waitBeforeRetry(backoffDelay(attempt, this.retry, this.settings.random), failure);
    return this.attemptFrom(attempt + 1);
  }
}

/** The abort reason of an attempt whose time ran out (the transport turns it into an ApiTimeoutError). */
function attemptTimedOut(): DOMException {
  return new DOMException('attempt timed out', 'TimeoutError');
}

/**
 * A call's own `deadlineMs` (openapi-fetch copies unknown call options onto
 * the Request): `undefined` when the call sets none, `NO_LIMIT` when it turns
 * the client's off (`0` or `Infinity`, as on the client).
 */
function callDeadline(request: Request): number | undefined {
  const value = (request as unknown as { deadlineMs?: unknown }).deadlineMs;
  if (value === undefined) return undefined;
  return durationOption('deadlineMs', value);
}

/** `0` and `Infinity` both mean no limit. */
function noLimit(ms: number): number | undefined {
  return ms === 0 || ms === Number.POSITIVE_INFINITY ? undefined : ms;
}

/** What openapi-fetch hands middleware as `options`, as far as the transport knows it. */
function MIDDLEWARE_OPTIONS(baseUrl: string): Readonly<Record<string, unknown>> {
  return Object.freeze({ baseUrl, parseAs: 'json' });
}

/** The init of every hop of an attempt: its deadline's signal, and `redirect: 'manual'` if the Request lacks it. */
function attemptInitFor(call: Call, signal: AbortSignal | undefined): RequestInit | undefined {
  const { request, init } = call;
  // The clients build every Request with `redirect: 'manual'` already, which
  // spares an init object (undici copies the Request when it gets one).
  const redirect = request.redirect === 'manual' ? undefined : ({ redirect: 'manual' } as const);
  if (signal === undefined) return redirect === undefined ? init : { ...init, ...redirect };
  return { ...init, signal, ...redirect };
}

/** Sends an attempt's first hop, signed. */
function sendFirstHop(call: Call, attemptInit: RequestInit | undefined, request: Request, body: string | undefined): Promise<Response> {
  call.settings.authorize?.(request.headers, request.method, request.url, body);
  // A consumed Request cannot be sent again; rebuild it around the kept body text.
  return call.settings.send(body === undefined ? request : new Request(request, { body }), attemptInit);
}

/** What the `fetch` function resolved to, when it is a Response (of any realm); a FetchFunctionError otherwise. */
function answerOf(call: Call, value: unknown): Response {
  const answer = value as Partial<Response> | null | undefined;
  if (typeof answer?.status === 'number' && typeof answer.headers?.get === 'function') return value as Response;
  throw new FetchFunctionError(call.operation(), `resolved to ${shortDescription(value)} instead of a Response`);
}

/** The FetchFunctionError of a `fetch` that threw `error`: its name and message, the request's credentials redacted. */
function fetchThrew(call: Call, error: unknown): FetchFunctionError {
  const shown = error instanceof Error ? `${error.name}: ${error.message}` : shortDescription(error);
  return new FetchFunctionError(call.operation(), `threw ${redactCredentials(shown, call.request.headers)}`, error);
}

/** Header names whose values are credentials: the API key's `Authorization`, the report API's key and signature. */
const CREDENTIAL_HEADER = /authorization|key|signature|secret|token|cookie/i;

/** `text` with every credential header value of the request (and the key inside `Apikey <key>`) replaced. */
function redactCredentials(text: string, headers: Headers): string {
  let redacted = text;
  headers.forEach((value, name) => {
    if (!CREDENTIAL_HEADER.test(name)) return;
    for (const secret of [value, value.replace(/^\S+\s+/, '')]) {
      if (secret.length >= 8) redacted = redacted.split(secret).join('[redacted]');
    }
  });
  return redacted;
}

/** A thrown or resolved value that is not an Error, briefly: `undefined`, `"offline mode"`, `an object`. */
function shortDescription(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
  return describe(value);
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || REDIRECT_STATUSES.has(response.status);
}

/**
 * Follows an attempt's redirects within the request's origin, each hop
 * signed again for its own URL. A redirect elsewhere, or one that cannot be
 * read, is an UnexpectedRedirectError.
 */
async function followRedirects(call: Call, first: Response, attemptInit: RequestInit | undefined): Promise<Response> {
  const { request } = call;
  const { send, authorize } = call.settings;
  let url = request.url;
  let method = request.method;
  let sentBody = call.body;
  let response = first;
  for (let followed = 0; isRedirect(response); followed++) {
    if (response.type === 'opaqueredirect') {
      throw new UnexpectedRedirectError(call.operation(), response.status, undefined, 'a redirect this runtime does not let the SDK inspect, so it is not followed');
    }
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (location === null || location === '') {
      throw new UnexpectedRedirectError(call.operation(), response.status, undefined, 'a redirect without a Location');
    }
    const target = urlOrUndefined(location, url);
    if (target === undefined) {
      // Not shown: an unreadable Location may hold anything, credentials included.
      throw new UnexpectedRedirectError(call.operation(), response.status, undefined, 'a redirect to a Location that is not a URL');
    }
    const shown = `${target.origin}${target.pathname}`;
    if (target.origin !== new URL(request.url).origin) {
      throw new UnexpectedRedirectError(
        call.operation(),
        response.status,
        shown,
        'a redirect to another origin, which the SDK does not follow (credentials stay with the origin they were meant for)',
      );
    }
    if (followed >= MAX_REDIRECTS) throw new UnexpectedRedirectError(call.operation(), response.status, shown, `more than ${MAX_REDIRECTS} redirects`);
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      sentBody = undefined;
    }
    url = target.href;
    const headers = new Headers(request.headers);
    authorize?.(headers, method, url, sentBody);
    response = answerOf(call, await send(new Request(url, { method, headers, body: sentBody, signal: request.signal, redirect: 'manual' }), attemptInit));
  }
  return response;
}

function urlOrUndefined(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

type BodyReader = 'text' | 'json' | 'arrayBuffer' | 'blob' | 'formData';
type Readers = Record<BodyReader, () => Promise<unknown>>;

interface BodyGuard {
  deadline: Deadline | undefined;
  call: Call;
  /** Whether the attempt's limit was the call's deadline (for the error's wording). */
  byDeadline: boolean;
  /** The attempt to retry after when the body fails and a retry is safe; `undefined` when not. */
  retryAfter: number | undefined;
  /** The readers of a Response that carries its own (not from its prototype), kept before they are replaced. */
  ownReaders?: Readers;
}

const GUARD = Symbol('bodyGuard');
type GuardedResponse = Response & { [GUARD]: BodyGuard };

/**
 * Keeps an attempt's deadline (the caller's abort, the timeout, the call's
 * deadline) over the body, which openapi-fetch reads after we return, and
 * clears it once the body is read. A body that fails mid-way (a reset, a
 * corrupt gzip stream) becomes an ApiConnectionError, or, when a retry is
 * safe, is read again from a fresh attempt with the same status. The reader
 * methods of this one Response are replaced by shared functions that find
 * the guard on the Response: no closures per answer, and no copy of the
 * body (a new Response around it measured about 12 µs).
 */
function guardBody(response: Response, guard: BodyGuard): void {
  if (response.body === null || response.headers.get('content-length') === '0') {
    guard.deadline?.clear();
    return;
  }
  const readers = response as unknown as Readers;
  if (Object.hasOwn(response, 'text') || Object.hasOwn(response, 'json')) {
    guard.ownReaders = { text: readers.text, json: readers.json, arrayBuffer: readers.arrayBuffer, blob: readers.blob, formData: readers.formData };
  }
  (response as GuardedResponse)[GUARD] = guard;
  readers.text = guardedText;
  readers.json = guardedJson;
  readers.arrayBuffer = guardedArrayBuffer;
  readers.blob = guardedBlob;
  readers.formData = guardedFormData;
}

function guardedText(this: GuardedResponse): Promise<unknown> {
  return guardedRead(this, 'text');
}
function guardedJson(this: GuardedResponse): Promise<unknown> {
  return guardedRead(this, 'json');
}
function guardedArrayBuffer(this: GuardedResponse): Promise<unknown> {
  return guardedRead(this, 'arrayBuffer');
}
function guardedBlob(this: GuardedResponse): Promise<unknown> {
  return guardedRead(this, 'blob');
}
function guardedFormData(this: GuardedResponse): Promise<unknown> {
  return guardedRead(this, 'formData');
}

async function guardedRead(response: GuardedResponse, name: BodyReader): Promise<unknown> {
  const guard = response[GUARD];
  const { deadline, call } = guard;
  // The runtime's own reader, from the prototype the instance's own property now hides.
  const read = (guard.ownReaders ?? (Object.getPrototypeOf(response) as Readers))[name];
  try {
    const value = await read.call(response);
    deadline?.clear();
    return value;
  } catch (error) {
    deadline?.clear();
    // A body that is not JSON: the client's call wrapper names it (client.ts), whoever parsed it.
    if (call.userSignal.aborted || error instanceof SyntaxError) throw error;
    if (deadline?.timedOut()) throw call.timeoutError(guard.byDeadline);
    const failure = new ApiConnectionError(call.operation(), error);
    if (guard.retryAfter === undefined) throw failure;
    const again = await call.retryAfterBodyFailure(guard.retryAfter, failure);
    // openapi-fetch has already taken this status as the answer; only the same status can stand in.
    if (again.status !== response.status) {
      await again.body?.cancel().catch(() => undefined);
      throw failure;
    }
    return (again as unknown as Readers)[name]();
  }
}


