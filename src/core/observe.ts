/**
 * What the transport tells observers about each attempt of a call: the
 * user's hooks, the logger and OpenTelemetry all see the same events, so
 * none of them has to wrap `fetch` to learn what happened. Events never
 * carry a credential: `headers` is the request's own `Headers` (an observer
 * may add a header, e.g. trace context, but the SDK's loggers never print
 * them) and `url` has no user info.
 */

/** The operation a call made: method, path template from the spec, and the concrete URL path. */
export interface CallOperation {
  readonly method: string;
  /** The path template from the spec, e.g. `/wallets/{wallet_id}` (the URL path when unknown). */
  readonly path: string;
  /** The concrete path of the URL sent, base path included, e.g. `/v1/wallets/3fa8…`. */
  readonly urlPath: string;
}

/** An attempt about to be sent. */
export interface AttemptStart {
  readonly operation: CallOperation;
  /** 1 for the first request of a call, 2 for the first retry, … */
  readonly attempt: number;
  /** Most attempts this call may make (1 when it may not be retried). */
  readonly maxAttempts: number;
  /** The request URL (origin, path and query; never user info). */
  readonly url: string;
  /** The request's headers; an observer may add one (trace context). Never log them: they hold credentials. */
  readonly headers: Headers;
  /** The clock reading when the attempt started (ms; `Date.now()` unless a test injects a clock). */
  readonly startedAt: number;
}

/** Why the transport did or did not send another attempt. */
export interface RetryDecision {
  readonly willRetry: boolean;
  /** The wait before the next attempt, in ms, when `willRetry`. */
  readonly delayMs?: number | undefined;
  /** In words, e.g. `503 is transient`, `not safe to repeat a POST without a deduplication key`, `last attempt`. */
  readonly reason: string;
}

/** How an attempt ended. */
export interface AttemptEnd extends AttemptStart {
  readonly durationMs: number;
  /** The HTTP status, when the service answered. */
  readonly status?: number | undefined;
  /** The error's class name (`ApiTimeoutError`, `ApiConnectionError`, …), when the attempt got no answer. */
  readonly errorType?: string | undefined;
  /** The error itself, when the attempt got no answer. */
  readonly error?: Error | undefined;
  /** The service's request ID header (`x-request-id` or the like), when it sent one. */
  readonly requestId?: string | undefined;
  readonly retry: RetryDecision;
}

/** Called once per attempt before it is sent; the function it returns (if any) is called when the attempt ends. */
export type AttemptObserver = (start: AttemptStart) => ((end: AttemptEnd) => void) | void;
