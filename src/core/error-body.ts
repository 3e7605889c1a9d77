import { ApiError, RateLimitError, type ApiErrorInit, type AttemptRecord, type OperationRef } from './errors.js';
import { parseRetryAfter } from './retry.js';

/** Longest slice of a non-JSON error body quoted in a message (an HTML page can be large). */
const MAX_QUOTED_TEXT = 200;

/**
 * Builds the ApiError for a non-2xx answer from whatever body came with it.
 * The three error shapes of the services are recognised:
 * `{type, code?, message}` (channels, streams), `{error, message}`
 * (coordinator, evaluation) and `{code, message, request_id?}` (reporting),
 * and RFC 9457 problem details from gateways (`{type, title, detail}`).
 * Anything else (HTML from a proxy, plain text, an empty body) still gives an
 * ApiError with `type` `HTTP_<status>`, never a crash.
 */
export function apiErrorFromBody(
  response: Response,
  body: unknown,
  operation: OperationRef,
  attempts?: readonly AttemptRecord[],
): ApiError {
  const fields = readErrorFields(body);
  const init: ApiErrorInit = {
    status: response.status,
    type: fields.type ?? `HTTP_${response.status}`,
    code: fields.code,
    message: fields.message ?? describeUnexpectedBody(response, body),
    operation,
    headers: response.headers,
    body,
    requestId: fields.requestId ?? requestIdOf(response.headers),
    attempts,
  };
  // A rate limit is recognisable as such whatever the API calls it in `type`.
  if (response.status === 429) return new RateLimitError(init, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
  return new ApiError(init);
}

/** The request ID header a service or its gateway sent, if any. */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('x-request-id') ?? headers.get('request-id') ?? headers.get('x-amzn-requestid') ?? undefined;
}

interface ErrorFields {
  type?: string | undefined;
  code?: string | undefined;
  message?: string | undefined;
  requestId?: string | undefined;
}

function readErrorFields(body: unknown): ErrorFields {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  const record = body as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
  // RFC 9457 problem details (proxies, gateways, mocks) carry `title`/`detail` instead.
  const message = text('message') ?? text('detail') ?? text('title');
  const requestId = text('request_id');
  if (text('type') !== undefined) return { type: text('type'), code: text('code'), message, requestId };
  if (text('error') !== undefined) return { type: text('error'), message, requestId };
  if (text('code') !== undefined) return { type: text('code'), message, requestId };
  return { message, requestId };
}

function describeUnexpectedBody(response: Response, body: unknown): string {
  const statusText = response.statusText || 'error';
  if (body === undefined || body === '') return `${statusText} (empty body)`;
  if (typeof body === 'string') {
    const squeezed = body.replace(/\s+/g, ' ').trim();
    const quoted = squeezed.length > MAX_QUOTED_TEXT ? `${squeezed.slice(0, MAX_QUOTED_TEXT)}…` : squeezed;
    return `${statusText} (unexpected body: ${quoted})`;
  }
  return `${statusText} (unexpected error body shape)`;
}
