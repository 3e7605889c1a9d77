/**
 * The report API's error body (`StreamsError`: `{type, code, message}`) for
 * every refusal, the core's included: `type` is the spec's category for the
 * status, whatever name the refusal was raised with, so an injected `503`
 * reads as the service's own `UPSTREAM_UNAVAILABLE`.
 */
import type { SandboxAnswer, SandboxHttpError } from '../types.js';

const CATEGORIES: Readonly<Record<number, readonly [type: string, code: string]>> = {
  400: ['BAD_REQUEST', 'INVALID_REQUEST'],
  401: ['UNAUTHORIZED', 'SIGNATURE_MISMATCH'],
  403: ['UNAUTHORIZED', 'STREAMING_NOT_ALLOWED'],
  429: ['RATE_LIMITED', 'RATE_LIMIT_EXCEEDED'],
  500: ['INTERNAL_ERROR', 'UNEXPECTED'],
  502: ['UPSTREAM_UNAVAILABLE', 'BAD_GATEWAY'],
  503: ['UPSTREAM_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
};

export function streamsErrorAnswer(error: SandboxHttpError): SandboxAnswer {
  const [type, code] = CATEGORIES[error.status] ?? [error.type, undefined];
  const body: Record<string, string> = { type };
  const reason = error.code ?? code;
  if (reason !== undefined) body.code = reason;
  body.message = error.message;
  return { status: error.status, body, ...(error.headers === undefined ? {} : { headers: { ...error.headers } }) };
}
