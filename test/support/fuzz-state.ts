// State for the sandbox's fuzz suite (test/sandbox/fuzz.test.ts): before an
// operation is fuzzed, records are made through the SDK's public clients
// against the sandbox (a channel and what hangs off it, a coordinator's
// engine, policies, registry, identities, an evaluation's permit), and the
// operation's valid requests are grounded in them: path and query parameters
// named like a record (`channel_id`, `policy_id`, `feedID`, …) name one that
// exists, and so do the identifiers in a body (`extractor_ids`,
// `registry_id`, …). A request the spec's examples or the schemas made names
// records of some other organisation; grounded, it names this one's, so a
// refusal is the sandbox's, not the example's.
import { deref, type Bundle, type OperationInfo } from '../contract/support/spec.js';
import { createChannelsClient } from '../../src/channels/index.js';
import { createPolicyClient, type PolicyClient } from '../../src/policy/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';
import { SANDBOX_STREAMS } from '../../src/sandbox/streams/index.js';
import type { SandboxApi } from '../../src/sandbox/types.js';
import { BASE_SEPOLIA, CALLER, SEPOLIA, TOKEN, TRANSFER } from './coordinator-scenario.js';
import { createOracle, type RequestParts } from './request-variants.js';

type Value = string | string[];

/** What an operation's valid requests are grounded in. */
export interface FuzzState {
  /** Path and query parameters, by name. */
  parameters: Record<string, Value>;
  /** Body properties naming records, by name (anywhere in the body). */
  body: Record<string, Value>;
  /** Parameters for one operation only, where a name means a different record there (`policy_id` of an offchain policy). */
  byOperation: Record<string, Record<string, Value>>;
  /** Parameters for a request whose body names a `policy_kind` (archivePolicy): a policy of that kind. */
  byKind?: Record<string, Record<string, Value>>;
  /** Body properties for a body naming a `policy_kind` (a protection's `policy_instance_id`): a policy of that kind. */
  bodyByKind?: Record<string, Record<string, Value>>;
}

/** Operations whose records are made differently from the others' (what they must not find is left out). */
export const SHAPED_BY_OPERATION: ReadonlySet<string> = new Set(['createPolicy', 'archivePolicy', 'patchPolicyConfigs', 'createCredential', 'createWallets']);

/** Chains the sandbox serves; a body naming another is grounded on Sepolia. */
const SERVED_CHAINS = new Set([SEPOLIA, BASE_SEPOLIA, '3478487238524512106', '14767482510784806043']);

/** Awaits an SDK call and gives its data; a failure here is the fixture's, so it throws with the answer. */
async function made<T>(what: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined) throw new Error(`fuzz state: ${what} answered ${response.status} ${JSON.stringify(error)}`);
  return data;
}

const nowIso = (sandbox: Sandbox) => new Date(sandbox.clock.now()).toISOString();

async function channelsState(sandbox: Sandbox): Promise<FuzzState> {
  const c = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch, retry: false });
  const channel: any = await made('createChannel', c.POST('/channels', { body: { name: 'fuzz' } }));
  const wallet: any = await made('createWallet', c.POST('/wallets', {
    body: { name: 'fuzz', wallet_owner_address: CALLER, chain_selector: SEPOLIA, wallet_type: 'ecdsa', status_channel_id: channel.channel_id } as never,
  }));
  const on = { params: { path: { channel_id: channel.channel_id } } };
  const query: any = await made('createQuery', c.POST('/channels/{channel_id}/queries', {
    ...on,
    body: { idempotency_key: 'fuzz', query_kind: 'evm_call', chain_selector: SEPOLIA, params: { contract_address: TOKEN, call_data: '0x18160ddd', block_selection: { type: 'latest' } } } as never,
  }));
  const watcher: any = await made('createWatcher', c.POST('/channels/{channel_id}/watchers', {
    ...on,
    body: { name: 'fuzz', chain_selector: SEPOLIA, address: TOKEN, service: 'dta', events: ['SubscriptionRequested'] } as never,
  }));
  const operation: any = await made('createOperation', c.POST('/channels/{channel_id}/operations', {
    ...on,
    body: {
      chain_selector: SEPOLIA,
      address: wallet.address,
      wallet_operation_id: '1',
      deadline: 0,
      transactions: [{ to: TOKEN, value: '0', data: `0xa9059cbb${'00'.repeat(12)}${CALLER.slice(2)}${'00'.repeat(31)}01` }],
    } as never,
  }));
  sandbox.advance(1_000);
  const events: any = await made('listChannelEvents', c.GET('/channels/{channel_id}/events', on as never));
  const ids = {
    channel_id: channel.channel_id,
    wallet_id: wallet.wallet_id ?? wallet.id,
    query_id: query.query_id ?? query.id,
    watcher_id: watcher.watcher_id ?? watcher.id,
    operation_id: operation.operation_id ?? operation.id,
    event_id: (events.events ?? events.data ?? [])[0]?.event_id,
  };
  // A channel with nothing on it: an active watcher keeps a channel from being archived.
  const spare: any = await made('createChannel', c.POST('/channels', { body: { name: 'spare' } }));
  return {
    parameters: ids,
    // The wallet's address: an operation is made for a wallet of this organisation.
    body: { status_channel_id: channel.channel_id, address: wallet.address },
    byOperation: { updateChannel: { channel_id: spare.channel_id } },
  };
}

