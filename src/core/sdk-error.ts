/**
 * Base class of every error thrown by the SDK. A module of its own, so the
 * standalone report decoder can extend it without bringing the HTTP errors.
 */
export class SdkError extends Error {
  override name = 'SdkError';
}
