import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations as coordinatorOperations } from '../../generated/operations/policy-coordinator.js';
import { ApiError } from '../../src/core/errors.js';
import {
  collect,
  createPolicyClient,
  getEvaluation,
  paginateCoordinator,
  paginateReporting,
  PollFailedError,
  requestEvaluation,
  waitForEvaluation,
  type EvaluationRequest,
  type EvaluationStatus,
  type PolicyClient,
} from '../../src/policy/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { DOCUMENTED_REFUSALS } from '../../src/sandbox/policy/coordinator-refusals.js';
import { keccakHex, selectorOf } from '../../src/sandbox/policy/hex.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';
import { loadBundle, operationsOf, responsesOf } from '../contract/support/spec.js';
import { BASE_SEPOLIA, CALLER, runCoordinatorScenario, SEPOLIA, TOKEN, TRANSFER, type CoordinatorOperationId } from '../support/coordinator-scenario.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

// The three policy APIs of the sandbox through the SDK's own client and
// helpers. Every answer is checked against its bundle (sandboxValidator),
// and no test may leave a violation behind.

const ENGINE = SANDBOX_POLICY_IDS.policyEngine;
const HOST = 'https://ace.api.chain.link';

let sandbox: Sandbox;
let policy: PolicyClient;

/** A sandbox whose clock moves only by `advance()`: every status a test sees is the one it asked for, on any machine. */
function start(): void {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
  policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch, retry: false });
}

function stop(): void {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
}

beforeEach(() => start());
afterEach(stop);

/** The data of a 2xx answer; fails the test with the error body otherwise. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new Error(`expected a 2xx answer, got ${response.status}: ${JSON.stringify(error)}`);
  return data as T;
}

/** The status and error body of a refused call. */
async function refusal(call: Promise<{ error?: unknown; response: Response }>): Promise<{ status: number; body: any }> {
  const { error, response } = await call;
  return { status: response.status, body: error };
}

const nowIso = () => new Date(sandbox.clock.now()).toISOString();

function evaluation(id: string, parameters: Record<string, unknown> = {}, subject = TOKEN): EvaluationRequest {
  return {
    caller_address: CALLER,
    subject,
    function_signature: TRANSFER,
    parameters: { to: TOKEN, amount: '2500', ...parameters },
    permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
    chain_selector: SEPOLIA,
    unique_evaluation_id: id,
  };
}

/** A MaxPolicy on the seeded engine, deployed on Sepolia (the clock moved on until it is). */
async function deployedMaxPolicy(max = '1000') {
  const created = await ok(
    policy.coordinator.POST('/policies', {
      body: {
        policy_kind: 'onchain',
        name: `max-${max}-${crypto.randomUUID().slice(0, 8)}`,
        policy_implementation_id: SANDBOX_POLICY_IDS.maxPolicyImplementation,
        policy_engine_id: ENGINE,
        onchain_policies: [{ chain_selector: SEPOLIA, initial_config: { max } }],
      },
    }),
  );
  sandbox.advance(1_000);
  const deployed = (await ok(policy.coordinator.GET('/policies/{policy_id}', { params: { path: { policy_id: created.id } } }))) as any;
  return { id: created.id as string, address: deployed.onchain_policies[0].address as string, onchainId: deployed.onchain_policies[0].id as string };
}

async function targetAt(address: string, chains = [SEPOLIA]) {
  return ok(
    policy.coordinator.POST('/targets', {
      body: {
        title: `token ${address.slice(0, 10)}`,
        policy_engine_id: ENGINE,
        desired_default_allow: true,
        protected_methods: [TRANSFER],
        onchain_targets: chains.map((chain_selector) => ({ chain_selector, address })),
      },
    }),
  );
}

describe('authentication', () => {
  it('refuses a missing or wrong key on each API with that API’s error body', async () => {
    const anonymous = createPolicyClient({ apiKey: 'not_the_sandbox_key', fetch: sandbox.fetch, retry: false });
    expect(await refusal(anonymous.coordinator.GET('/policy-engines'))).toEqual({
      status: 401,
      body: { error: 'Unauthorized', message: expect.stringContaining('not valid') },
    });
    expect(await refusal(anonymous.evaluation.GET('/evaluate/{permitId}', { params: { path: { permitId: `0x${'1'.repeat(64)}` } } }))).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    });
    expect(await refusal(anonymous.reporting.GET('/transactions'))).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    const bare = await sandbox.fetch(`${HOST}/v1/organizations/me`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({ error: 'Unauthorized', message: expect.stringContaining('missing Authorization') });
  });

  it('answers the health checks without a key', async () => {
    for (const path of ['/v1/health-check', '/v1/evaluation/health-check', '/v1/reporting/health']) {
      const response = await sandbox.fetch(`${HOST}${path}`);
      expect([path, response.status, await response.json()]).toEqual([path, 200, { status: 'ok' }]);
    }
  });

  it('never echoes the key in a refusal', async () => {
    const response = await sandbox.fetch(`${HOST}/v1/policy-engines`, { headers: { Authorization: 'Apikey wrong_secret_value' } });
    expect(await response.text()).not.toContain('wrong_secret_value');
  });
});