function streamsState(sandbox: Sandbox): FuzzState {
  const [first, second] = SANDBOX_STREAMS.map((stream) => stream.record.feedID);
  // A second the sandbox has reports for: now, on its frozen clock, less a minute.
  const timestamp = String(Math.floor(sandbox.clock.now() / 1000) - 60);
  return { parameters: { feedID: first!, feedIDs: [first!, second!].join(','), timestamp, startTimestamp: timestamp }, body: {}, byOperation: {} };
}

function policyClient(sandbox: Sandbox): PolicyClient {
  return createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch, retry: false });
}

/** A policy-checked evaluation of a transfer on the token (the permit the evaluation API serves and reporting records). */
const EVALUATION = {
  caller_address: CALLER,
  subject: TOKEN,
  function_signature: TRANSFER,
  parameters: { to: TOKEN, amount: '1' },
  permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
  chain_selector: SEPOLIA,
  unique_evaluation_id: 'fuzz',
};

async function evaluationState(sandbox: Sandbox): Promise<FuzzState> {
  const p = policyClient(sandbox);
  const started: any = await made('requestEvaluation', p.evaluation.POST('/evaluate', { body: EVALUATION as never }));
  return { parameters: { permitId: started.permit_id }, body: {}, byOperation: {} };
}

/**
 * The records the coordinator's operations name, made in an order each
 * creation succeeds in. `operationId` is the operation about to be fuzzed:
 * what it must not find is left out (an organisation has one offchain
 * policy, so `createPolicy` gets none; `archivePolicy` gets one no
 * protection holds).
 */
