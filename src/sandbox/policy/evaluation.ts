/**
 * The evaluation API: `POST /evaluate` starts an evaluation whose status
 * moves over sandbox time `evaluating` → `approving` → `ready` (the permit
 * then stored onchain, and the protected call played for the caller). The
 * permit ID is derived from the organisation and `unique_evaluation_id`
 * alone, so a repeated request (same id, whatever its other fields say, as
 * the spec states) answers the existing evaluation in its current status.
 *
 * To end in another terminal status, put `sandbox_outcome` in the request's
 * free-form `parameters`: `"rejected"` or `"error"` (default `"ready"`), and
 * optionally `sandbox_fails_during`: `"evaluating"` (default) or
 * `"approving"`, the status the failure comes from.
 */
import type { OperationHandler } from '../types.js';
import { bytes32Of } from './hex.js';
import type { EvaluationDetail, EvaluationStatus } from './model.js';
import { playProtectedCall, storePermit } from './protected-call.js';
import { badRequest, notFound } from './refusals.js';
import { evaluationBodyOf } from './request-body.js';
import type { EvaluationRecord, PolicyWorld } from './state.js';

export const SANDBOX_OUTCOMES = ['ready', 'rejected', 'error'] as const;
export const SANDBOX_FAILURE_STAGES = ['evaluating', 'approving'] as const;

/** The outcome a request asks the sandbox for, from `parameters.sandbox_outcome` and `parameters.sandbox_fails_during`. */
function requestedOutcome(parameters: Record<string, unknown>): { outcome: (typeof SANDBOX_OUTCOMES)[number]; failsDuring: (typeof SANDBOX_FAILURE_STAGES)[number] } {
  const outcome = parameters.sandbox_outcome ?? 'ready';
  const failsDuring = parameters.sandbox_fails_during ?? 'evaluating';
  if (!SANDBOX_OUTCOMES.includes(outcome as never)) throw badRequest(`parameters.sandbox_outcome must be one of ${SANDBOX_OUTCOMES.join(', ')}`);
  if (!SANDBOX_FAILURE_STAGES.includes(failsDuring as never)) throw badRequest(`parameters.sandbox_fails_during must be one of ${SANDBOX_FAILURE_STAGES.join(', ')}`);
  return { outcome: outcome as (typeof SANDBOX_OUTCOMES)[number], failsDuring: failsDuring as (typeof SANDBOX_FAILURE_STAGES)[number] };
}

const REASONS: Record<'rejected' | 'error', (caller: string) => string> = {
  rejected: (caller) => `the wallet risk score of ${caller} is above the policy's threshold`,
  error: () => 'the wallet risk provider could not be reached',
};

/** Schedules the status moves of a new evaluation. */
function run(world: PolicyWorld, evaluation: EvaluationRecord): void {
  const { outcome, failsDuring } = requestedOutcome(evaluation.request.parameters);
  const end = (status: 'rejected' | 'error') => {
    evaluation.status = status;
    evaluation.reason = REASONS[status](evaluation.request.caller_address);
  };
  const { approvingAfterMs, terminalAfterMs, protectedCallAfterMs } = world.timings;
  world.later(approvingAfterMs, () => {
    if (outcome !== 'ready' && failsDuring === 'evaluating') end(outcome);
    else evaluation.status = 'approving';
  });
  world.later(approvingAfterMs + terminalAfterMs, () => {
    if (evaluation.status !== 'approving') return;
    if (outcome !== 'ready') return end(outcome);
    evaluation.status = 'ready';
    const validator = storePermit(world, evaluation);
    world.later(protectedCallAfterMs, () => playProtectedCall(world, evaluation, validator));
  });
}

const detail = (evaluation: EvaluationRecord): EvaluationDetail => ({
  permit_id: evaluation.permitId,
  status: evaluation.status,
  reason: evaluation.reason,
  workflow_execution_id: evaluation.workflowExecutionId,
  expires_at: null,
});

export function evaluationHandlers(world: PolicyWorld): Record<'requestEvaluation' | 'getEvaluationByPermitId' | 'getHealthCheck', OperationHandler> {
  return {
    getHealthCheck: () => ({ status: 200, body: { status: 'ok' } }),
    requestEvaluation: (request) => {
      const body = evaluationBodyOf('requestEvaluation', request.body);
      const permitId = bytes32Of('permit', world.state.organization.id, body.unique_evaluation_id);
      const existing = world.state.evaluations.get(permitId);
      if (existing !== undefined) return { status: 200, body: { permit_id: permitId, status: existing.status } };
      requestedOutcome(body.parameters);
      const evaluation: EvaluationRecord = {
        permitId,
        request: body,
        status: 'evaluating' satisfies EvaluationStatus,
        reason: null,
        workflowExecutionId: world.newId(),
      };
      world.state.evaluations.set(permitId, evaluation);
      run(world, evaluation);
      return { status: 200, body: { permit_id: permitId, status: evaluation.status } };
    },
    getEvaluationByPermitId: (request) => {
      const permitId = request.pathParams.permitId!;
      const evaluation = world.state.evaluations.get(permitId.toLowerCase());
      if (evaluation === undefined) throw notFound(`no evaluation with permit ID ${permitId} in this organisation`);
      return { status: 200, body: detail(evaluation) };
    },
  };
}
