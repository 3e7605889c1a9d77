import { STATUS_KINDS } from '../../generated/operations/policy-evaluation.js';
import type { components, openEnums } from '../../generated/types/policy-evaluation.js';
import { isKnownStatus, PollFailedError, pollUntil, statusesOfKind, type PollOptions, type StatusKind, type WithOpenStatus } from '../core/poll.js';
import { expectBody } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import type { PolicyClient } from './client.js';

/**
 * Every status an evaluation can have (`ready`, `rejected` and `error` are
 * final), or any other string: the service may add a status, so a `switch`
 * over it needs a `default`.
 */
export type EvaluationStatus = openEnums['EvaluationRunStatus'];
/** The evaluation statuses this version of the SDK knows (the spec's enum). */
export type KnownEvaluationStatus = components['schemas']['EvaluationRunStatus'];
/** The body of `POST /evaluate` (`requestEvaluation`). */
export type EvaluationRequest = components['schemas']['EvaluateRequest'];
/** An evaluation as the evaluation API returns it; its `status` may be one this SDK does not know. */
export type Evaluation = WithOpenStatus<components['schemas']['EvaluationDetailResponse'], EvaluationStatus>;

/**
 * The kind of every known status, from the spec's `x-status-kinds`
 * (generated/operations/policy-evaluation.ts): a status added to the spec
 * without a kind is a type error here.
 */
const EVALUATION_STATUS_KINDS: Readonly<Record<KnownEvaluationStatus, StatusKind>> = STATUS_KINDS.EvaluationRunStatus;

/** Statuses an evaluation never leaves (the `succeeded` and `failed` kinds of the spec). Only `ready` lets the protected transaction through. */
export const EVALUATION_TERMINAL_STATUSES: readonly KnownEvaluationStatus[] = [
  ...statusesOfKind(EVALUATION_STATUS_KINDS, 'succeeded'),
  ...statusesOfKind(EVALUATION_STATUS_KINDS, 'failed'),
];

/** True when `status` is one this version of the SDK knows. */
export function isKnownEvaluationStatus(status: string): status is KnownEvaluationStatus {
  return isKnownStatus(EVALUATION_STATUS_KINDS, status);
}

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
 * service's `reason`) on `rejected` or `error`,
 * PollTimeoutError when it takes too long, and UnknownStatusError at once on
 * a status this version of the SDK does not know (unless
 * `onUnknownStatus: 'wait'`).
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
      isDone: (status) => isKnownEvaluationStatus(status) && EVALUATION_STATUS_KINDS[status] === 'succeeded',
      isFailed: (status) => isKnownEvaluationStatus(status) && EVALUATION_STATUS_KINDS[status] === 'failed',
      client: policy.evaluation,
      isKnown: isKnownEvaluationStatus,
      failure: (what, status, evaluation) => new EvaluationFailedError(what, status, evaluation),
      operation: 'GET /evaluate/{permitId}',
    },
    options,
  );
}
