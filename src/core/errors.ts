/**
 * Every error the SDK throws is one of these classes, so callers can branch
 * with `instanceof` (or the narrowing helpers) and never see a bare TypeError
 * from a bad body. No error message ever contains a credential: messages are
 * built from the status, the operation and the service's own error text.
 */

import { SdkError } from './sdk-error.js';

export { SdkError };

/** A client option (thrown at construction) or a call option (thrown by the call) is missing or malformed. */
export class ConfigurationError extends SdkError {
  override name = 'ConfigurationError';
  /** The option that was wrong, e.g. `apiKey`. */
  readonly option: string;
  constructor(option: string, problem: string) {
    super(`Invalid option \`${option}\`: ${problem}`);
    this.option = option;
  }
}

/** The operation of a failed call: method, path template and the concrete path it was sent to. */
export interface OperationRef {
  readonly method: string;
  /** The path template from the spec, e.g. `/wallets/{wallet_id}`, or the URL path when unknown. */
  readonly path: string;
  /** The concrete path of the URL sent, base path included, e.g. `/v1/wallets/3fa85f64-…`. */
  readonly urlPath: string;
}

/** What one attempt of a call got: a status, or the class of the error that ended it, and how long it took. */
export interface AttemptRecord {
  /** 1 for the first request, 2 for the first retry, … */
  readonly attempt: number;
  /** The HTTP status, when the service answered. */
  readonly status?: number | undefined;
  /** The class of the error that ended the attempt (`ApiTimeoutError`, `ApiConnectionError`, …), when it got no answer. */
  readonly error?: string | undefined;
  readonly durationMs: number;
  /** The service's request ID, when it sent one. */
  readonly requestId?: string | undefined;
}

const NO_ATTEMPTS: readonly AttemptRecord[] = Object.freeze([]);

export interface ApiErrorInit<T extends string = string, C extends string = string> {
  status: number;
  type: T;
  code?: C | undefined;
  message: string;
  operation: OperationRef;
  headers: Headers;
  body: unknown;
  requestId?: string | undefined;
  /** Every attempt of the call, the last one's answer being this error. */
  attempts?: readonly AttemptRecord[] | undefined;
}

/**
 * The service answered with a non-2xx status. `type` and `code` come from the
 * error body when it has the documented shape; otherwise `type` is
 * `HTTP_<status>` and `body` holds whatever was sent (HTML, text, nothing).
 */
export class ApiError<T extends string = string, C extends string = string> extends SdkError {
  override name = 'ApiError';
  readonly status: number;
  readonly type: T;
  readonly code: C | undefined;
  readonly operation: OperationRef;
  readonly headers: Headers;
  /** The parsed error body (JSON), or its text when it was not JSON. */
  readonly body: unknown;
  readonly requestId: string | undefined;
  /** Every attempt of the call (`attempts.length` of them), the last one being this answer. */
  readonly attempts: readonly AttemptRecord[];

  constructor(init: ApiErrorInit<T, C>) {
    const where = `${init.operation.method} ${init.operation.path}`;
    const reason = init.code ? `${init.type}/${init.code}` : init.type;
    super(`${where} failed with ${init.status} ${reason}: ${init.message}${attemptsNote(init.attempts ?? NO_ATTEMPTS)}`);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.operation = init.operation;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = init.requestId;
    this.attempts = init.attempts ?? NO_ATTEMPTS;
  }
}

/**
 * The service answered 429 Too Many Requests, after every retry the call was
 * allowed. An ApiError like any other (its `type` and `code` are the API's
 * own: the channels API calls a rate limit `VALIDATION_ERROR`), so test for
 * this class (or `isRateLimited`) before testing `type`.
 */
export class RateLimitError<T extends string = string, C extends string = string> extends ApiError<T, C> {
  override name = 'RateLimitError';
  /** The service's `Retry-After`, in ms, when it sent a readable one. */
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit<T, C>, retryAfterMs: number | undefined) {
    super(init);
    this.retryAfterMs = retryAfterMs;
  }
}

/** True when `error` says the service rate-limited the call (a 429), whatever the API names it in `type`. */
export function isRateLimited(error: unknown): error is RateLimitError {
  return error instanceof RateLimitError;
}

/** The request never got an HTTP answer (DNS, connection reset, TLS...), after every retry. */
export class ApiConnectionError extends SdkError {
  override name = 'ApiConnectionError';
  readonly operation: OperationRef;
  /** Every attempt of the call, the last one being this failure. */
  readonly attempts: readonly AttemptRecord[];
  constructor(operation: OperationRef, cause: unknown, attempts: readonly AttemptRecord[] = NO_ATTEMPTS) {
    super(`${operation.method} ${operation.path} failed: no answer from the service${attemptsNote(attempts)}`, { cause });
    this.operation = operation;
    this.attempts = attempts;
  }
}

