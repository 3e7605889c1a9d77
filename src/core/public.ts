// What every entry point exports besides its own client and helpers: the
// error classes, the retry defaults, `unwrap` and `collect`. One list, so a
// new shared export reaches every entry at once.
export {
  ApiError,
  ApiConnectionError,
  ApiTimeoutError,
  ConfigurationError,
  FetchFunctionError,
  SdkError,
  UnexpectedRedirectError,
  RateLimitError,
  isApiError,
  isRateLimited,
  type AttemptRecord,
} from './errors.js';
export type {
  AttemptEnd,
  AttemptObserver,
  AttemptStart,
  CallOperation,
  CallOptions,
  ClientHooks,
  Logger,
  LogLevel,
  RetryDecision,
  SdkClient,
} from './client.js';
export { withResponse, type ResponseInfo, type WithOptions } from './derived-client.js';
export { PollFailedError, PollTimeoutError, UnknownStatusError, type PollOptions, type StatusKind } from './poll.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export { unwrap, InvalidResponseBodyError } from './unwrap.js';
export { collect, PaginationCycleError } from './paginate.js';
export { openTelemetryObserver, type OpenTelemetryObserverOptions } from './telemetry/tracing.js';
export type { OpenTelemetryApi, OtelMeter, OtelTracerProvider } from './telemetry/otel-api.js';