async function coordinatorState(sandbox: Sandbox, operationId: string): Promise<FuzzState> {
  const c = policyClient(sandbox).coordinator;
  const later = () => sandbox.advance(1_000);
  const id = <P extends Record<string, string>>(path: P): any => ({ params: { path } });
  const onEveryChain = <T extends object>(item: T) => [...SERVED_CHAINS].map((chain_selector) => ({ ...item, chain_selector }));
  const extractor: any = await made('createExtractor', c.POST('/extractors', {
    body: { name: 'fuzz', supported_function_signatures: [TRANSFER], outputs: [{ name: 'amount', type: 'uint256' }], onchain_extractors: [{ chain_selector: SEPOLIA, address: TOKEN }] },
  }));
  const contractType: any = await made('createContractType', c.POST('/contract-types', {
    body: { name: 'fuzz', contract_type_functions: { function_abis: [] }, extractor_ids: [extractor.id] } as never,
  }));
  const engine: any = await made('createPolicyEngine', c.POST('/policy-engines', {
    body: { name: 'fuzz', extractor_ids: [extractor.id], contract_type_ids: [contractType.id], onchain_policy_engines: onEveryChain({}) },
  }));
  // Records nothing depends on, for the archiving operations (a record in use cannot be archived).
  const spareEngine: any = await made('createPolicyEngine', c.POST('/policy-engines', { body: { name: 'spare', extractor_ids: [], contract_type_ids: [], onchain_policy_engines: [{ chain_selector: SEPOLIA }] } }));
  later();
  const implementation: any = await made('createPolicyImplementation', c.POST('/policy-implementations', {
    body: { name: 'fuzz', description: 'fuzz', policy_config_schema: { type: 'object' } } as never,
  }));
  const target: any = await made('createTarget', c.POST('/targets', {
    body: { title: 'fuzz', policy_engine_id: engine.id, desired_default_allow: true, protected_methods: [TRANSFER], onchain_targets: [SEPOLIA, BASE_SEPOLIA].map((chain_selector) => ({ chain_selector, address: TOKEN })) },
  }));
  const source: any = await made('createTarget', c.POST('/targets', {
    body: { title: 'fuzz source', policy_engine_id: engine.id, desired_default_allow: true, onchain_targets: [{ chain_selector: '3478487238524512106', address: TOKEN }] },
  }));
  // Allow-list policies, as the spec's examples configure.
  const allowList = (name: string): any => made('createPolicy', c.POST('/policies', {
    body: {
      policy_kind: 'onchain',
      name,
      policy_implementation_id: SANDBOX_POLICY_IDS.allowListPolicyImplementation,
      policy_engine_id: engine.id,
      onchain_policies: [SEPOLIA, BASE_SEPOLIA].map((chain_selector) => ({ chain_selector, initial_config: { allowlist: [] } })),
    },
  }));
  const onchain = await allowList('fuzz');
  const spareOnchain = await allowList('spare');
  later();
  if (operationId === 'patchPolicyConfigs') {
    // The spec's example patches a configuration already at version 2.
    await made('patchPolicyConfigs', c.PATCH('/policies/{policy_id}/configs', {
      ...id({ policy_id: onchain.id }),
      body: { patches: [{ op: 'replace', path: '/allowlist', value: [] }], apply_onchain_policies: [{ chain_selector: SEPOLIA, current_policy_config_version: '1' }] },
    }));
    later();
  }
  const deployed: any = await made('getPolicy', c.GET('/policies/{policy_id}', id({ policy_id: onchain.id })));
  const protection: any = await made('createTargetProtection', c.POST('/targets/{target_id}/protections', {
    ...id({ target_id: target.id }),
    body: { function_signature: TRANSFER, policy_instance_id: onchain.id, policy_kind: 'onchain' },
  }));
  const grantee = 'org_partner';
  let offchain: any = { id: undefined };
  let offchainProtection: any = { id: undefined };
  if (operationId !== 'createPolicy') {
    offchain = await made('createPolicy', c.POST('/policies', {
      body: { policy_kind: 'offchain', type: 'wallet_risk_scoring', name: 'fuzz', policy_engine_id: engine.id, onchain_policies: [{ chain_selector: SEPOLIA }], config: { secret_name: 'RISK', addresses_to_check: 'ALL', risk_threshold: 'HIGH', block_unknown: false } },
    }));
    later();
    if (operationId !== 'archivePolicy') {
      offchainProtection = await made('createTargetProtection', c.POST('/targets/{target_id}/protections', {
        ...id({ target_id: target.id }),
        body: { function_signature: 'approve(address,uint256)', policy_instance_id: offchain.id, policy_kind: 'offchain' },
      }));
      later();
      await made('createPolicyTargetAccessGrant', c.POST('/policies/{policy_id}/targets/{target_id}/access-grants', { ...id({ policy_id: offchain.id, target_id: target.id }), body: { grantee_org_id: grantee } }));
    }
  }
  const contracts = { identity_registries: onEveryChain({ name: 'ids', description: '' }), credential_registries: onEveryChain({ name: 'creds', description: '' }) };
  const registry: any = await made('createRegistry', c.POST('/registries', { body: { name: 'fuzz', description: 'fuzz', ...contracts } }));
  // No contracts: a replacement may name any, and nothing is registered in it.
  const spareRegistry: any = await made('createRegistry', c.POST('/registries', { body: { name: 'spare', description: 'spare', identity_registries: [], credential_registries: [] } }));
  later();
  await made('createRegistryAccessGrant', c.POST('/registries/{registry_id}/access-grants', { ...id({ registry_id: registry.id }), body: { grantee_org_id: grantee } }));
  const credentialType: any = await made('createCredentialType', c.POST('/credential-types', { body: { registry_id: registry.id, title: 'fuzz', credential_type: 'common.FUZZ' } }));
  const spareCredentialType: any = await made('createCredentialType', c.POST('/credential-types', { body: { registry_id: registry.id, title: 'spare', credential_type: 'common.SPARE' } }));
  const identity: any = await made('createIdentity', c.POST('/identities', {
    body: { title: 'fuzz', entity_id: 'fuzz-1', registry_id: registry.id, onchain_identities: [{ chain_selector: SEPOLIA, address: CALLER }] },
  }));
  later();
  const credential: any = await made('createCredential', c.POST('/credentials', { body: { credential_type_id: credentialType.id, identity_id: identity.id, expires_at: 2_000_000_000 } }));
  const validator: any = await made('createDataValidator', c.POST('/data-validators', {
    body: { name: 'fuzz', data_validator_implementation_id: SANDBOX_POLICY_IDS.allowDenyDataValidatorImplementation, onchain_data_validators: onEveryChain({ initial_config: { allowlist: [], allowed_jurisdictions: [] } }) },
  }));
  later();
  const offchainPolicy = { policy_id: offchain.id };
  return {
    parameters: {
      chain_selector: SEPOLIA,
      policy_engine_id: engine.id,
      extractor_id: extractor.id,
      contract_type_id: contractType.id,
      policy_implementation_id: implementation.id,
      target_id: target.id,
      protection_id: protection.id,
      policy_id: onchain.id,
      onchain_policy_id: deployed.onchain_policies[0].id,
      registry_id: registry.id,
      grantee_org_id: grantee,
      credential_type_id: credentialType.id,
      identity_id: identity.id,
      credential_id: credential.id,
      data_validator_id: validator.id,
    },
    body: {
      extractor_ids: [extractor.id],
      extractor_output_ids: extractor.outputs.map((output: { id: string }) => output.id),
      contract_type_ids: [contractType.id],
      policy_engine_id: engine.id,
      policy_implementation_id: SANDBOX_POLICY_IDS.allowListPolicyImplementation,
      policy_instance_id: spareOnchain.id,
      registry_id: registry.id,
      identity_id: identity.id,
      credential_type_id: operationId === 'createCredential' ? spareCredentialType.id : credentialType.id,
      data_schema_id: SANDBOX_POLICY_IDS.kycDataSchema,
      data_validator_implementation_id: SANDBOX_POLICY_IDS.allowDenyDataValidatorImplementation,
      source_target_ids: [source.id],
      // The seed's wallet holds Sepolia.
      ...(operationId === 'createWallets' ? { chain_selector: BASE_SEPOLIA } : {}),
    },
    byOperation: {
      // The operations on an offchain policy's protections, configuration and access grants.
      listPolicyProtections: offchainPolicy,
      getPolicyProtection: { ...offchainPolicy, protection_id: offchainProtection.id },
      deletePolicyProtection: { ...offchainPolicy, protection_id: offchainProtection.id },
      replacePolicyConfig: offchainPolicy,
      listPolicyTargetAccessGrants: offchainPolicy,
      createPolicyTargetAccessGrant: offchainPolicy,
      revokePolicyTargetAccessGrant: offchainPolicy,
      archivePolicyEngine: { policy_engine_id: spareEngine.id },
      archiveTarget: { target_id: source.id },
      replaceRegistry: { registry_id: spareRegistry.id },
      archiveRegistry: { registry_id: spareRegistry.id },
      updateCredentialType: { credential_type_id: spareCredentialType.id },
    },
    byKind: { offchain: offchainPolicy, onchain: { policy_id: spareOnchain.id } },
    bodyByKind: { offchain: { policy_instance_id: offchain.id } },
  };
}

