import { describe, expect, it } from 'vitest';
import { ApiError, getEvaluation, PollFailedError, requestEvaluation, waitForEvaluation, type EvaluationRequest } from '../../src/policy/index.js';
import { policyClient, preferring } from './support/clients.js';
import { describeEveryOperation } from './support/every-operation.js';

describeEveryOperation('policy-evaluation', () => policyClient().evaluation);

const request: EvaluationRequest = {
  caller_address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  subject: '0xB8f4CC5179D1c68b54003171CD8D06587731C073',
  function_signature: 'transfer(address,uint256)',
  parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount: '2500000000000000000000' },
  chain_selector: '16015286601757825753',
  unique_evaluation_id: 'transfer-contract-test-1',
};

describe('evaluation flow against Prism', () => {
  it('requests an evaluation and reads its status by permit ID', async () => {
    const policy = policyClient();
    const accepted = await requestEvaluation(policy, request);
    expect(accepted.permit_id).toMatch(/^0x[0-9a-f]{64}$/i);
    const evaluation = await getEvaluation(policy, accepted.permit_id);
    expect(['evaluating', 'approving', 'ready', 'rejected', 'error']).toContain(evaluation.status);
  });

  it.each([
    ['EvaluationReady', 'ready', null],
    ['EvaluationRejected', 'rejected', PollFailedError],
    ['EvaluationError', 'error', PollFailedError],
  ] as const)('waitForEvaluation settles on the %s example', async (example, status, errorClass) => {
    const policy = policyClient();
    const withExample = { ...policy, evaluation: preferring(policy.evaluation, `example=${example}`) };
    const outcome = await waitForEvaluation(withExample, `0x${'ab'.repeat(32)}`, { intervalMs: 1, timeoutMs: 2_000 }).catch((e) => e);
    if (errorClass) expect(outcome).toBeInstanceOf(errorClass);
    expect(outcome.status).toBe(status);
  });

  it('a stateless mock never leaves evaluating: the wait times out, and says so', async () => {
    const policy = policyClient();
    const withExample = { ...policy, evaluation: preferring(policy.evaluation, 'example=EvaluationEvaluating') };
    const error = await waitForEvaluation(withExample, `0x${'ab'.repeat(32)}`, { intervalMs: 5, timeoutMs: 50 }).catch((e) => e);
    expect(error.name).toBe('PollTimeoutError');
    expect(error.lastStatus).toBe('evaluating');
  });

  it('an invalid permit ID is rejected', async () => {
    const error = await getEvaluation(policyClient(), 'not-a-permit').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
  });
});
