// Faults by any name: `inject({ route })` takes an operationId, the SDK
// helper's name or `METHOD /path/template`; an unknown name gets the closest
// few and a pointer to `sandbox.routes()`, which lists every operation with
// every name it answers to.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations as channelsOperations } from '../../generated/operations/channels.js';
import { operations as coordinatorOperations } from '../../generated/operations/policy-coordinator.js';
import { operations as evaluationOperations } from '../../generated/operations/policy-evaluation.js';
import { operations as reportingOperations } from '../../generated/operations/policy-reporting.js';
import { operations as streamsOperations } from '../../generated/operations/streams.js';
import * as channelsEntry from '../../src/channels/index.js';
import { createChannelsClient, executeWithDraft, finalizeOperation, type ChannelsClient } from '../../src/channels/index.js';
import { ApiError } from '../../src/core/errors.js';
import * as policyEntry from '../../src/policy/index.js';
import { createPolicyClient, getEvaluation, requestEvaluation } from '../../src/policy/index.js';
import { HELPER_OPERATIONS } from '../../src/sandbox/fault-routes.js';
import { createSandbox, SandboxUsageError, type Sandbox, type SandboxApi } from '../../src/sandbox/index.js';
import * as streamsEntry from '../../src/streams/index.js';
import { channelOperation } from '../support/channel-operation.js';
import { sandboxValidator } from '../support/sandbox-validator.js';
import { transferEvaluation } from '../support/policy-requests.js';

const TABLES: Record<SandboxApi, Record<string, { method: string; path: string }>> = {
  channels: channelsOperations,
  streams: streamsOperations,
  'policy-coordinator': coordinatorOperations,
  'policy-evaluation': evaluationOperations,
  'policy-reporting': reportingOperations,
};
const ENTRIES: Record<SandboxApi, object> = {
  channels: channelsEntry,
  streams: streamsEntry,
  'policy-coordinator': policyEntry,
  'policy-evaluation': policyEntry,
  'policy-reporting': policyEntry,
};

let sandbox: Sandbox;
let channels: ChannelsClient;

beforeEach(() => {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
  channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch, retry: false });
});

afterEach(() => {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxUsageError);
    return (error as Error).message;
  }
  return expect.unreachable('expected a SandboxUsageError');
}

/** An operation pending its signature, on a new channel and wallet. */
function draft(): Promise<{ channel_id: string; operation_id: string }> {
  return channelOperation(channels, { channelName: 'faults', to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238' });
}

const SIGNED = { signature: `0x${'11'.repeat(65)}`, digest: `0x${'22'.repeat(32)}` };

describe('inject() by the SDK helper name', () => {
  it("takes 'finalizeOperation' for the spec's finalizeOrCancelOperation, and the fault fires on the finalize", async () => {
    const ref = await draft();
    sandbox.inject({ route: 'finalizeOperation', status: 503 });
    const refused = await finalizeOperation(channels, ref, SIGNED).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((await finalizeOperation(channels, ref, SIGNED)).status).toBe('accepted');
  });

  it("takes a wait's name for the read it repeats (waitForEvaluation: getEvaluationByPermitId), in its API only", async () => {
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch, retry: false });
    const { permit_id } = await requestEvaluation(policy, transferEvaluation('fault-names-1', '1'));
    sandbox.inject({ route: 'waitForEvaluation', status: 502 });
    expect(((await getEvaluation(policy, permit_id).catch((error: unknown) => error)) as ApiError).status).toBe(502);
    expect((await getEvaluation(policy, permit_id)).permit_id).toBe(permit_id);
  });

  it('refuses a helper that calls several operations, naming them', () => {
    const message = refusal(() => sandbox.inject({ route: 'executeWithDraft', status: 503 }));
    expect(message).toContain('createOperation');
    expect(message).toContain('finalizeOrCancelOperation');
    // And nothing was added: the draft flow runs through.
    return draft().then((ref) => expect(ref.operation_id).toBeTruthy());
  });
});

describe('an unknown name', () => {
  it('gets the closest few names and the pointer to sandbox.routes()', () => {
    const message = refusal(() => sandbox.inject({ route: 'finalizeOp', status: 503 }));
    expect(message).toContain("'finalizeOperation'");
    expect(message).toContain('sandbox.routes()');
    const typo = refusal(() => sandbox.inject({ route: 'getWalet', status: 503 }));
    expect(typo).toMatch(/did you mean 'getWallet'/);
  });

  it('far from every name gets no suggestion, but still the pointer', () => {
    const message = refusal(() => sandbox.inject({ route: 'definitelyNotAnOperation', status: 503 }));
    expect(message).not.toContain('did you mean');
    expect(message).toContain('sandbox.routes()');
  });
});

describe('sandbox.routes()', () => {
  it('lists every operation of every API once, with its operationId, METHOD /path and helper names', () => {
    const routes = sandbox.routes();
    const expected = Object.entries(TABLES).flatMap(([api, table]) => Object.entries(table).map(([operationId, { method, path }]) => ({ api, operationId, method, path })));
    expect(routes.map(({ api, operationId, method, path }) => ({ api, operationId, method, path })).sort(byKey)).toEqual(expected.sort(byKey));
    for (const route of routes) expect(route.names.slice(0, 2)).toEqual([route.operationId, `${route.method} ${route.path}`]);
    const finalize = routes.find((route) => route.operationId === 'finalizeOrCancelOperation');
    expect(finalize?.names).toEqual(expect.arrayContaining(['finalizeOperation', 'cancelOperation']));
  });

  it('every name it lists is one inject() takes', () => {
    for (const name of new Set(sandbox.routes().flatMap((route) => route.names))) {
      expect(() => sandbox.inject({ route: name, status: 503 }), name).not.toThrow();
    }
  });

  it('names only helpers the SDK exports, for operations its API has', () => {
    for (const [helper, { api, operationId }] of Object.entries(HELPER_OPERATIONS)) {
      expect(typeof (ENTRIES[api] as Record<string, unknown>)[helper], `${helper} exported by the ${api} entry`).toBe('function');
      expect(Object.keys(TABLES[api]), helper).toContain(operationId);
    }
    expect(typeof executeWithDraft).toBe('function');
  });
});

function byKey(a: { api: string; operationId: string }, b: { api: string; operationId: string }): number {
  return `${a.api} ${a.operationId}`.localeCompare(`${b.api} ${b.operationId}`);
}
