export * from './client.js';
export * from './reports.js';
export * from './report-decoder.js';
export { ApiError, ApiConnectionError, ApiTimeoutError, ConfigurationError, SdkError, isApiError } from '../core/errors.js';
export { unwrap, InvalidResponseBodyError } from '../core/unwrap.js';
/** The exact text the HMAC signs, for checking a signature by hand. */
export { stringToSign } from '../core/auth.js';
export { collect, PaginationCycleError } from '../core/paginate.js';