/**
 * The `fetch` function the client calls failed in a way that is not the
 * network's: it threw or rejected with something no runtime uses for a failed
 * connection (a TypeError from reusing a consumed Request, a wrapper's own
 * Error, a RangeError, a string), or resolved to something that is not a
 * Response. Usually a bug in a wrapper of `fetch`; never retried, since
 * sending again would meet the same bug. The message quotes the original
 * error's name and message (credentials on the request redacted); `cause`
 * holds it.
 */
export class FetchFunctionError extends SdkError {
  override name = 'FetchFunctionError';
  readonly operation: OperationRef;
  constructor(operation: OperationRef, problem: string, cause?: unknown) {
    super(`${operation.method} ${operation.path} failed: your fetch ${problem}`, { cause });
    this.operation = operation;
  }
}

/**
 * The call ran out of time: one attempt exceeded `timeoutMs` (after every
 * retry), or the whole call, retries and waits included, exceeded
 * `deadlineMs` (`kind` says which).
 */
export class ApiTimeoutError extends SdkError {
  override name = 'ApiTimeoutError';
  readonly operation: OperationRef;
  readonly timeoutMs: number;
  readonly kind: 'attempt' | 'deadline';
  /** Every attempt of the call, the last one being this failure. */
  readonly attempts: readonly AttemptRecord[];
  constructor(operation: OperationRef, timeoutMs: number, kind: 'attempt' | 'deadline' = 'attempt', attempts: readonly AttemptRecord[] = NO_ATTEMPTS) {
    const what = kind === 'attempt' ? 'timed out after' : 'exceeded its deadline of';
    super(`${operation.method} ${operation.path} ${what} ${timeoutMs} ms${attemptsNote(attempts)}`);
    this.operation = operation;
    this.timeoutMs = timeoutMs;
    this.kind = kind;
    this.attempts = attempts;
  }
}

/**
 * The service answered with a redirect the SDK does not follow: one to
 * another origin (credentials, signatures and bodies never leave the
 * origin they were meant for), too many hops, or one it cannot read.
 * `location` is the target without any user info, query or fragment.
 */
export class UnexpectedRedirectError extends SdkError {
  override name = 'UnexpectedRedirectError';
  readonly operation: OperationRef;
  readonly status: number;
  readonly location: string | undefined;
  constructor(operation: OperationRef, status: number, location: string | undefined, problem: string) {
    super(`${operation.method} ${operation.path} answered ${status}: ${problem}${location === undefined ? '' : ` (location ${location})`}`);
    this.operation = operation;
    this.status = status;
    this.location = location;
  }
}

/**
 * A successful answer whose body is not what the spec documents: not JSON
 * (e.g. an HTML page with status 200), empty where content is documented,
 * or JSON of another shape than the operation's. A cheap shape check, not
 * full validation.
 */
export class InvalidResponseBodyError extends SdkError {
  override name = 'InvalidResponseBodyError';
  /** The operation, e.g. `GET /api/v1/reports/latest`, when known. */
  readonly operation: string | undefined;
  constructor(operation: string | undefined, problem: string, options?: { cause?: unknown }) {
    super(`${operation === undefined ? 'the service' : operation} answered 2xx with ${problem}`, options);
    this.operation = operation;
  }
}

/**
 * True when `error` is an ApiError, optionally of the given `type` and `code`;
 * narrows both so a `switch` on them is checked against the spec's enums.
 *
 *     if (isApiError(e, 'CONFLICT', 'IDEMPOTENCY_KEY_MISMATCH')) ...
 */
export function isApiError<T extends string = string, C extends string = string>(
  error: unknown,
  type?: T,
  code?: C,
): error is ApiError<T, C> {
  if (!(error instanceof ApiError)) return false;
  if (type !== undefined && error.type !== type) return false;
  if (code !== undefined && error.code !== code) return false;
  return true;
}

/** ` (3 attempts: 503, 503, ApiTimeoutError)` when a call made more than one attempt. */
function attemptsNote(attempts: readonly AttemptRecord[]): string {
  if (attempts.length < 2) return '';
  return ` (${attempts.length} attempts: ${attempts.map((a) => a.status ?? a.error ?? '?').join(', ')})`;
}

/**
 * A wait read a status this version of the SDK does not know (the service
 * added it later), so it cannot tell whether the wait is over. Thrown at once
 * instead of polling to the time limit; pass `onUnknownStatus: 'wait'` to a
 * wait to keep polling through such a status instead.
 */
export class UnknownStatusError<R = unknown> extends SdkError {
  override name = 'UnknownStatusError';
  /** What was waited on, e.g. `operation 3fa8…`. */
  readonly what: string;
  /** The status the SDK does not know, as the service sent it. */
  readonly status: string;
  /** The resource (or status event) that carried the status. */
  readonly resource: R;
  constructor(what: string, status: string, resource: R) {
    super(`${what} is in status \`${status}\`, which this version of the SDK does not know (update the SDK, or pass onUnknownStatus: 'wait' to keep waiting)`);
    this.what = what;
    this.status = status;
    this.resource = resource;
  }
}