/**
 * What reporting reads, made on the seed's engine: a registry with an
 * identity, an identity-validator policy consulting it, protecting the token's
 * target, and one evaluated call (a permit, a transaction, registry use).
 */
async function reportingState(sandbox: Sandbox): Promise<FuzzState> {
  const p = policyClient(sandbox);
  const c = p.coordinator;
  const later = () => sandbox.advance(1_000);
  const engine = SANDBOX_POLICY_IDS.policyEngine;
  const registry: any = await made('createRegistry', c.POST('/registries', {
    body: { name: 'fuzz', description: 'fuzz', identity_registries: [{ name: 'ids', description: '', chain_selector: SEPOLIA }], credential_registries: [{ name: 'creds', description: '', chain_selector: SEPOLIA }] },
  }));
  later();
  const kyc: any = await made('createCredentialType', c.POST('/credential-types', { body: { registry_id: registry.id, title: 'KYC', credential_type: 'common.KYC', data_schema_id: SANDBOX_POLICY_IDS.kycDataSchema } }));
  const identity: any = await made('createIdentity', c.POST('/identities', {
    body: { title: 'fuzz', entity_id: 'fuzz-1', registry_id: registry.id, onchain_identities: [{ chain_selector: SEPOLIA, address: CALLER }], credentials: [{ credential_type_id: kyc.id, credential_data: { country: 'FR' } }] },
  }));
  later();
  const contracts: any = await made('getRegistry', c.GET('/registries/{registry_id}', { params: { path: { registry_id: registry.id } } }));
  const source = { identity_registry: contracts.identity_registries[0].address, credential_registry: contracts.credential_registries[0].address };
  const validator: any = await made('createPolicy', c.POST('/policies', {
    body: { policy_kind: 'onchain', name: 'fuzz', policy_implementation_id: SANDBOX_POLICY_IDS.identityValidatorPolicyImplementation, policy_engine_id: engine, onchain_policies: [{ chain_selector: SEPOLIA, initial_config: { credential_sources: [source] } }] },
  }));
  const target: any = await made('createTarget', c.POST('/targets', {
    body: { title: 'fuzz', policy_engine_id: engine, desired_default_allow: true, protected_methods: [TRANSFER], onchain_targets: [{ chain_selector: SEPOLIA, address: TOKEN }] },
  }));
  later();
  await made('createTargetProtection', c.POST('/targets/{target_id}/protections', { params: { path: { target_id: target.id } }, body: { function_signature: TRANSFER, policy_instance_id: validator.id, policy_kind: 'onchain' } }));
  later();
  await made('requestEvaluation', p.evaluation.POST('/evaluate', { body: EVALUATION as never }));
  sandbox.advance(5_000);
  const deployed: any = await made('getPolicy', c.GET('/policies/{policy_id}', { params: { path: { policy_id: validator.id } } }));
  const transactions: any = await made('listTransactions', p.reporting.GET('/transactions'));
  const policyAt = { chain_selector: SEPOLIA, address: deployed.onchain_policies[0].address };
  return {
    parameters: {
      as_of: nowIso(sandbox),
      chain_selector: SEPOLIA,
      address: TOKEN,
      ccid: identity.ccid,
      tx_hash: transactions.transactions[0].tx_hash,
      registry_address: source.credential_registry,
    },
    body: {},
    byOperation: {
      getPolicy: policyAt,
      getPolicyVersion: policyAt,
      // The identity registry is the one an identity validator reads for every call.
      listRegistryUsageEvents: { registry_type: 'identity', registry_address: source.identity_registry },
    },
  };
}

