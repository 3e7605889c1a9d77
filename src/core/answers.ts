import type { CallContext } from './call-options.js';
import type { AttemptRecord, OperationRef } from './errors.js';

/** What `unwrap` needs to know about an answer: its operation, its attempts, and whether an empty success is documented. */
export interface AnswerInfo {
  operation: OperationRef;
  emptySuccessAllowed: boolean;
  /** Every attempt of the call that got this answer. */
  attempts: readonly AttemptRecord[];
}

/** Recorded per answer; `emptySuccessAllowed` is worked out only when `unwrap` needs it. */
export interface AnswerRecord {
  context: CallContext;
  response: Response;
  emptySuccess: ReadonlySet<string>;
}

/**
 * The operation of each answer, so `unwrap` can name it in an ApiError or
 * an InvalidResponseBodyError. Kept on the Response itself under a symbol,
 * so it lives and dies with the answer (a WeakMap entry measured about three
 * times the cost, plus the garbage collector's ephemeron work).
 */
const ANSWER = Symbol('answer');
type RecordedResponse = Response & { [ANSWER]?: AnswerRecord };

/** Keeps what the client knows of the call on its answer. */
export function recordAnswer(response: Response, record: AnswerRecord): void {
  (response as RecordedResponse)[ANSWER] = record;
}

export function answerInfo(response: Response): AnswerInfo | undefined {
  const record = (response as RecordedResponse)[ANSWER];
  if (record === undefined) return undefined;
  const { context, emptySuccess } = record;
  const operation: OperationRef = { method: context.method, path: context.path, urlPath: context.urlPath ?? urlPathOf(record.response.url) };
  return {
    operation,
    attempts: context.attempts,
    // A getter: unwrap asks only for an empty body, so the lookup stays off the common path.
    get emptySuccessAllowed() {
      return emptySuccess.has(`${operation.method} ${operation.path}`);
    },
  };
}

/** The path of `url`, without origin, query or fragment (`/` when empty). */
export function urlPathOf(url: string): string {
  return url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '') || '/';
}