describe('coordinator resources', () => {
  it('deploys a policy engine per chain, from creation_pending to created with its address', async () => {
    const engine = await ok(
      policy.coordinator.POST('/policy-engines', {
        body: { name: 'deployments', onchain_policy_engines: [{ chain_selector: SEPOLIA }, { chain_selector: BASE_SEPOLIA }] },
      }),
    );
    expect(engine.onchain_policy_engines?.map((d) => [d.chain_selector, d.status, d.address])).toEqual([
      [SEPOLIA, 'creation_pending', ''],
      [BASE_SEPOLIA, 'creation_pending', ''],
    ]);
    sandbox.advance(999);
    const pending = await ok(policy.coordinator.GET('/policy-engines/{policy_engine_id}', { params: { path: { policy_engine_id: engine.id } } }));
    expect(pending.onchain_policy_engines?.every((d) => d.status === 'creation_pending')).toBe(true);
    sandbox.advance(1);
    const deployed = await ok(policy.coordinator.GET('/policy-engines/{policy_engine_id}', { params: { path: { policy_engine_id: engine.id } } }));
    expect(deployed.onchain_policy_engines?.map((d) => d.status)).toEqual(['created', 'created']);
    expect(deployed.onchain_policy_engines?.every((d) => /^0x[0-9a-f]{40}$/.test(d.address))).toBe(true);
  });

  it('pages a list with page/page_size and total_pages, through paginateCoordinator', async () => {
    for (let i = 0; i < 23; i++) {
      await ok(policy.coordinator.POST('/extractors', { body: { name: `extractor ${i}`, supported_function_signatures: [TRANSFER], outputs: [{ name: 'amount', type: 'uint256' }] } }));
    }
    const first = await ok(policy.coordinator.GET('/extractors', { params: { query: { page: 1 } } }));
    expect([first.total, first.total_pages, first.page, first.extractors.length]).toEqual([23, 3, 1, 10]);
    const last = await ok(policy.coordinator.GET('/extractors', { params: { query: { page: 3, page_size: 10 } } }));
    expect(last.extractors).toHaveLength(3);
    const beyond = await ok(policy.coordinator.GET('/extractors', { params: { query: { page: 9 } } }));
    expect([beyond.extractors.length, beyond.total_pages]).toEqual([0, 3]);
    const all = await collect(paginateCoordinator(policy.coordinator, '/extractors', { pageSize: 7 }));
    expect(new Set(all.map((e) => e.name)).size).toBe(23);
    const light = await ok(policy.coordinator.GET('/extractors', { params: { query: { include_onchains: false } } }));
    expect(light.extractors.every((e) => !('onchain_extractors' in e))).toBe(true);
  });

  it('answers 404 with the AceError body for an unknown resource, and 403 where the spec says the service hides it', async () => {
    const unknown = crypto.randomUUID();
    expect(await refusal(policy.coordinator.GET('/targets/{target_id}', { params: { path: { target_id: unknown } } }))).toEqual({
      status: 404,
      body: { error: 'Not found', message: expect.stringContaining(unknown) },
    });
    expect(await refusal(policy.coordinator.GET('/registries/{registry_id}', { params: { path: { registry_id: unknown } } }))).toMatchObject({
      status: 403,
      body: { error: 'Forbidden' },
    });
    expect(await refusal(policy.coordinator.GET('/networks/{chain_selector}', { params: { path: { chain_selector: '1234' } } }))).toMatchObject({ status: 404 });
  });

  it('refuses a taken name with 409, and an archived resource with 400', async () => {
    const body = { name: 'unique engine', onchain_policy_engines: [{ chain_selector: SEPOLIA }] };
    const engine = await ok(policy.coordinator.POST('/policy-engines', { body }));
    expect(await refusal(policy.coordinator.POST('/policy-engines', { body }))).toMatchObject({ status: 409, body: { error: 'Already exists' } });
    const archived = await ok(policy.coordinator.PATCH('/policy-engines/{policy_engine_id}', { params: { path: { policy_engine_id: engine.id } }, body: { status: 'archived' } }));
    expect(archived.archived_at).toBe(Math.floor(sandbox.clock.now() / 1000));
    expect(await refusal(policy.coordinator.PATCH('/policy-engines/{policy_engine_id}', { params: { path: { policy_engine_id: engine.id } }, body: { status: 'archived' } }))).toMatchObject({
      status: 400,
      body: { error: 'Bad request', message: expect.stringContaining('already archived') },
    });
    expect(await refusal(policy.coordinator.PUT('/policy-engines/{policy_engine_id}', { params: { path: { policy_engine_id: engine.id } }, body }))).toMatchObject({ status: 400 });
    // Archived, the name is free again.
    await ok(policy.coordinator.POST('/policy-engines', { body }));
  });

  it('keeps the system engine to the platform: no update, no archive, no targets (409, the one refusal POST /targets documents)', async () => {
    const system = SANDBOX_POLICY_IDS.systemPolicyEngine;
    expect((await refusal(policy.coordinator.PATCH('/policy-engines/{policy_engine_id}', { params: { path: { policy_engine_id: system } }, body: { status: 'archived' } }))).status).toBe(400);
    const target = await refusal(policy.coordinator.POST('/targets', { body: { title: 't', policy_engine_id: system, desired_default_allow: true } }));
    expect(target).toMatchObject({ status: 409, body: { message: expect.stringContaining('system') } });
  });

  it('refuses malformed bodies with 400 naming the field', async () => {
    const missing = await refusal(policy.coordinator.POST('/policy-engines', { body: { onchain_policy_engines: [] } as never }));
    expect(missing).toMatchObject({ status: 400, body: { message: 'body.name is required' } });
    const extra = await refusal(policy.coordinator.POST('/extractors', { body: { name: 'x', supported_function_signatures: [], outputs: [], colour: 'red' } as never }));
    expect(extra).toMatchObject({ status: 400, body: { message: expect.stringContaining('"colour"') } });
    const mainnet = await refusal(policy.coordinator.POST('/policy-engines', { body: { name: 'm', onchain_policy_engines: [{ chain_selector: '5009297550715157269' }] } }));
    expect(mainnet).toMatchObject({ status: 400, body: { message: expect.stringContaining('mainnet') } });
  });

  it('lists mainnets only on request, as the organisation may not use them', async () => {
    const usable = await ok(policy.coordinator.GET('/networks'));
    expect(usable.networks.every((n) => n.is_testnet === true)).toBe(true);
    const all = await ok(policy.coordinator.GET('/networks', { params: { query: { show_unavailable: true } } }));
    expect(all.networks.some((n) => n.chain_id === '1')).toBe(true);
  });

  it('protects a target function with a policy, refuses archiving while protected, and removes the protection over time', async () => {
    const max = await deployedMaxPolicy();
    const target = await targetAt(TOKEN);
    const protection = await ok(
      policy.coordinator.POST('/targets/{target_id}/protections', {
        params: { path: { target_id: target.id } },
        body: { function_signature: TRANSFER, policy_instance_id: max.id, policy_kind: 'onchain' },
      }),
    );
    expect('function_selector' in protection && protection.function_selector).toBe('0xa9059cbb');
    const again = await refusal(
      policy.coordinator.POST('/targets/{target_id}/protections', { params: { path: { target_id: target.id } }, body: { function_signature: TRANSFER, policy_instance_id: max.id, policy_kind: 'onchain' } }),
    );
    expect(again.status).toBe(409);
    expect((await refusal(policy.coordinator.PATCH('/targets/{target_id}', { params: { path: { target_id: target.id } }, body: { status: 'archived' } }))).status).toBe(409);
    expect((await refusal(policy.coordinator.PATCH('/policies/{policy_id}', { params: { path: { policy_id: max.id } }, body: { status: 'archived', policy_kind: 'onchain' } }))).status).toBe(409);
    sandbox.advance(1_000);
    const path = { target_id: target.id, protection_id: protection.id };
    const registered = await ok(policy.coordinator.GET('/targets/{target_id}/protections/{protection_id}', { params: { path } }));
    expect(registered.onchain_target_protections?.map((p) => p.status)).toEqual(['created']);
    const archiving = await ok(policy.coordinator.PATCH('/targets/{target_id}/protections/{protection_id}', { params: { path }, body: { status: 'archived' } }));
    expect([archiving.onchain_target_protections?.[0]?.status, archiving.archived_at]).toEqual(['removal_pending', null]);
    sandbox.advance(1_000);
    const removed = await ok(policy.coordinator.GET('/targets/{target_id}/protections/{protection_id}', { params: { path } }));
    expect(removed.onchain_target_protections?.[0]?.status).toBe('removed');
    expect(removed.archived_at).toEqual(expect.any(Number));
    await ok(policy.coordinator.PATCH('/targets/{target_id}', { params: { path: { target_id: target.id } }, body: { status: 'archived' } }));
  });

  it('patches an onchain policy configuration with optimistic concurrency, shown as an ongoing change until written', async () => {
    const max = await deployedMaxPolicy('10');
    const stale = await refusal(
      policy.coordinator.PATCH('/policies/{policy_id}/configs', {
        params: { path: { policy_id: max.id } },
        body: { patches: [{ op: 'replace', path: '/max', value: '20' }], apply_onchain_policies: [{ chain_selector: SEPOLIA, current_policy_config_version: '7' }] },
      }),
    );
    expect(stale).toMatchObject({ status: 400, body: { message: expect.stringContaining('version 1') } });
    const patched = await ok(
      policy.coordinator.PATCH('/policies/{policy_id}/configs', {
        params: { path: { policy_id: max.id } },
        body: { patches: [{ op: 'replace', path: '/max', value: '20' }], apply_onchain_policies: [{ chain_selector: SEPOLIA, current_policy_config_version: '1' }] },
      }),
    );
    expect(patched.ongoing_config_changes).toHaveLength(1);
    expect(patched.onchain_policies?.[0]?.status).toBe('update_pending');
    sandbox.advance(1_000);
    const written = (await ok(policy.coordinator.GET('/policies/{policy_id}', { params: { path: { policy_id: max.id } } }))) as any;
    expect([written.onchain_policies[0].status, written.onchain_policies[0].policy_config_version, written.ongoing_config_changes]).toEqual(['created', '2', []]);
    expect(written.onchain_configs).toEqual([{ id: expect.any(String), chain_selectors: [SEPOLIA], config_json: { max: '20' } }]);
  });

  it('allows one live offchain policy per organisation (409) and moves it pending → deploying → active', async () => {
    const body = {
      policy_kind: 'offchain' as const,
      type: 'wallet_risk_scoring' as const,
      name: 'risk',
      policy_engine_id: ENGINE,
      onchain_policies: [{ chain_selector: SEPOLIA }],
      config: { secret_name: 'RISK_KEY', addresses_to_check: 'ALL', risk_threshold: 'HIGH', block_unknown: true },
    };
    const created = (await ok(policy.coordinator.POST('/policies', { body }))) as any;
    expect([created.deployment_status, created.action_validators]).toEqual(['pending', [{ chain_selector: SEPOLIA, validator_address: '' }]]);
    expect((await refusal(policy.coordinator.POST('/policies', { body }))).status).toBe(409);
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(((await ok(policy.coordinator.GET('/policies/{policy_id}', { params: { path: { policy_id: created.id } } }))) as any).deployment_status);
      sandbox.advance(500);
    }
    expect(statuses).toEqual(['pending', 'deploying', 'active']);
    const listed = await ok(policy.coordinator.GET('/policies', { params: { query: { policy_kind: 'offchain' } } }));
    expect(listed.policies?.map((p) => p.id)).toEqual([created.id]);
    const onchainOnly = await ok(policy.coordinator.GET('/policies'));
    expect(onchainOnly.policies?.some((p) => p.id === created.id)).toBe(false);
  });
});

