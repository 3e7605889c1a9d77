export * from './client.js';
export * from './evaluation.js';
export * from './paginate.js';
export { ApiError, ApiConnectionError, ApiTimeoutError, ConfigurationError, SdkError, isApiError } from '../core/errors.js';
export { PollFailedError, PollTimeoutError, type PollOptions } from '../core/poll.js';
export { unwrap, InvalidResponseBodyError } from '../core/unwrap.js';
export { collect, PaginationCycleError } from '../core/paginate.js';
