import { apiErrorFromBody } from './error-body.js';
import { SdkError } from './errors.js';
import { operationOfResponse } from './client.js';

/** The `{ data, error, response }` every openapi-fetch call resolves to. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The success data of a call, without `undefined` unless the operation answers no body. */
export type DataOf<R extends FetchResult> = Exclude<R['data'], undefined>;

/**
 * Turns an openapi-fetch result into its data, or throws an ApiError naming
 * the operation, status, type and code. For callers who prefer exceptions;
 * the plain `{ data, error, response }` stays available on every client.
 */
export async function unwrap<R extends FetchResult>(result: R | Promise<R>): Promise<DataOf<R>> {
  let settled: R;
  try {
    settled = await result;
  } catch (error) {
    // openapi-fetch parses a 2xx body itself; a body that is not JSON surfaces here.
    if (error instanceof SyntaxError) throw new InvalidResponseBodyError(error);
    throw error;
  }
  if (settled.response.ok) return settled.data as DataOf<R>;
  const operation = operationOfResponse(settled.response) ?? {
    method: '?',
    path: new URL(settled.response.url || 'http://unknown/').pathname,
  };
  throw apiErrorFromBody(settled.response, settled.error, operation);
}

/** A successful answer whose body is not the JSON the spec documents (e.g. an HTML page with status 200). */
export class InvalidResponseBodyError extends SdkError {
  override name = 'InvalidResponseBodyError';
  constructor(cause: SyntaxError) {
    super('the service answered 2xx with a body that is not valid JSON', { cause });
  }
}