describe('coordinator refusals the spec describes', () => {
  it('refuses each documented conflict and state change with its status', async () => {
    const c = policy.coordinator;
    const max = await deployedMaxPolicy();
    const implementation = { params: { path: { policy_implementation_id: SANDBOX_POLICY_IDS.maxPolicyImplementation } }, body: { status: 'archived' as const } };
    const engine = { params: { path: { policy_engine_id: ENGINE } }, body: { status: 'archived' as const } };
    const registry = await ok(c.POST('/registries', { body: { name: 'r', description: '', identity_registries: [{ name: 'i', description: '', chain_selector: SEPOLIA }] } }));
    const grant = { params: { path: { registry_id: registry.id } }, body: { grantee_org_id: 'org_partner' } };
    await ok(c.POST('/registries/{registry_id}/access-grants', grant));
    const validator = await ok(
      c.POST('/data-validators', {
        body: { name: 'v', data_validator_implementation_id: SANDBOX_POLICY_IDS.allowDenyDataValidatorImplementation, onchain_data_validators: [{ chain_selector: SEPOLIA }] },
      }),
    );
    const validatorPath = { params: { path: { data_validator_id: validator.id } } };
    const deploying = await refusal(c.PATCH('/data-validators/{data_validator_id}', { ...validatorPath, body: { status: 'archived' } }));
    sandbox.advance(1_000);
    const staleVersion = await refusal(
      c.PATCH('/data-validators/{data_validator_id}/configs', { ...validatorPath, body: { patches: [], on_chains: [{ chain_selector: SEPOLIA, current_config_version: '2' }] } }),
    );
    const person = { title: 'p', entity_id: 'e-1', registry_id: registry.id, onchain_identities: [] };
    const cases: [string, { status: number; body: any }, number, string][] = [
      ['an implementation with live instances', await refusal(c.PATCH('/policy-implementations/{policy_implementation_id}', implementation)), 409, 'Already exists'],
      ['an engine with live policies', await refusal(c.PATCH('/policy-engines/{policy_engine_id}', engine)), 400, 'Bad request'],
      ['a registry name taken', await refusal(c.POST('/registries', { body: { name: 'r', description: '' } })), 409, 'Already exists'],
      ['a second active grant', await refusal(c.POST('/registries/{registry_id}/access-grants', grant)), 409, 'Already exists'],
      ['a grant to itself', await refusal(c.POST('/registries/{registry_id}/access-grants', { ...grant, body: { grantee_org_id: 'org_sandbox' } })), 400, 'Bad request'],
      ['revoking a grant nobody holds', await refusal(c.PATCH('/registries/{registry_id}/access-grants/{grantee_org_id}', { params: { path: { registry_id: registry.id, grantee_org_id: 'org_none' } }, body: { status: 'revoked' } })), 404, 'Not found'],
      ['grants of a registry it does not own', await refusal(c.GET('/registries/{registry_id}/access-grants', { params: { path: { registry_id: crypto.randomUUID() } } })), 403, 'Forbidden'],
      ['a registry contract left out of a replace', await refusal(c.PUT('/registries/{registry_id}', { params: { path: { registry_id: registry.id } }, body: { name: 'r', description: '' } })), 400, 'Bad request'],
      ['an entity registered twice in one batch', await refusal(c.POST('/identities/batch', { body: { identities: [person, person] } })), 409, 'Already exists'],
      ['archiving a data validator being deployed', deploying, 409, 'Already exists'],
      ['a configuration patch on a stale version', staleVersion, 409, 'Already exists'],
      ['a policy for an unknown implementation', await refusal(c.POST('/policies', { body: { policy_kind: 'onchain', name: 'x', policy_implementation_id: crypto.randomUUID(), policy_engine_id: ENGINE } })), 404, 'Not found'],
      ['a policy missing its required initial configuration', await refusal(c.POST('/policies', { body: { policy_kind: 'onchain', name: 'x', policy_implementation_id: SANDBOX_POLICY_IDS.maxPolicyImplementation, policy_engine_id: ENGINE, onchain_policies: [{ chain_selector: SEPOLIA }] } })), 400, 'Bad request'],
      ['a re-sync of an unknown deployment', await refusal(c.PUT('/policies/{policy_id}/onchain/{onchain_policy_id}', { params: { path: { policy_id: max.id, onchain_policy_id: crypto.randomUUID() } }, body: {} })), 404, 'Not found'],
      ['a second wallet on a chain', await refusal(c.POST('/wallets', { body: { wallets: [{ owner_address: CALLER, chain_selector: SEPOLIA }] } })), 409, 'Already exists'],
    ];
    expect(cases.map(([what, answer]) => [what, answer.status, answer.body?.error])).toEqual(cases.map(([what, , status, error]) => [what, status, error]));
    // Nothing refused was changed: the registry still has its one grant, the batch created nobody.
    expect((await ok(c.GET('/registries/{registry_id}/access-grants', { params: { path: { registry_id: registry.id } } }))).total).toBe(1);
    expect((await ok(c.GET('/identities', { params: { query: { registry_id: registry.id } } }))).total).toBe(0);
  });
});

