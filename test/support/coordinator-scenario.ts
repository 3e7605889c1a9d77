// The coordinator scenario: every operation of the policy coordinator API once,
// in an order that lets each one succeed (create, read, replace, archive),
// with the sandbox clock moved on where the sandbox deploys asynchronously.
// test/sandbox/policy.test.ts runs it through the SDK's client and
// test/cli/operations.test.ts through the command line; each caller's `step`
// checks the answer and records the operation, and each test then checks that
// every coordinator operation ran.
import { expect } from 'vitest';
import type { operations as coordinatorOperations } from '../../generated/operations/policy-coordinator.js';
import type { PolicyClient } from '../../src/policy/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';

export const SEPOLIA = '16015286601757825753';
export const BASE_SEPOLIA = '10344971235874465080';
export const CALLER = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
export const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';
export const TRANSFER = 'transfer(address,uint256)';

export type CoordinatorOperationId = keyof typeof coordinatorOperations;

/** What the scenario has made, while it is all still live. */
export interface CoordinatorScenarioState {
  /** The registry, its identities and credentials archived but not the registry itself. */
  registry: any;
  /** A moment the onchain policy and the first target were live (ISO 8601). */
  policiesAt: string;
  /** A moment the two identities were live (ISO 8601). */
  identitiesAt: string;
}

export interface CoordinatorScenario {
  /**
   * The coordinator client the calls go through. Typed as the SDK's so that
   * every path and body here is checked against the spec; the command line's
   * client-shaped front (test/cli/support/run-cli.ts) takes the same calls.
   */
  coordinator: PolicyClient['coordinator'];
  /** Awaits one call, checks it succeeded (with `expectedStatus` where given) and records it; the answer's data. */
  step: (operationId: CoordinatorOperationId, call: Promise<unknown>, expectedStatus?: number) => Promise<any>;
  /** The sandbox the client talks to: its clock is moved on a second at a time. */
  sandbox: Pick<Sandbox, 'advance' | 'clock'>;
  /** Runs before the registry is archived (the command line's reporting steps read what is live). */
  beforeRegistryArchived?: (state: CoordinatorScenarioState) => Promise<void>;
}

/** Runs every coordinator operation once, through `step`, in an order each one succeeds in. */
export async function runCoordinatorScenario({ coordinator: c, step, sandbox, beforeRegistryArchived }: CoordinatorScenario): Promise<void> {
  const id = <P extends Record<string, string>>(path: P) => ({ params: { path } });
  const later = () => sandbox.advance(1_000);
  const nowIso = () => new Date(sandbox.clock.now()).toISOString();

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
  await beforeRegistryArchived?.({ registry, policiesAt, identitiesAt });
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
}
