import { answerInfo } from './answers.js';
import { apiErrorFromBody } from './error-body.js';
import { InvalidResponseBodyError } from './errors.js';

export { InvalidResponseBodyError } from './errors.js';

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
 * A 2xx answer whose body is not JSON, or is empty where the spec documents
 * content (a `204` included), is an InvalidResponseBodyError naming the operation.
 */
export async function unwrap<R extends FetchResult>(result: R | Promise<R>): Promise<DataOf<R>> {
  let settled: R;
  try {
    settled = await result;
  } catch (error) {
    // openapi-fetch parses a 2xx body itself; a body that is not JSON surfaces here.
    if (error instanceof SyntaxError) throw new InvalidResponseBodyError(undefined, 'a body that is not valid JSON', { cause: error });
    throw error;
  }
  const { response } = settled;
  // The common case, data, needs nothing more about the answer.
  if (response.ok && settled.data !== undefined) return settled.data as DataOf<R>;
  const info = answerInfo(response);
  if (response.ok) {
    // A 204 says "no body" itself, but an operation documented with content
    // must not resolve `undefined`: only the spec's own empty answers pass.
    // (No spec documents a 204 today; a unit test keeps it so.)
    const emptyAllowed = info === undefined ? response.status === 204 : info.emptySuccessAllowed;
    if (!emptyAllowed) {
      throw new InvalidResponseBodyError(info && `${info.operation.method} ${info.operation.path}`, 'an empty body where the spec documents content');
    }
    return settled.data as DataOf<R>;
  }
  const urlPath = new URL(response.url || 'http://unknown/').pathname;
  const operation = info?.operation ?? { method: '?', path: urlPath, urlPath };
  throw apiErrorFromBody(response, settled.error, operation, info?.attempts);
}
