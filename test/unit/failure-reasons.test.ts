// Failures that explain themselves: a wait that ends in a failure status
// carries the service's reason where the resource has one (an evaluation's
// `reason`, a status event's `status_reason`), and each wait's error is typed
// as what it waited on, not `unknown`.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createChannelsClient,
  OperationFailedError,
  waitForOperation,
  waitForOperationEvent,
  type Operation,
  type OperationStatus,
} from '../../src/channels/index.js';
import {
  createPolicyClient,
  EvaluationFailedError,
  PollFailedError,
  requestEvaluation,
  waitForEvaluation,
  type Evaluation,
  type EvaluationStatus,
} from '../../src/policy/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { channelOperation } from '../support/channel-operation.js';
import { fakeFetch, json } from '../support/fake-fetch.js';
import { rejection } from '../support/rejection.js';

const PERMIT = `0x${'ab'.repeat(32)}`;
const SEPOLIA = '16015286601757825753';
/** The sandbox's transaction target whose operations fail. */
const FAILING_TARGET = '0x000000000000000000000000000000000000fa11';

let sandbox: Sandbox | undefined;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

describe('waitForEvaluation', () => {
  it("throws an EvaluationFailedError with the service's reason, in the message too", async () => {
    const fake = fakeFetch(
      json(200, { permit_id: PERMIT, status: 'evaluating', reason: null }),
      json(200, { permit_id: PERMIT, status: 'rejected', reason: 'the wallet risk score is above the threshold' }),
    );
    const policy = createPolicyClient({ apiKey: 'key', fetch: fake.fetch });
    const error = await rejection(waitForEvaluation(policy, PERMIT, { intervalMs: 1 }));
    expect(error).toBeInstanceOf(EvaluationFailedError);
    expect(error).toBeInstanceOf(PollFailedError);
    const failure = error as EvaluationFailedError;
    expect(failure.reason).toBe('the wallet risk score is above the threshold');
    expect(failure.message).toBe(`evaluation ${PERMIT} ended in status \`rejected\`: the wallet risk score is above the threshold`);
    // Typed as the evaluation it waited on: these lines compile only if so.
    const evaluation: Evaluation = failure.resource;
    const status: EvaluationStatus = failure.status;
    expect([evaluation.permit_id, status]).toEqual([PERMIT, 'rejected']);
  });

  it('without a reason from the service, says only the status, and reason is undefined', async () => {
    const fake = fakeFetch(json(200, { permit_id: PERMIT, status: 'error', reason: null }));
    const error = (await rejection(waitForEvaluation(createPolicyClient({ apiKey: 'key', fetch: fake.fetch }), PERMIT))) as EvaluationFailedError;
    expect(error.reason).toBeUndefined();
    expect(error.message).toBe(`evaluation ${PERMIT} ended in status \`error\``);
  });

  it('quotes at most 300 characters of a long reason in the message, and keeps the whole of it in reason', async () => {
    const long = 'x'.repeat(1_000);
    const fake = fakeFetch(json(200, { permit_id: PERMIT, status: 'rejected', reason: long }));
    const error = (await rejection(waitForEvaluation(createPolicyClient({ apiKey: 'key', fetch: fake.fetch }), PERMIT))) as EvaluationFailedError;
    expect(error.reason).toBe(long);
    expect(error.message).toBe(`evaluation ${PERMIT} ended in status \`rejected\`: ${'x'.repeat(300)}…`);
  });

  it('in the sandbox, a rejected evaluation explains itself', async () => {
    sandbox = createSandbox({ pace: 50 });
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch });
    const { permit_id } = await requestEvaluation(policy, {
      caller_address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      subject: '0xB8f4CC5179D1c68b54003171CD8D06587731C073',
      function_signature: 'transfer(address,uint256)',
      parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount: '1', sandbox_outcome: 'rejected' },
      chain_selector: SEPOLIA,
      unique_evaluation_id: 'failure-reasons-1',
    });
    const error = (await rejection(waitForEvaluation(policy, permit_id, { intervalMs: 20 }))) as EvaluationFailedError;
    expect(error.status).toBe('rejected');
    expect(error.reason).toMatch(/risk score/);
    expect(error.message).toContain(error.reason!);
  });
});

describe('operations', () => {
  async function failingOperation(): Promise<{ channels: ReturnType<typeof createChannelsClient>; ref: { channel_id: string; operation_id: string } }> {
    sandbox = createSandbox({ pace: 50 });
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch });
    return { channels, ref: await channelOperation(channels, { channelName: 'reasons', to: FAILING_TARGET, signature: `0x${'11'.repeat(65)}` }) };
  }

  it('waitForOperation throws an OperationFailedError typed as the operation', async () => {
    const { channels, ref } = await failingOperation();
    const error = await rejection(waitForOperation(channels, ref, { intervalMs: 20 }));
    expect(error).toBeInstanceOf(OperationFailedError);
    const failure = error as OperationFailedError;
    const operation: Operation = failure.resource;
    const status: OperationStatus = failure.status;
    expect([operation.operation_id, status]).toEqual([ref.operation_id, 'failed']);
  });

  it("waitForOperationEvent carries the status event's status_reason", async () => {
    const { channels, ref } = await failingOperation();
    const error = (await rejection(waitForOperationEvent(channels, ref, 'confirmed', { intervalMs: 20 }))) as PollFailedError;
    expect(error).toBeInstanceOf(PollFailedError);
    expect(error.status).toBe('failed');
    expect(typeof error.reason).toBe('string');
    expect(error.reason!.length).toBeGreaterThan(0);
    expect(error.message).toContain(error.reason!);
  });
});
