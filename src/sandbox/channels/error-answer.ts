/**
 * The channels error body (`ApplicationError`: `{type, code?, message}`) for
 * every refusal, the core's included. `type` follows the status, because the
 * spec's categories are tied to it (`VALIDATION_ERROR` on 400, 401 and 429,
 * `NOT_FOUND` on 404, `CONFLICT` on 409, `INTERNAL_ERROR` on 5xx); only a 401
 * raised as `ORGANIZATION_NOT_FOUND` keeps that type. So the core's own
 * refusals (a body that is not JSON, an injected fault) read as the service's.
 */
import type { SandboxAnswer, SandboxHttpError } from '../types.js';

const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'VALIDATION_ERROR',
  401: 'VALIDATION_ERROR',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'VALIDATION_ERROR',
};

export function channelsErrorAnswer(error: SandboxHttpError): SandboxAnswer {
  const type =
    error.status === 401 && error.type === 'ORGANIZATION_NOT_FOUND'
      ? 'ORGANIZATION_NOT_FOUND'
      : (TYPE_BY_STATUS[error.status] ?? (error.status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR'));
  const body: Record<string, string> = { type };
  if (error.code !== undefined) body.code = error.code;
  body.message = error.message;
  return { status: error.status, body, ...(error.headers === undefined ? {} : { headers: { ...error.headers } }) };
}
