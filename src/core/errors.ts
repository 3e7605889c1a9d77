/**
 * Every error the SDK throws is one of these classes, so callers can branch
 * with `instanceof` (or the narrowing helpers) and never see a bare TypeError
 * from a bad body. No error message ever contains a credential: messages are
 * built from the status, the operation and the service's own error text.
 */

/** Base class of every error thrown by the SDK. */
export class SdkError extends Error {
  override name = 'SdkError';
}

/** A client option is missing or malformed; thrown at construction. */
export class ConfigurationError extends SdkError {
  override name = 'ConfigurationError';
  /** The option that was wrong, e.g. `apiKey`. */
  readonly option: string;
  constructor(option: string, problem: string) {
    super(`Invalid client option \`${option}\`: ${problem}`);
    this.option = option;
  }
}

/** Method and templated path of the request that failed. */
export interface OperationRef {
  readonly method: string;
  /** The path template from the spec, e.g. `/wallets/{wallet_id}`, or the URL path when unknown. */
  readonly path: string;
}

export interface ApiErrorInit<T extends string = string, C extends string = string> {
  status: number;
  type: T;
  code?: C | undefined;
  message: string;
  operation: OperationRef;
  headers: Headers;
  body: unknown;
  requestId?: string | undefined;
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

  constructor(init: ApiErrorInit<T, C>) {
    const where = `${init.operation.method} ${init.operation.path}`;
    const reason = init.code ? `${init.type}/${init.code}` : init.type;
    super(`${where} failed with ${init.status} ${reason}: ${init.message}`);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.operation = init.operation;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = init.requestId;
  }
}

/** The request never got an HTTP answer (DNS, connection reset, TLS...), after every retry. */
export class ApiConnectionError extends SdkError {
  override name = 'ApiConnectionError';
  readonly operation: OperationRef;
  constructor(operation: OperationRef, cause: unknown) {
    super(`${operation.method} ${operation.path} failed: no answer from the service`, { cause });
    this.operation = operation;
  }
}

/** An attempt ran longer than `timeoutMs`, after every retry. */
export class ApiTimeoutError extends SdkError {
  override name = 'ApiTimeoutError';
  readonly operation: OperationRef;
  readonly timeoutMs: number;
  constructor(operation: OperationRef, timeoutMs: number) {
    super(`${operation.method} ${operation.path} timed out after ${timeoutMs} ms`);
    this.operation = operation;
    this.timeoutMs = timeoutMs;
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
