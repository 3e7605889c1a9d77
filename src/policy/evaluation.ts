import { PollFailedError, pollUntil, type PollOptions } from '../core/poll.js';
import { expectBody } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import type { components } from '../../generated/types/policy-evaluation.js';
import type { PolicyClient } from './client.js';

/** Every status an evaluation can have; `ready`, `rejected` and `error` are final. */
export type EvaluationStatus = components['schemas']['EvaluationRunStatus'];
/** The body of `POST /evaluate` (`requestEvaluation`). */
export type EvaluationRequest = components['schemas']['EvaluateRequest'];
/** An evaluation as the evaluation API returns it. */
export type Evaluation = components['schemas']['EvaluationDetailResponse'];

/** Statuses an evaluation never leaves. Only `ready` lets the protected transaction through. */
export const EVALUATION_TERMINAL_STATUSES: readonly EvaluationStatus[] = ['ready', 'rejected', 'error'];

/** An evaluation ended `rejected` or `error`: `resource` is the evaluation, `reason` the service's explanation when it gave one. */
export class EvaluationFailedError extends PollFailedError<Evaluation, EvaluationStatus> {
  override name = 'EvaluationFailedError';
  constructor(what: string, status: EvaluationStatus, evaluation: Evaluation) {
    super(what, status, evaluation, evaluation.reason);
  }
}

/**
 * Requests an evaluation. `unique_evaluation_id` is the service's
 * deduplication key, so the SDK may retry this POST safely; resending the
 * same id returns the same evaluation.
 */
export async function requestEvaluation(policy: PolicyClient, request: EvaluationRequest, signal?: AbortSignal) {
  const accepted = await unwrap(policy.evaluation.POST('/evaluate', { body: request, signal }));
  return expectBody<typeof accepted>(accepted, 'POST /evaluate', 'an evaluation with its permit_id', (body) => typeof body.permit_id === 'string');
}

/** Reads an evaluation by its permit ID. */
export function getEvaluation(policy: PolicyClient, permitId: string, signal?: AbortSignal): Promise<Evaluation> {
  return unwrap(policy.evaluation.GET('/evaluate/{permitId}', { params: { path: { permitId } }, signal }));
}

/**
 * Polls an evaluation through `evaluating` and `approving` until it is
 * terminal. Resolves with it when `ready` (the permit is onchain: submit the
 * transaction); throws EvaluationFailedError (a PollFailedError, with the
 * service's `reason`) on `rejected` or `error`, and
 * PollTimeoutError when it takes too long.
 */
export function waitForEvaluation(
  policy: PolicyClient,
  permitId: string,
  options: PollOptions<EvaluationStatus> = {},
): Promise<Evaluation> {
  return pollUntil(
    {
      what: `evaluation ${permitId}`,
      read: (signal) => getEvaluation(policy, permitId, signal),
      statusOf: (evaluation) => evaluation.status,
      isDone: (status) => status === 'ready',
      isFailed: (status) => status === 'rejected' || status === 'error',
      failure: (what, status, evaluation) => new EvaluationFailedError(what, status, evaluation),
      operation: 'GET /evaluate/{permitId}',
    },
    options,
  );
}