describe('evaluations', () => {
  it('moves evaluating → approving → ready over sandbox time, with a deterministic permit ID', async () => {
    const started = await requestEvaluation(policy, evaluation('transfer-1'));
    expect(started).toEqual({ permit_id: keccakHex(['permit', 'org_sandbox', 'transfer-1'].join('\u0000')), status: 'evaluating' });
    const seen: EvaluationStatus[] = [];
    for (const step of [0, 1_000, 1_000]) {
      sandbox.advance(step);
      seen.push((await getEvaluation(policy, started.permit_id)).status);
    }
    expect(seen).toEqual(['evaluating', 'approving', 'ready']);
    expect(await getEvaluation(policy, started.permit_id)).toMatchObject({ reason: null, workflow_execution_id: expect.any(String), expires_at: null });
  });

  /**
   * `onStatus` for `waitForEvaluation` that moves sandbox time a stage on
   * (1 s) each time a new status is seen: the wait follows every stage,
   * however slowly the machine runs (a real-time sandbox could move on
   * between two reads of a loaded machine, and the test would miss a stage).
   */
  function stepPerStatus(statuses: EvaluationStatus[]) {
    return (status: EvaluationStatus) => {
      statuses.push(status);
      sandbox.advance(1_000);
    };
  }

  it('waitForEvaluation follows an evaluation through every stage to ready as sandbox time moves', async () => {
    const { permit_id } = await requestEvaluation(policy, evaluation('live'));
    const statuses: EvaluationStatus[] = [];
    const ready = await waitForEvaluation(policy, permit_id, { intervalMs: 10, maxIntervalMs: 20, timeoutMs: 10_000, onStatus: stepPerStatus(statuses) });
    expect(ready.status).toBe('ready');
    expect(statuses).toEqual(['evaluating', 'approving', 'ready']);
  });

  it.each([
    ['rejected', 'evaluating', ['evaluating', 'rejected']],
    ['error', 'approving', ['evaluating', 'approving', 'error']],
  ] as const)('ends in %s (from %s) when parameters.sandbox_outcome asks, and waitForEvaluation throws PollFailedError', async (outcome, during, expected) => {
    const { permit_id } = await requestEvaluation(policy, evaluation(`fail-${outcome}`, { sandbox_outcome: outcome, sandbox_fails_during: during }));
    const statuses: EvaluationStatus[] = [];
    const failure = await waitForEvaluation(policy, permit_id, { intervalMs: 5, maxIntervalMs: 5, timeoutMs: 10_000, onStatus: stepPerStatus(statuses) }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PollFailedError);
    expect((failure as PollFailedError).status).toBe(outcome);
    // Every stage, and the one it fails from:
    expect(statuses).toEqual(expected);
    expect((await getEvaluation(policy, permit_id)).reason).toEqual(expect.any(String));
  });

  it('deduplicates on unique_evaluation_id: the same body, or another one, answers the existing evaluation', async () => {
    const first = await requestEvaluation(policy, evaluation('dedup'));
    sandbox.advance(1_000);
    const same = await requestEvaluation(policy, evaluation('dedup'));
    expect(same).toEqual({ permit_id: first.permit_id, status: 'approving' });
    // Other fields are not compared (the spec): no new evaluation, the first one's status.
    const other = await requestEvaluation(policy, { ...evaluation('dedup', { sandbox_outcome: 'rejected' }), caller_address: TOKEN });
    expect(other).toEqual({ permit_id: first.permit_id, status: 'approving' });
    sandbox.advance(1_000);
    expect((await getEvaluation(policy, first.permit_id)).status).toBe('ready');
    expect((await requestEvaluation(policy, evaluation('dedup'))).status).toBe('ready');
    const fresh = await requestEvaluation(policy, evaluation('dedup-2'));
    expect(fresh.permit_id).not.toBe(first.permit_id);
  });

  it('answers 404 for an unknown permit, 400 for a malformed one or a bad body', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await refusal(policy.evaluation.GET('/evaluate/{permitId}', { params: { path: { permitId: unknown } } }))).toMatchObject({
      status: 404,
      body: { error: 'Not found' },
    });
    const malformed = await sandbox.fetch(`${HOST}/v1/evaluation/evaluate/0x1234`, { headers: { Authorization: `Apikey ${sandbox.credentials.policy.apiKey}` } });
    expect([malformed.status, (await malformed.json()).error]).toEqual([400, 'Bad request']);
    const bad = await refusal(policy.evaluation.POST('/evaluate', { body: { ...evaluation('x'), chain_selector: 'sepolia' } }));
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('chain_selector') } });
    const outcome = await refusal(policy.evaluation.POST('/evaluate', { body: evaluation('y', { sandbox_outcome: 'maybe' }) }));
    expect(outcome).toMatchObject({ status: 400, body: { message: expect.stringContaining('sandbox_outcome') } });
  });
});

