// Every operation of the five APIs through the command line, against a
// listening sandbox: one happy path each (exit 0, the answer on stdout). The
// policy scenario is the coordinator's from test/sandbox/policy.test.ts, here
// run as `service-sdk coordinator <operation> --flags`; each test checks at
// the end that it ran every operation of its APIs.
import { describe, expect, it } from 'vitest';
import { table as channelsTable } from '../../generated/cli/channels.js';
import { table as coordinatorTable } from '../../generated/cli/policy-coordinator.js';
import { table as evaluationTable } from '../../generated/cli/policy-evaluation.js';
import { table as reportingTable } from '../../generated/cli/policy-reporting.js';
import { table as streamsTable } from '../../generated/cli/streams.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { cli, cliClient, sandboxEnv, type CliCall, type CliRun } from './support/run-cli.js';

const SEPOLIA = '16015286601757825753';
const BASE_SEPOLIA = '10344971235874465080';
const CALLER = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';
const TRANSFER = 'transfer(address,uint256)';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
const OWNER = '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2';

/** Fails with the command's stderr unless it exited 0; the parsed answer otherwise. */
async function succeeded(operation: string, call: Promise<CliRun>): Promise<any> {
  const run = await call;
  expect([operation, run.code, run.code === 0 ? '' : run.stderr]).toEqual([operation, 0, '']);
  return run.json;
}

/** `<api> <operation>` for every operation of a table, as the CLI client records them. */
function namesOf(api: string, table: { operations: { name: string }[] }): string[] {
  return table.operations.map((operation) => `${api} ${operation.name}`).sort();
}

describe('channels: every operation', () => {
  const live = useListeningSandbox({ pace: 0 });
  it('runs each operation once with exit 0', async () => {
    const ran = new Map<string, number>();
    const env = () => sandboxEnv(live.sandbox, live.listener);
    const c = await cliClient('channels', env, ran);
    const step = (operation: string, call: ReturnType<CliCall>) => succeeded(operation, call);
    const later = (ms = 5_000) => live.sandbox.advance(ms);

    await step('get-health-check', c.GET('/health-check'));
    expect((await step('list-networks', c.GET('/networks'))).data.length).toBeGreaterThan(0);
    const channel = await step('create-channel', c.POST('/channels', { body: { name: 'cli-payouts' } }));
    const channel_id = channel.channel_id;
    await step('list-channels', c.GET('/channels', { params: { query: { limit: 10 } } }));
    await step('get-channel', c.GET('/channels/{channel_id}', { params: { path: { channel_id } } }));
    await step('update-channel', c.PATCH('/channels/{channel_id}', { params: { path: { channel_id } }, body: { name: 'cli-payouts-2' } }));
    const wallet = await step('create-wallet', c.POST('/wallets', { body: { name: 'cli-treasury', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa', status_channel_id: channel_id } }));
    later();
    await step('list-wallets', c.GET('/wallets'));
    expect((await step('get-wallet', c.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }))).status).toBe('deployed');
    await step('update-wallet', c.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } }, body: { name: 'cli-treasury-2' } }));

    const query = await step('create-query', c.POST('/channels/{channel_id}/queries', {
      params: { path: { channel_id } },
      body: { idempotency_key: 'q-1', query_kind: 'evm_call', chain_selector: SEPOLIA, params: { contract_address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', call_data: '0x18160ddd', block_selection: { type: 'latest' } } },
    }));
    later();
    await step('list-queries', c.GET('/channels/{channel_id}/queries', { params: { path: { channel_id } } }));
    expect((await step('get-query', c.GET('/channels/{channel_id}/queries/{query_id}', { params: { path: { channel_id, query_id: query.query_id } } }))).status).toBe('completed');

    const watcher = await step('create-watcher', c.POST('/channels/{channel_id}/watchers', {
      params: { path: { channel_id } },
      body: { name: 'cli-watch', chain_selector: SEPOLIA, address: '0x3E5c63644E683549055b9Be8653de26E0B4CD36E', service: 'dta', events: ['SubscriptionRequested'] },
    }));
    later();
    await step('list-watchers', c.GET('/channels/{channel_id}/watchers', { params: { path: { channel_id } } }));
    await step('get-watcher', c.GET('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: { channel_id, watcher_id: watcher.watcher_id } } }));
    await step('update-watcher', c.PATCH('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: { channel_id, watcher_id: watcher.watcher_id } }, body: { name: 'cli-watch-2' } }));

    const transactions = [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }];
    const draft = await step('create-operation', c.POST('/channels/{channel_id}/operations', {
      params: { path: { channel_id } },
      body: { chain_selector: SEPOLIA, address: wallet.address, wallet_operation_id: '1', deadline: 0, transactions },
    }));
    expect(draft.status).toBe('pending_signature');
    await step('list-operations', c.GET('/channels/{channel_id}/operations', { params: { path: { channel_id } } }));
    await step('get-operation', c.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id, operation_id: draft.operation_id } } }));
    const cancelled = await step('finalize-or-cancel-operation', c.PATCH('/channels/{channel_id}/operations/{operation_id}', {
      params: { path: { channel_id, operation_id: draft.operation_id } },
      body: { status: 'cancelled' },
    }));
    expect(cancelled.status).toBe('cancelled');
    later();
    const events = await step('list-channel-events', c.GET('/channels/{channel_id}/events', { params: { path: { channel_id } } }));
    await step('search-channel-events', c.GET('/channels/{channel_id}/events/search', { params: { path: { channel_id } } }));
    await step('get-channel-event', c.GET('/channels/{channel_id}/events/search/{event_id}', { params: { path: { channel_id, event_id: events.events.find((event: { event_id?: string }) => event.event_id).event_id } } }));

    expect([...ran.keys()].sort()).toEqual(namesOf('channels', channelsTable));
  });
});

