// Some coordinator operations document only `409` among the refusals (POST
// /targets, /registries, /policy-implementations: besides 401, 429, 500),
// so the sandbox answers their malformed bodies with that documented status.
// The body's `error` label must still say what went wrong: a missing field
// is a "Bad request", not "Already exists", or a user's code that branches
// on `error` (as the spec tells it to) takes the wrong branch.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPolicyClient, type PolicyClient } from '../../src/policy/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';
import { loadBundle, operationsOf, responsesOf } from '../contract/support/spec.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

let sandbox: Sandbox;
let policy: PolicyClient;

beforeEach(() => {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
  policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch, retry: false });
});

afterEach(() => {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
});

async function refusal(call: Promise<{ error?: unknown; response: Response }>): Promise<{ status: number; body: unknown }> {
  const { error, response } = await call;
  return { status: response.status, body: error };
}

/** The refusal statuses the bundle documents for an operation, besides 401, 429 and 500. */
function documentedRefusals(operationId: string): number[] {
  const bundle = loadBundle('policy-coordinator');
  const operation = operationsOf(bundle).find((op) => op.operationId === operationId)!;
  return responsesOf(bundle, operation)
    .map((response) => Number(response.status))
    .filter((status) => status >= 400 && ![401, 429, 500].includes(status));
}

it('the spec documents only 409 for bad input to POST /targets, /registries and /policy-implementations', () => {
  // What the answers below rest on: if the spec gains a 400 here, the sandbox must answer it instead.
  expect([documentedRefusals('createTarget'), documentedRefusals('createRegistry'), documentedRefusals('createPolicyImplementation')]).toEqual([[409], [409], [409]]);
});

it('a body missing a required field gets the documented 409, labelled "Bad request", naming the field', async () => {
  const c = policy.coordinator;
  const answers = [
    await refusal(c.POST('/targets', { body: { policy_engine_id: SANDBOX_POLICY_IDS.policyEngine } as never })),
    await refusal(c.POST('/registries', { body: {} as never })),
    await refusal(c.POST('/policy-implementations', { body: {} as never })),
  ];
  expect(answers).toEqual([
    { status: 409, body: { error: 'Bad request', message: 'body.title is required' } },
    { status: 409, body: { error: 'Bad request', message: 'body.name is required' } },
    { status: 409, body: { error: 'Bad request', message: 'body.name is required' } },
  ]);
});

it('an unknown policy engine on POST /targets gets the documented 409, labelled "Not found"', async () => {
  const unknown = crypto.randomUUID();
  expect(await refusal(policy.coordinator.POST('/targets', { body: { title: 't', policy_engine_id: unknown } as never }))).toEqual({
    status: 409,
    body: { error: 'Not found', message: `no policy engine ${unknown} in this organisation` },
  });
});

it('a name taken on POST /registries is still "Already exists", and a hidden registry still "Forbidden"', async () => {
  const body = { name: 'kyc', description: '' };
  await policy.coordinator.POST('/registries', { body });
  expect(await refusal(policy.coordinator.POST('/registries', { body }))).toMatchObject({ status: 409, body: { error: 'Already exists' } });
  expect(await refusal(policy.coordinator.GET('/registries/{registry_id}', { params: { path: { registry_id: crypto.randomUUID() } } }))).toMatchObject({
    status: 403,
    body: { error: 'Forbidden' },
  });
});