describe('reporting', () => {
  /** Three evaluations five seconds apart, each played to its protected call. */
  async function threeCalls() {
    const permits: string[] = [];
    for (const id of ['a', 'b', 'c']) {
      permits.push((await requestEvaluation(policy, evaluation(`call-${id}`))).permit_id);
      sandbox.advance(5_000);
    }
    sandbox.advance(5_000);
    return permits;
  }

  it('reports the permits and the protected calls of ready evaluations', async () => {
    const permits = await threeCalls();
    const stored = await ok(policy.reporting.GET('/permits'));
    expect(new Set(stored.permits.map((p) => p.permit_id))).toEqual(new Set(permits));
    const one = await ok(policy.reporting.GET('/permits', { params: { query: { permit_id: permits[1]! } } }));
    expect(one.permits).toHaveLength(1);
    const calls = await ok(policy.reporting.GET('/transactions'));
    expect(calls.transactions).toHaveLength(3);
    const [newest] = calls.transactions;
    expect(newest).toMatchObject({ chain_selector: SEPOLIA, from_address: CALLER, to_address: TOKEN });
    expect(newest!.policy_runs[0]!.on_chain.method.selector).toBe(selectorOf(TRANSFER));
    // Newest first by default; ascending on request.
    const blocks = calls.transactions.map((t) => t.block_number);
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a));
    const ascending = await ok(policy.reporting.GET('/transactions', { params: { query: { sort: 'chain_selector,block_number' } } }));
    expect(ascending.transactions.map((t) => t.block_number)).toEqual([...blocks].reverse());
    const found = await ok(policy.reporting.GET('/transactions/{chain_selector}/{tx_hash}', { params: { path: { chain_selector: SEPOLIA, tx_hash: newest!.tx_hash } } }));
    expect(found.tx_hash).toBe(newest!.tx_hash);
    const missing = await refusal(policy.reporting.GET('/transactions/{chain_selector}/{tx_hash}', { params: { path: { chain_selector: SEPOLIA, tx_hash: `0x${'0'.repeat(64)}` } } }));
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('filters by time range (inclusive) and pages with page_token through paginateReporting', async () => {
    await threeCalls();
    const all = (await ok(policy.reporting.GET('/transactions', { params: { query: { sort: 'chain_selector,block_number' } } }))).transactions;
    const middle = all[1]!.block_timestamp;
    const from = await ok(policy.reporting.GET('/transactions', { params: { query: { from: middle } } }));
    expect(from.transactions.map((t) => t.tx_hash).sort()).toEqual([all[1]!.tx_hash, all[2]!.tx_hash].sort());
    const to = await ok(policy.reporting.GET('/transactions', { params: { query: { to: middle } } }));
    expect(to.transactions.map((t) => t.tx_hash).sort()).toEqual([all[0]!.tx_hash, all[1]!.tx_hash].sort());
    const exact = await ok(policy.reporting.GET('/transactions', { params: { query: { from: middle, to: middle } } }));
    expect(exact.transactions.map((t) => t.tx_hash)).toEqual([all[1]!.tx_hash]);

    const first = await ok(policy.reporting.GET('/transactions', { params: { query: { page_size: 2 } } }));
    expect(first.transactions).toHaveLength(2);
    expect(first.next_page_token).toEqual(expect.any(String));
    const second = await ok(policy.reporting.GET('/transactions', { params: { query: { page_size: 2, page_token: first.next_page_token! } } }));
    expect([second.transactions.length, second.next_page_token]).toEqual([1, null]);
    const walked = await collect(paginateReporting(policy.reporting, '/transactions', { pageSize: 1, params: { query: { from: all[0]!.block_timestamp } } }));
    expect(walked.map((t) => t.tx_hash)).toEqual(all.map((t) => t.tx_hash).reverse());
  });

  it('refuses bad paging and filters with 400 and the reporting error body', async () => {
    await threeCalls();
    const first = await ok(policy.reporting.GET('/transactions', { params: { query: { page_size: 1 } } }));
    const refusals = [
      await refusal(policy.reporting.GET('/transactions', { params: { query: { page_token: 'not-a-token' } } })),
      await refusal(policy.reporting.GET('/transactions', { params: { query: { page_size: 1, page_token: first.next_page_token!, from_address: CALLER } } })),
      await refusal(policy.reporting.GET('/transactions', { params: { query: { page_size: 101 } } })),
      await refusal(policy.reporting.GET('/transactions', { params: { query: { from: '1700000000' } } })),
      await refusal(policy.reporting.GET('/policies', { params: { query: {} as never } })),
      await refusal(policy.reporting.GET('/transactions', { params: { query: { sort: '-block_number' as never } } })),
    ];
    for (const answer of refusals) expect(answer).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', message: expect.any(String) } });
    expect(refusals.map((r) => r.body.message)).toEqual([
      expect.stringContaining('page_token'),
      expect.stringContaining('other filters'),
      expect.stringContaining('page_size'),
      expect.stringContaining('RFC 3339'),
      expect.stringContaining('as_of is required'),
      expect.stringContaining('sort'),
    ]);
  });

  it('answers a policy as of a point in time, version by version', async () => {
    const before = nowIso();
    sandbox.advance(1_000);
    const max = await deployedMaxPolicy('100');
    const asOfFirst = nowIso();
    sandbox.advance(10_000);
    await ok(
      policy.coordinator.PATCH('/policies/{policy_id}/configs', {
        params: { path: { policy_id: max.id } },
        body: { patches: [{ op: 'replace', path: '/max', value: '200' }], apply_onchain_policies: [{ chain_selector: SEPOLIA, current_policy_config_version: '1' }] },
      }),
    );
    sandbox.advance(1_000);
    const asOfSecond = nowIso();
    const path = { chain_selector: SEPOLIA, address: max.address };
    const at = (as_of: string) => policy.reporting.GET('/policies/{chain_selector}/{address}', { params: { path, query: { as_of, include_policy_details: true } } });
    const v1 = await ok(at(asOfFirst));
    const v2 = await ok(at(asOfSecond));
    expect([v1.version, v1.state, v2.version, v2.state]).toEqual([1, { max: '100' }, 2, { max: '200' }]);
    expect(v1.effective_to).toBe(v2.effective_from);
    expect(v2.effective_to).toBeNull();
    expect((await refusal(at(before))).status).toBe(404);
    const latest = await ok(policy.reporting.GET('/policies/{chain_selector}/{address}/versions/{version}', { params: { path: { ...path, version: 'latest' } } }));
    expect(latest.version).toBe(2);
    expect((await refusal(policy.reporting.GET('/policies/{chain_selector}/{address}/versions/{version}', { params: { path: { ...path, version: '3' } } }))).status).toBe(404);
    const listed = await ok(policy.reporting.GET('/policies', { params: { query: { as_of: asOfFirst } } }));
    expect(listed.policies.find((p) => p.address === max.address)).toMatchObject({ version: 1, state: null });
  });

  it('answers a target and its protected functions as of a point in time, and the policy run of a protected call', async () => {
    const max = await deployedMaxPolicy('5');
    const target = await targetAt(TOKEN);
    sandbox.advance(2_000);
    const unprotected = nowIso();
    await ok(policy.coordinator.POST('/targets/{target_id}/protections', { params: { path: { target_id: target.id } }, body: { function_signature: TRANSFER, policy_instance_id: max.id, policy_kind: 'onchain' } }));
    sandbox.advance(1_000);
    const protectedAt = nowIso();
    const at = (as_of: string) => ok(policy.reporting.GET('/targets/{chain_selector}/{address}', { params: { path: { chain_selector: SEPOLIA, address: TOKEN }, query: { as_of } } }));
    expect((await at(unprotected)).policy_engines[0]!.protected_methods).toBeNull();
    const [method] = (await at(protectedAt)).policy_engines[0]!.protected_methods!;
    expect(method).toMatchObject({ method_selector: '0xa9059cbb', policies: [{ policy_address: max.address, version: 1, state: null }] });
    const listed = await ok(policy.reporting.GET('/targets', { params: { query: { as_of: protectedAt, chain_selector: SEPOLIA } } }));
    expect(listed.targets.map((t) => t.address)).toEqual([TOKEN]);

    const { permit_id } = await requestEvaluation(policy, evaluation('protected'));
    sandbox.advance(3_000);
    const [call] = (await ok(policy.reporting.GET('/transactions', { params: { query: { target_contract_address: TOKEN, include_policy_details: true } } }))).transactions;
    const run = call!.policy_runs[0]!.on_chain;
    expect(run.policies?.[0]).toMatchObject({ address: max.address, version: 1, policy_state: { max: '5' } });
    expect(run.target_default_behavior).toBe('ALLOW');
    const permits = await ok(policy.reporting.GET('/permits', { params: { query: { permit_id } } }));
    expect(run.policies?.at(-1)?.address).toBe(permits.permits[0]!.policy_address);
  });

  it('answers identities as of a point in time, with credentials, and the registry uses of a protected call', async () => {
    const registry = await ok(
      policy.coordinator.POST('/registries', {
        body: {
          name: 'kyc',
          description: 'KYC registry',
          identity_registries: [{ name: 'ids', description: '', chain_selector: SEPOLIA }],
          credential_registries: [{ name: 'creds', description: '', chain_selector: SEPOLIA }],
        },
      }),
    );
    sandbox.advance(1_000);
    const kyc = await ok(
      policy.coordinator.POST('/credential-types', {
        body: { registry_id: registry.id, title: 'KYC', credential_type: 'common.KYC', data_schema_id: SANDBOX_POLICY_IDS.kycDataSchema },
      }),
    );
    const identity = await ok(
      policy.coordinator.POST('/identities', {
        body: {
          title: 'Alice',
          entity_id: 'customer-1',
          registry_id: registry.id,
          onchain_identities: [{ chain_selector: SEPOLIA, address: CALLER }],
          credentials: [{ credential_type_id: kyc.id, credential_data: { country: 'FR' } }],
        },
      }),
    );
    expect(identity.onchain_identities?.[0]?.status).toBe('creation_pending');
    const noData = await refusal(policy.coordinator.POST('/credentials', { body: { credential_type_id: kyc.id, identity_id: identity.id } }));
    expect(noData).toMatchObject({ status: 400, body: { message: expect.stringContaining('credential_data is required') } });
    const twice = await refusal(policy.coordinator.POST('/credentials', { body: { credential_type_id: kyc.id, identity_id: identity.id, credential_data: { country: 'DE' } } }));
    expect(twice).toMatchObject({ status: 409, body: { error: 'Already exists' } });
    sandbox.advance(1_000);
    const registered = nowIso();
    const byCcid = (as_of: string) =>
      policy.reporting.GET('/identities/{ccid}', { params: { path: { ccid: identity.ccid }, query: { as_of, include_credential_details: true } } });
    const seen = await ok(byCcid(registered));
    expect(seen.registries[0]!.addresses.map((a) => a.address)).toEqual([CALLER]);
    expect(seen.credentials).toEqual([expect.objectContaining({ credential_type_id: keccakHex('common.KYC'), expires_at: null })]);
    const byAddress = await ok(policy.reporting.GET('/identities', { params: { query: { as_of: registered, address: CALLER } } }));
    expect([byAddress.identities.length, byAddress.identities[0]!.credentials]).toEqual([1, null]);

    // An identity validator that consults the registry, protecting the token: a protected call uses the registry.
    const contracts = (await ok(policy.coordinator.GET('/registries/{registry_id}', { params: { path: { registry_id: registry.id } } }))) as any;
    const source = { identity_registry: contracts.identity_registries[0].address, credential_registry: contracts.credential_registries[0].address };
    const validator = await ok(
      policy.coordinator.POST('/policies', {
        body: {
          policy_kind: 'onchain',
          name: 'kyc-check',
          policy_implementation_id: SANDBOX_POLICY_IDS.identityValidatorPolicyImplementation,
          policy_engine_id: ENGINE,
          onchain_policies: [{ chain_selector: SEPOLIA, initial_config: { credential_sources: [source] } }],
        },
      }),
    );
    const target = await targetAt(TOKEN);
    sandbox.advance(1_000);
    await ok(policy.coordinator.POST('/targets/{target_id}/protections', { params: { path: { target_id: target.id } }, body: { function_signature: TRANSFER, policy_instance_id: validator.id, policy_kind: 'onchain' } }));
    sandbox.advance(1_000);
    await requestEvaluation(policy, evaluation('kyc-call'));
    sandbox.advance(3_000);
    const uses = await ok(
      policy.reporting.GET('/registry-usage/events', { params: { query: { registry_type: 'identity', chain_selector: SEPOLIA, registry_address: source.identity_registry } } }),
    );
    expect(uses.events).toEqual([expect.objectContaining({ ccid: identity.ccid, target_contract_address: TOKEN, function_selector: '0xa9059cbb' })]);
    const notOurs = await refusal(
      policy.reporting.GET('/registry-usage/events', { params: { query: { registry_type: 'identity', chain_selector: SEPOLIA, registry_address: TOKEN } } }),
    );
    expect(notOurs.status).toBe(404);

    await ok(policy.coordinator.PATCH('/identities/{identity_id}', { params: { path: { identity_id: identity.id } }, body: { status: 'archived' } }));
    sandbox.advance(1_000);
    expect((await refusal(byCcid(nowIso()))).status).toBe(404);
    expect((await ok(byCcid(registered))).registries[0]!.addresses[0]!.effective_to).toEqual(expect.any(String));
  });
});