describe('coordinator, evaluation and reporting: every operation', () => {
  const live = useListeningSandbox({ pace: 0 });
  it('runs each operation once with exit 0', async () => {
    const ran = new Map<string, number>();
    const env = () => sandboxEnv(live.sandbox, live.listener);
    const c = await cliClient('coordinator', env, ran);
    const evaluation = await cliClient('evaluation', env, ran);
    const reporting = await cliClient('reporting', env, ran);
    // The sandbox scenario's step(operationId, call, expectedStatus): here the exit code says it all.
    const step = (operation: string, call: ReturnType<CliCall>, _status?: number) => succeeded(operation, call);
    const id = <P extends Record<string, string>>(path: P) => ({ params: { path } });
    const later = () => live.sandbox.advance(1_000);
    const nowIso = () => new Date(live.sandbox.clock.now()).toISOString();

    // An evaluation of a call no target protects: it ends ready, and reporting lists its transaction.
    await step('get-health-check', evaluation.GET('/health-check'));
    const requested = await step('request-evaluation', evaluation.POST('/evaluate', {
      body: {
        caller_address: CALLER,
        subject: '0x1111111111111111111111111111111111111111',
        function_signature: TRANSFER,
        parameters: { to: TOKEN, amount: '2500' },
        permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
        chain_selector: SEPOLIA,
        unique_evaluation_id: 'cli-every-operation',
      },
    }));
    for (let i = 0; i < 10; i++) later();
    expect((await step('get-evaluation-by-permit-id', evaluation.GET('/evaluate/{permitId}', id({ permitId: requested.permit_id })))).status).toBe('ready');

    await step('getHealthCheck', c.GET('/health-check'));
    await step('getOrganization', c.GET('/organizations/me'));
    await step('listNetworks', c.GET('/networks'));
    await step('getNetwork', c.GET('/networks/{chain_selector}', id({ chain_selector: SEPOLIA })));
    await step('listWallets', c.GET('/wallets'));
    await step('createWallets', c.POST('/wallets', { body: { wallets: [{ owner_address: CALLER, chain_selector: BASE_SEPOLIA }] } }));

    const extractor = await step('createExtractor', c.POST('/extractors', {
      body: { name: 'amounts', supported_function_signatures: [TRANSFER], outputs: [{ name: 'amount', type: 'uint256' }], onchain_extractors: [{ chain_selector: SEPOLIA, address: TOKEN }] },
    }));
    await step('listExtractors', c.GET('/extractors', { params: { query: { function_signature: TRANSFER } } }));
    await step('getExtractor', c.GET('/extractors/{extractor_id}', id({ extractor_id: extractor.id })));
    await step('replaceExtractor', c.PUT('/extractors/{extractor_id}', { ...id({ extractor_id: extractor.id }), body: { name: 'amounts v2', supported_function_signatures: [TRANSFER], outputs: [{ name: 'amount', type: 'uint256' }] } }));
    const contractType = await step('createContractType', c.POST('/contract-types', {
      body: {
        name: 'Token',
        contract_type_functions: { function_abis: [{ type: 'function', name: 'transfer', inputs: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [], state_mutability: 'nonpayable' }] },
        extractor_ids: [extractor.id],
      },
    }));
    expect(contractType.contract_type_functions[0].function_signature).toBe(TRANSFER);
    await step('listContractTypes', c.GET('/contract-types'));
    await step('getContractType', c.GET('/contract-types/{contract_type_id}', id({ contract_type_id: contractType.id })));

    const engineBody = { name: 'engine', extractor_ids: [extractor.id], contract_type_ids: [contractType.id], onchain_policy_engines: [{ chain_selector: SEPOLIA }, { chain_selector: BASE_SEPOLIA }] };
    const engine = await step('createPolicyEngine', c.POST('/policy-engines', { body: engineBody }));
    await step('listPolicyEngines', c.GET('/policy-engines'));
    await step('getPolicyEngine', c.GET('/policy-engines/{policy_engine_id}', id({ policy_engine_id: engine.id })));
    await step('replacePolicyEngine', c.PUT('/policy-engines/{policy_engine_id}', { ...id({ policy_engine_id: engine.id }), body: { ...engineBody, description: 'renamed' } }));
    later();

    const implementation = await step('createPolicyImplementation', c.POST('/policy-implementations', {
      body: { name: 'Custom', description: 'custom', policy_config_schema: { type: 'object', policy_run_parameters: [{ name: 'to', type: 'address' }] } },
    }));
    await step('listPolicyImplementations', c.GET('/policy-implementations', { params: { query: { policy_kind: 'all' } } }));
    await step('getPolicyImplementation', c.GET('/policy-implementations/{policy_implementation_id}', id({ policy_implementation_id: SANDBOX_POLICY_IDS.walletRiskScoringImplementation })));
    await step('replacePolicyImplementation', c.PUT('/policy-implementations/{policy_implementation_id}', { ...id({ policy_implementation_id: implementation.id }), body: { name: 'Custom 2', description: 'custom', onchain_policy_implementations: [] } }));

    const target = await step('createTarget', c.POST('/targets', { body: { title: 'token', policy_engine_id: engine.id, desired_default_allow: true, protected_methods: [TRANSFER], onchain_targets: [{ chain_selector: SEPOLIA, address: TOKEN }] } }));
    await step('listTargets', c.GET('/targets', { params: { query: { include_granted: true } } }));
    await step('getTarget', c.GET('/targets/{target_id}', id({ target_id: target.id })));
    await step('replaceTarget', c.PUT('/targets/{target_id}', { ...id({ target_id: target.id }), body: { title: 'token', desired_default_allow: false } }));

    const onchainPolicy = await step('createPolicy', c.POST('/policies', {
      body: { policy_kind: 'onchain', name: 'cap', policy_implementation_id: SANDBOX_POLICY_IDS.maxPolicyImplementation, policy_engine_id: engine.id, onchain_policies: [{ chain_selector: SEPOLIA, initial_config: { max: '10' } }] },
    }));
    later();
    await step('listPolicies', c.GET('/policies', { params: { query: { policy_engine_id: engine.id } } }));
    const deployed = await step('getPolicy', c.GET('/policies/{policy_id}', id({ policy_id: onchainPolicy.id })));
    await step('replacePolicy', c.PUT('/policies/{policy_id}', { ...id({ policy_id: onchainPolicy.id }), body: { name: 'cap 2' } }));
    await step('patchPolicyConfigs', c.PATCH('/policies/{policy_id}/configs', {
      ...id({ policy_id: onchainPolicy.id }),
      body: { patches: [{ op: 'add', path: '/note', value: 'raised' }], apply_onchain_policies: [{ chain_selector: SEPOLIA, current_policy_config_version: '1' }] },
    }));
    later();
    await step('replaceOnchainPolicy', c.PUT('/policies/{policy_id}/onchain/{onchain_policy_id}', { ...id({ policy_id: onchainPolicy.id, onchain_policy_id: deployed.onchain_policies[0].id }), body: {} }));

    const protection = await step('createTargetProtection', c.POST('/targets/{target_id}/protections', { ...id({ target_id: target.id }), body: { function_signature: TRANSFER, policy_instance_id: onchainPolicy.id, policy_kind: 'onchain' } }));
    await step('listTargetProtections', c.GET('/targets/{target_id}/protections', id({ target_id: target.id })));
    await step('getTargetProtection', c.GET('/targets/{target_id}/protections/{protection_id}', id({ target_id: target.id, protection_id: protection.id })));
    await step('replaceTargetProtection', c.PUT('/targets/{target_id}/protections/{protection_id}', { ...id({ target_id: target.id, protection_id: protection.id }), body: { onchain_target_protections: [{ chain_selector: SEPOLIA }] } }));
    later();

    const policiesAt = nowIso();
    const riskConfig = { secret_name: 'RISK', addresses_to_check: 'ALL', risk_threshold: 'HIGH', block_unknown: false };
    const offchain = await step('createPolicy', c.POST('/policies', {
      body: { policy_kind: 'offchain', type: 'wallet_risk_scoring', name: 'risk', policy_engine_id: engine.id, onchain_policies: [{ chain_selector: SEPOLIA }], config: riskConfig },
    }));
    later();
    const offchainProtection = await step('createTargetProtection', c.POST('/targets/{target_id}/protections', {
      ...id({ target_id: target.id }),
      body: { function_signature: 'approve(address,uint256)', policy_instance_id: offchain.id, policy_kind: 'offchain' },
    }), 202);
    await step('listPolicyProtections', c.GET('/policies/{policy_id}/protections', id({ policy_id: offchain.id })));
    await step('getPolicyProtection', c.GET('/policies/{policy_id}/protections/{protection_id}', id({ policy_id: offchain.id, protection_id: offchainProtection.id })));
    await step('replacePolicyConfig', c.PUT('/policies/{policy_id}/config', { ...id({ policy_id: offchain.id }), body: { config: { ...riskConfig, risk_threshold: 'MEDIUM' } } }));
    later();
    const grantPath = { policy_id: offchain.id, target_id: target.id };
    await step('createPolicyTargetAccessGrant', c.POST('/policies/{policy_id}/targets/{target_id}/access-grants', { ...id(grantPath), body: { grantee_org_id: 'org_partner' } }));
    await step('listPolicyTargetAccessGrants', c.GET('/policies/{policy_id}/targets/{target_id}/access-grants', id(grantPath)));
    await step('revokePolicyTargetAccessGrant', c.PATCH('/policies/{policy_id}/targets/{target_id}/access-grants/{grantee_org_id}', { ...id({ ...grantPath, grantee_org_id: 'org_partner' }), body: { status: 'revoked' } }));
    await step('deletePolicyProtection', c.DELETE('/policies/{policy_id}/protections/{protection_id}', id({ policy_id: offchain.id, protection_id: offchainProtection.id })));
    await step('archiveTargetProtection', c.PATCH('/targets/{target_id}/protections/{protection_id}', { ...id({ target_id: target.id, protection_id: protection.id }), body: { status: 'archived' } }));
    later();
    await step('archivePolicy', c.PATCH('/policies/{policy_id}', { ...id({ policy_id: onchainPolicy.id }), body: { status: 'archived', policy_kind: 'onchain' } }));
    await step('archivePolicy', c.PATCH('/policies/{policy_id}', { ...id({ policy_id: offchain.id }), body: { status: 'archived', policy_kind: 'offchain' } }));
    later();

    const source = await step('createTarget', c.POST('/targets', { body: { title: 'bridge', policy_engine_id: engine.id, desired_default_allow: true, onchain_targets: [{ chain_selector: BASE_SEPOLIA, address: TOKEN }] } }));
    const merged = await step('mergeTargets', c.POST('/targets/{target_id}/merge', { ...id({ target_id: target.id }), body: { source_target_ids: [source.id] } }));
    expect(merged.chain_selectors).toEqual([SEPOLIA, BASE_SEPOLIA]);
    await step('archiveTarget', c.PATCH('/targets/{target_id}', { ...id({ target_id: target.id }), body: { status: 'archived' } }));
    await step('archivePolicyImplementation', c.PATCH('/policy-implementations/{policy_implementation_id}', { ...id({ policy_implementation_id: implementation.id }), body: { status: 'archived' } }));
    await step('archiveContractType', c.PATCH('/contract-types/{contract_type_id}', { ...id({ contract_type_id: contractType.id }), body: { status: 'archived' } }));
    await step('archiveExtractor', c.PATCH('/extractors/{extractor_id}', { ...id({ extractor_id: extractor.id }), body: { status: 'archived' } }));
    await step('archivePolicyEngine', c.PATCH('/policy-engines/{policy_engine_id}', { ...id({ policy_engine_id: engine.id }), body: { status: 'archived' } }));

    const contracts = { identity_registries: [{ name: 'ids', description: '', chain_selector: SEPOLIA }], credential_registries: [{ name: 'creds', description: '', chain_selector: SEPOLIA }] };
    const registry = await step('createRegistry', c.POST('/registries', { body: { name: 'registry', description: 'people', ...contracts } }));
    await step('listRegistries', c.GET('/registries', { params: { query: { type: 'identity' } } }));
    await step('getRegistry', c.GET('/registries/{registry_id}', id({ registry_id: registry.id })));
    await step('replaceRegistry', c.PUT('/registries/{registry_id}', { ...id({ registry_id: registry.id }), body: { name: 'registry 2', description: 'people', ...contracts } }));
    later();
    await step('createRegistryAccessGrant', c.POST('/registries/{registry_id}/access-grants', { ...id({ registry_id: registry.id }), body: { grantee_org_id: 'org_partner' } }));
    await step('listRegistryAccessGrants', c.GET('/registries/{registry_id}/access-grants', id({ registry_id: registry.id })));
    await step('revokeRegistryAccessGrant', c.PATCH('/registries/{registry_id}/access-grants/{grantee_org_id}', { ...id({ registry_id: registry.id, grantee_org_id: 'org_partner' }), body: { status: 'revoked' } }));

    const kyc = await step('createCredentialType', c.POST('/credential-types', { body: { registry_id: registry.id, title: 'KYC', credential_type: 'common.KYC', data_schema_id: SANDBOX_POLICY_IDS.kycDataSchema } }));
    const accredited = await step('createCredentialType', c.POST('/credential-types', { body: { registry_id: registry.id, title: 'Accredited', credential_type: 'common.ACCREDITED' } }));
    await step('listCredentialTypes', c.GET('/credential-types', { params: { query: { registry_id: registry.id } } }));
    await step('getCredentialType', c.GET('/credential-types/{credential_type_id}', id({ credential_type_id: kyc.id })));
    await step('replaceCredentialType', c.PUT('/credential-types/{credential_type_id}', { ...id({ credential_type_id: kyc.id }), body: { title: 'KYC passed' } }));

    const person = { title: 'Alice', entity_id: 'c-1', registry_id: registry.id, onchain_identities: [{ chain_selector: SEPOLIA, address: CALLER }] };
    const identity = await step('createIdentity', c.POST('/identities', { body: { ...person, credentials: [{ credential_type_id: kyc.id, credential_data: { country: 'FR' } }] } }));
    const batch = await step('createIdentitiesBatch', c.POST('/identities/batch', { body: { identities: [{ ...person, title: 'Bob', entity_id: 'c-2', onchain_identities: [{ chain_selector: SEPOLIA, address: TOKEN }] }] } }));
    await step('listIdentities', c.GET('/identities', { params: { query: { query: 'ali' } } }));
    await step('getIdentity', c.GET('/identities/{identity_id}', id({ identity_id: identity.id })));
    await step('replaceIdentity', c.PUT('/identities/{identity_id}', { ...id({ identity_id: identity.id }), body: { title: 'Alice B.', onchain_identities: person.onchain_identities } }));
    later();
    // Identities as of now, before the scenario archives them.
    const identitiesAt = nowIso();
    const credential = await step('createCredential', c.POST('/credentials', { body: { credential_type_id: accredited.id, identity_id: identity.id, expires_at: 2_000_000_000 } }));
    await step('listCredentials', c.GET('/credentials', { params: { query: { identity_id: identity.id } } }));
    await step('getCredential', c.GET('/credentials/{credential_id}', id({ credential_id: credential.id })));
    await step('replaceCredential', c.PUT('/credentials/{credential_id}', { ...id({ credential_id: credential.id }), body: { external_unique_id: 'check-7', expires_at: 2_100_000_000 } }));
    await step('updateCredential', c.PATCH('/credentials/{credential_id}', { ...id({ credential_id: credential.id }), body: { status: 'archived' } }));
    await step('updateCredentialType', c.PATCH('/credential-types/{credential_type_id}', { ...id({ credential_type_id: accredited.id }), body: { title: 'Accredited investor' } }));
    await step('updateIdentity', c.PATCH('/identities/{identity_id}', { ...id({ identity_id: identity.id }), body: { status: 'archived' } }));
    await step('updateIdentity', c.PATCH('/identities/{identity_id}', { ...id({ identity_id: batch.results[0].identity.id }), body: { status: 'archived' } }));
    later();
    // Reporting, as of the moment the onchain policy and the target were live, and of now for identities.
    const rep = reporting;
    const rstep = (operation: string, call: ReturnType<CliCall>) => step(operation, call);
    await rstep('get-health', rep.GET('/health'));
    const listedPolicies = await rstep('list-policies', rep.GET('/policies', { params: { query: { as_of: policiesAt } } }));
    const livePolicy = listedPolicies.policies[0];
    await rstep('get-policy', rep.GET('/policies/{chain_selector}/{address}', { params: { path: { chain_selector: livePolicy.chain_selector, address: livePolicy.address }, query: { as_of: policiesAt } } }));
    await rstep('get-policy-version', rep.GET('/policies/{chain_selector}/{address}/versions/{version}', { params: { path: { chain_selector: livePolicy.chain_selector, address: livePolicy.address, version: 'latest' } } }));
    const listedTargets = await rstep('list-targets', rep.GET('/targets', { params: { query: { as_of: policiesAt } } }));
    const liveTarget = listedTargets.targets[0];
    await rstep('get-target', rep.GET('/targets/{chain_selector}/{address}', { params: { path: { chain_selector: liveTarget.chain_selector, address: liveTarget.address }, query: { as_of: policiesAt } } }));
    const listedIdentities = await rstep('list-identities', rep.GET('/identities', { params: { query: { as_of: identitiesAt } } }));
    await rstep('get-identity-by-ccid', rep.GET('/identities/{ccid}', { params: { path: { ccid: listedIdentities.identities[0].ccid }, query: { as_of: identitiesAt } } }));
    const transactions = await rstep('list-transactions', rep.GET('/transactions'));
    await rstep('get-transaction', rep.GET('/transactions/{chain_selector}/{tx_hash}', { params: { path: { chain_selector: SEPOLIA, tx_hash: transactions.transactions[0].tx_hash } } }));
    await rstep('list-permits', rep.GET('/permits'));
    const registryContracts = await step('get-registry', c.GET('/registries/{registry_id}', id({ registry_id: registry.id })));
    const identityRegistry = registryContracts.identity_registries?.[0] ?? registryContracts.onchain_identity_registries?.[0];
    await rstep('list-registry-usage-events', rep.GET('/registry-usage/events', { params: { query: { registry_type: 'identity', chain_selector: SEPOLIA, registry_address: identityRegistry?.address ?? TOKEN } } }));
    await step('archiveRegistry', c.PATCH('/registries/{registry_id}', { ...id({ registry_id: registry.id }), body: { status: 'archived' } }));

    const validator = await step('createDataValidator', c.POST('/data-validators', {
      body: { name: 'countries', data_validator_implementation_id: SANDBOX_POLICY_IDS.allowDenyDataValidatorImplementation, onchain_data_validators: [{ chain_selector: SEPOLIA, initial_config: { allowlist: [] } }] },
    }));
    await step('listDataValidators', c.GET('/data-validators', { params: { query: { name: 'COUNTR' } } }));
    later();
    await step('getDataValidator', c.GET('/data-validators/{data_validator_id}', id({ data_validator_id: validator.id })));
    await step('replaceDataValidator', c.PUT('/data-validators/{data_validator_id}', { ...id({ data_validator_id: validator.id }), body: { description: 'allowed countries' } }));
    await step('patchDataValidatorConfigs', c.PATCH('/data-validators/{data_validator_id}/configs', {
      ...id({ data_validator_id: validator.id }),
      body: { patches: [{ op: 'add', path: '/allowlist/-', value: { item: 'US' } }], on_chains: [{ chain_selector: SEPOLIA, current_config_version: '1' }] },
    }));
    later();
    await step('archiveDataValidator', c.PATCH('/data-validators/{data_validator_id}', { ...id({ data_validator_id: validator.id }), body: { status: 'archived' } }));

    expect([...ran.keys()].sort()).toEqual([...namesOf('coordinator', coordinatorTable), ...namesOf('evaluation', evaluationTable), ...namesOf('reporting', reportingTable)].sort());
  });
});

