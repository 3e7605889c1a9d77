export * from './client.js';
export * from './reports.js';
export * from '../reports/index.js';
export * from '../core/public.js';
/** The exact text the HMAC signs, for checking a signature by hand. */
export { stringToSign } from '../core/auth.js';
export * from './report-stream/index.js';