describe('reset', () => {
  it('goes back to the seed', async () => {
    await ok(policy.coordinator.POST('/policy-engines', { body: { name: 'temporary', onchain_policy_engines: [] } }));
    await requestEvaluation(policy, evaluation('before-reset'));
    sandbox.reset();
    const engines = await ok(policy.coordinator.GET('/policy-engines'));
    expect(engines.policy_engines.map((e) => e.id).sort()).toEqual([SANDBOX_POLICY_IDS.policyEngine, SANDBOX_POLICY_IDS.systemPolicyEngine].sort());
    expect((await ok(policy.reporting.GET('/permits'))).permits).toEqual([]);
  });
});

describe('spec conformance', () => {
  it('knows, per coordinator operation, exactly the refusals the bundle documents', () => {
    const bundle = loadBundle('policy-coordinator');
    const documented = Object.fromEntries(
      operationsOf(bundle).map((op) => [
        op.operationId,
        responsesOf(bundle, op)
          .map((r) => Number(r.status))
          .filter((status) => status >= 400 && ![401, 429, 500].includes(status)),
      ]),
    );
    expect(DOCUMENTED_REFUSALS).toEqual(documented);
  });

  it('refuses a page_size beyond 100 or a page below 1 with the documented 400', async () => {
    expect(await refusal(policy.coordinator.GET('/policy-engines', { params: { query: { page_size: 101 } } }))).toMatchObject({ status: 400, body: { error: 'Bad request' } });
    expect((await refusal(policy.coordinator.GET('/policy-engines', { params: { query: { page: 0 } } }))).status).toBe(400);
  });

  it('answers every coordinator operation with its documented success', async () => {
    const bundle = loadBundle('policy-coordinator');
    const successes = new Map(operationsOf(bundle).map((op) => [op.operationId, responsesOf(bundle, op).map((r) => Number(r.status)).filter((s) => s < 300)]));
    const called = new Map<string, number>();
    const step = async (operationId: CoordinatorOperationId, call: Promise<unknown>, expected = successes.get(operationId)![0]) => {
      const { data, error, response } = (await call) as { data?: any; error?: unknown; response: Response };
      expect([operationId, response.status, response.ok ? undefined : error]).toEqual([operationId, expected, undefined]);
      called.set(operationId, response.status);
      return data;
    };

    await runCoordinatorScenario({ coordinator: policy.coordinator, step, sandbox });

    expect([...called.keys()].sort()).toEqual(Object.keys(coordinatorOperations).sort());
  });
});

describe('errors thrown through the SDK helpers', () => {
  it('surfaces refusals as ApiError with the AceError category', async () => {
    const error = await getEvaluation(policy, `0x${'cd'.repeat(32)}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });
});