describe('streams: every operation', () => {
  const live = useListeningSandbox();
  it('runs each operation once with exit 0', async () => {
    const ran = new Map<string, number>();
    const env = () => sandboxEnv(live.sandbox, live.listener);
    const s = await cliClient('streams', env, ran);
    const step = (operation: string, call: ReturnType<CliCall>) => succeeded(operation, call);
    const now = Math.floor(Date.now() / 1000) - 5;

    expect((await step('get-latest-report', s.GET('/api/v1/reports/latest', { params: { query: { feedID: ETH_USD } } }))).report.feedID).toBe(ETH_USD);
    await step('get-report-at-timestamp', s.GET('/api/v1/reports', { params: { query: { feedID: ETH_USD, timestamp: now } } }));
    const bulk = await step('get-bulk-reports', s.GET('/api/v1/reports/bulk', { params: { query: { feedIDs: [ETH_USD, BTC_USD], timestamp: now } } }));
    expect(bulk.reports.map((report: { feedID: string }) => report.feedID).sort()).toEqual([ETH_USD, BTC_USD].sort());
    expect((await step('get-reports-page', s.GET('/api/v1/reports/page', { params: { query: { feedID: ETH_USD, startTimestamp: now - 3, limit: 2 } } }))).reports).toHaveLength(2);
    expect((await step('list-streams', s.GET('/api/v1/discovery'))).feeds.length).toBeGreaterThan(0);
    const origins = await step('get-stream-origins', s.HEAD('/'));
    expect(origins['x-cll-available-origins']).toBeDefined();
    // The WebSocket operation is the live stream: one decoded report, then the stream closes.
    const watched = await cli(['streams', 'stream-reports', `--feed-ids=${ETH_USD}`, '--count', '1'], { env: env() });
    expect([watched.code, watched.stderr]).toEqual([0, expect.stringContaining('connected')]);
    expect(JSON.parse(watched.stdout)).toMatchObject({ feedID: ETH_USD, version: 'V3', price: expect.stringMatching(/^\d+(\.\d+)?$/) });
    ran.set('streams stream-reports', watched.code);

    expect([...ran.keys()].sort()).toEqual(namesOf('streams', streamsTable));
  });
});
