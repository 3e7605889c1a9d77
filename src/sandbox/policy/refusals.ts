/**
 * Refusals of the policy APIs and the two error bodies they use: the
 * coordinator and evaluation answer `AceError` (`{error, message}`, `error`
 * one of the spec's categories), reporting answers `ReportingError`
 * (`{message, code, request_id}`). Handlers throw with the status the
 * situation calls for; the body is chosen here from the refusal's kind (its
 * `type`), or from the status for refusals of the core and injected faults,
 * so those read like the service's own. The kind, not the status, names a
 * refusal whose status was moved to the one its operation documents
 * (`coordinator-refusals.ts`).
 */
import { SandboxHttpError, type SandboxAnswer } from '../types.js';

export const badRequest = (message: string) => new SandboxHttpError(400, 'BAD_REQUEST', message);
export const notFound = (message: string) => new SandboxHttpError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new SandboxHttpError(409, 'CONFLICT', message);
export const forbidden = (message: string) => new SandboxHttpError(403, 'FORBIDDEN', message);

/** `AceError.error` for each status (the spec's enum); statuses it has no word for read as `Internal error`. */
const ACE_CATEGORIES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Already exists',
  429: 'Too many requests',
  500: 'Internal error',
};

/** `AceError.error` for each kind of refusal the handlers make (the `type` of the helpers above). */
const KIND_CATEGORIES: Readonly<Record<string, string>> = {
  BAD_REQUEST: 'Bad request',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not found',
  CONFLICT: 'Already exists',
};

export function aceErrorAnswer(error: SandboxHttpError): SandboxAnswer {
  return {
    status: error.status,
    body: { error: KIND_CATEGORIES[error.type] ?? ACE_CATEGORIES[error.status] ?? 'Internal error', message: error.message },
    ...(error.headers === undefined ? {} : { headers: { ...error.headers } }),
  };
}

/** `ReportingError.code` for each status; `code` is an open list, so other statuses keep a code of their own. */
const REPORTING_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export function reportingErrorAnswer(error: SandboxHttpError): SandboxAnswer {
  return {
    status: error.status,
    body: { message: error.message, code: REPORTING_CODES[error.status] ?? 'INTERNAL_ERROR', request_id: crypto.randomUUID() },
    ...(error.headers === undefined ? {} : { headers: { ...error.headers } }),
  };
}
