export * from './client.js';
export * from './reports.js';
export * from './report-decoder.js';
export { ApiError, ApiConnectionError, ApiTimeoutError, ConfigurationError, SdkError, isApiError } from '../core/errors.js';
export { unwrap, InvalidResponseBodyError } from '../core/unwrap.js';
export { collect } from '../core/paginate.js';
