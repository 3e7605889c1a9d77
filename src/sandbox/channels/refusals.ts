/**
 * The channels service's refusals, as `SandboxHttpError`s that
 * `channelsErrorAnswer` turns into its `ApplicationError` body. Codes are
 * typed by the spec's `ApplicationErrorCode`, so a misspelt code does not build.
 */
import { SandboxHttpError } from '../types.js';
import type { ErrorCode } from './model.js';

export function badRequest(message: string): SandboxHttpError {
  return new SandboxHttpError(400, 'VALIDATION_ERROR', message);
}

/** `404`; an unknown event has no code (the service sends none). */
export function notFound(message: string, code?: ErrorCode): SandboxHttpError {
  return new SandboxHttpError(404, 'NOT_FOUND', message, code);
}

/** `409`; archiving a channel that still has watchers has no code. */
export function conflict(message: string, code?: ErrorCode): SandboxHttpError {
  return new SandboxHttpError(409, 'CONFLICT', message, code);
}