/** Makes the records an API's operations name, in a fresh sandbox; what to ground its requests in. */
export function prepareFuzzState(api: SandboxApi, sandbox: Sandbox, operationId: string): Promise<FuzzState> {
  switch (api) {
    case 'channels':
      return channelsState(sandbox);
    case 'streams':
      return Promise.resolve(streamsState(sandbox));
    case 'policy-coordinator':
      return coordinatorState(sandbox, operationId);
    case 'policy-evaluation':
      return evaluationState(sandbox);
    case 'policy-reporting':
      return reportingState(sandbox);
  }
}

const asText = (value: Value): string => (Array.isArray(value) ? value.join(',') : value);

function groundBody(node: unknown, values: Record<string, Value>): unknown {
  if (Array.isArray(node)) return node.map((item) => groundBody(item, values));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      const existing = values[key];
      if (existing !== undefined && (typeof value === 'string' || Array.isArray(value))) return [key, existing];
      if (key === 'chain_selector' && typeof value === 'string' && !SERVED_CHAINS.has(value)) return [key, SEPOLIA];
      return [key, groundBody(value, values)];
    }),
  );
}

/**
 * A valid request of `op` grounded in `state`: its parameters and the record
 * identifiers of its body replaced by ones that exist. Where grounding would
 * break the request's schema, that part is left as it was (the request must
 * stay valid: the oracle says so).
 */
export function groundRequest(bundle: Bundle, op: OperationInfo, request: RequestParts, state: FuzzState): RequestParts {
  const kind = (request.body as { policy_kind?: string } | undefined)?.policy_kind ?? 'onchain';
  const parameters = { ...state.parameters, ...state.byOperation[op.operationId], ...(op.operationId === 'archivePolicy' ? state.byKind?.[kind] : {}) };
  const path = Object.fromEntries(Object.entries(request.path).map(([name, value]) => [name, parameters[name] === undefined ? value : asText(parameters[name]!)]));
  const query = request.query.map(([name, value]): [string, string] => [name, parameters[name] === undefined ? value : asText(parameters[name]!)]);
  if (request.body === undefined) return { path, query, body: undefined };
  const grounded = groundBody(request.body, { ...state.body, ...state.bodyByKind?.[kind] });
  const schema = deref(bundle, op.operation.requestBody).value?.content?.['application/json']?.schema;
  const body = schema !== undefined && createOracle(bundle)(schema, grounded) ? grounded : request.body;
  return { path, query, body };
}
