/**
 * The policy sandbox's starting state: the organisation, the networks the
 * coordinator supports, a deployed policy engine to build on (beside the
 * platform's `system` engine), a library of policy implementations, a
 * built-in ERC-20 contract type, a wallet, a data schema and a data validator
 * implementation. Fixed identifiers, so tests and examples can name them.
 */
import { engineAddress, implementationAddress, walletAddress } from './addresses.js';
import { contractTypeFunction } from './engines.js';
import { runParameters } from './implementations.js';
import type { Network, Organization, PolicyImplementation } from './model.js';
import type { PolicyState, PolicyWorld } from './state.js';

export const SANDBOX_ORGANIZATION_ID = 'org_sandbox';
export const SEPOLIA = '16015286601757825753';
export const BASE_SEPOLIA = '10344971235874465080';

/** Identifiers of the seeded resources. */
export const SANDBOX_POLICY_IDS = {
  policyEngine: '5b0c3f0e-2a4d-4c61-9b1e-6f2d8a7c4e10',
  systemPolicyEngine: '5b0c3f0e-2a4d-4c61-9b1e-6f2d8a7c4e11',
  erc20ContractType: '7d3e1a52-0c8b-4f5e-a2d9-1b4c6e8f0a20',
  maxPolicyImplementation: '9a6b2c4d-3e5f-4a7b-8c9d-0e1f2a3b4c30',
  pausePolicyImplementation: '9a6b2c4d-3e5f-4a7b-8c9d-0e1f2a3b4c31',
  allowListPolicyImplementation: '9a6b2c4d-3e5f-4a7b-8c9d-0e1f2a3b4c32',
  identityValidatorPolicyImplementation: '9a6b2c4d-3e5f-4a7b-8c9d-0e1f2a3b4c33',
  walletRiskScoringImplementation: '9a6b2c4d-3e5f-4a7b-8c9d-0e1f2a3b4c34',
  wallet: '2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d40',
  kycDataSchema: '4e6a8c0b-2d4f-4a6c-8e0b-1a3c5e7a9b50',
  allowDenyDataValidatorImplementation: '6f8b0d2c-3e5a-4b7c-9d1e-2b4d6f8a0c60',
} as const;

const NETWORKS: readonly (Omit<Network, 'id' | 'created_at' | 'updated_at'> & { id: string })[] = [
  { id: '1f0e2d3c-4b5a-4968-8776-a5b4c3d2e101', name: 'Ethereum Mainnet', chain_id: '1', chain_selector: '5009297550715157269', chain_family: 'evm', is_testnet: false },
  { id: '1f0e2d3c-4b5a-4968-8776-a5b4c3d2e102', name: 'Base Mainnet', chain_id: '8453', chain_selector: '15971525489660198786', chain_family: 'evm', is_testnet: false },
  { id: '1f0e2d3c-4b5a-4968-8776-a5b4c3d2e103', name: 'Ethereum Sepolia', chain_id: '11155111', chain_selector: SEPOLIA, chain_family: 'evm', is_testnet: true },
  { id: '1f0e2d3c-4b5a-4968-8776-a5b4c3d2e104', name: 'Base Sepolia', chain_id: '84532', chain_selector: BASE_SEPOLIA, chain_family: 'evm', is_testnet: true },
  { id: '1f0e2d3c-4b5a-4968-8776-a5b4c3d2e105', name: 'Arbitrum Sepolia', chain_id: '421614', chain_selector: '3478487238524512106', chain_family: 'evm', is_testnet: true },
  { id: '1f0e2d3c-4b5a-4968-8776-a5b4c3d2e106', name: 'Avalanche Fuji', chain_id: '43113', chain_selector: '14767482510784806043', chain_family: 'evm', is_testnet: true },
];

/** Library policies: name, type, what they check, configuration schema. */
const LIBRARY: readonly { id: string; name: string; type: NonNullable<PolicyImplementation['type']>; description: string; schema: Record<string, unknown> }[] = [
  {
    id: SANDBOX_POLICY_IDS.maxPolicyImplementation,
    name: 'MaxPolicy',
    type: 'max',
    description: 'Rejects calls whose amount exceeds a configured maximum.',
    schema: {
      properties: { max: { type: 'string', description: 'Largest amount allowed, in base units (a decimal string).' } },
      policy_run_parameters: [{ name: 'amount', type: 'uint256' }],
      initial_configs: ['max'],
    },
  },
  {
    id: SANDBOX_POLICY_IDS.pausePolicyImplementation,
    name: 'PausePolicy',
    type: 'pause',
    description: 'Rejects every call while paused.',
    schema: { properties: { paused: { type: 'boolean', description: 'Whether calls are refused.' } }, policy_run_parameters: [], initial_configs: [] },
  },
  {
    id: SANDBOX_POLICY_IDS.allowListPolicyImplementation,
    name: 'AllowPolicy',
    type: 'allow',
    description: 'Lets only listed accounts call the protected function.',
    schema: {
      properties: { allowed: { type: 'array', items: { type: 'string' }, description: 'Accounts allowed to call.' } },
      policy_run_parameters: [{ name: 'account', type: 'address' }],
      initial_configs: [],
    },
  },
  {
    id: SANDBOX_POLICY_IDS.identityValidatorPolicyImplementation,
    name: 'IdentityValidatorPolicy',
    type: 'identity_validator',
    description: 'Lets an account call only when its identity holds an accepted credential in a configured registry.',
    schema: {
      properties: {
        credential_sources: {
          type: 'array',
          description: 'Where credentials are looked up: identity_registry, credential_registry and, optionally, credential_type_id (a bytes32).',
        },
      },
      policy_run_parameters: [{ name: 'account', type: 'address' }],
      initial_configs: ['credential_sources'],
    },
  },
];

function seedNetworks(state: PolicyState, now: number): void {
  for (const network of NETWORKS) state.networks.set(network.chain_selector, { ...network, created_at: now, updated_at: now });
}

function seedEngines(state: PolicyState, now: number): void {
  const chains = [SEPOLIA, BASE_SEPOLIA];
  const engine = (id: string, name: string, type: 'standard' | 'system') => ({
    id,
    name,
    description: type === 'system' ? 'Protects the organisation’s registries.' : 'A policy engine ready to protect targets on the test networks.',
    type,
    onchain_policy_engines: chains.map((chain, index) => ({ id: `${id.slice(0, -2)}${index}f`, address: engineAddress(id, chain), chain_selector: chain, status: 'created' as const })),
    chain_selectors: chains,
    extractor_registrations: [],
    contract_types: [],
    archived_at: null,
    created_at: now,
    updated_at: now,
  });
  state.engines.set(SANDBOX_POLICY_IDS.policyEngine, engine(SANDBOX_POLICY_IDS.policyEngine, 'Sandbox policy engine', 'standard'));
  state.engines.set(SANDBOX_POLICY_IDS.systemPolicyEngine, engine(SANDBOX_POLICY_IDS.systemPolicyEngine, 'system', 'system'));
}

function seedLibrary(world: PolicyWorld, now: number): void {
  const { state } = world;
  const chains = [SEPOLIA, BASE_SEPOLIA];
  for (const entry of LIBRARY) {
    state.implementations.set(entry.id, {
      policy_kind: 'onchain',
      id: entry.id,
      name: entry.name,
      description: entry.description,
      type: entry.type,
      policy_config_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, ...entry.schema },
      onchain_policy_implementations: chains.map((chain) => ({ chain_selector: chain, address: implementationAddress(entry.name, chain) })),
      chain_selectors: chains,
      parameters: runParameters(world, entry.schema),
      archived_at: null,
      created_at: now,
      updated_at: now,
    });
  }
  const iso = new Date(now * 1000).toISOString();
  state.implementations.set(SANDBOX_POLICY_IDS.walletRiskScoringImplementation, {
    policy_kind: 'offchain',
    id: SANDBOX_POLICY_IDS.walletRiskScoringImplementation,
    name: 'Wallet risk scoring',
    type: 'wallet_risk_scoring',
    config: {
      provider: 'sandbox-risk',
      provider_url: 'https://risk.sandbox.invalid',
      config_schema: { type: 'object', required: ['secret_name', 'addresses_to_check', 'risk_threshold', 'block_unknown'] },
    },
    created_at: iso,
    updated_at: iso,
  });
}

function seedContractTypes(world: PolicyWorld, now: number): void {
  const address = (name: string) => ({ name, type: 'address', internal_type: 'address' });
  const amount = (name: string) => ({ name, type: 'uint256', internal_type: 'uint256' });
  const write = (name: string, inputs: { name: string; type: string }[]) => ({ type: 'function', name, inputs, outputs: [{ name: '', type: 'bool' }], state_mutability: 'nonpayable' as const });
  world.state.contractTypes.set(SANDBOX_POLICY_IDS.erc20ContractType, {
    id: SANDBOX_POLICY_IDS.erc20ContractType,
    name: 'ERC-20',
    description: 'The ERC-20 token standard.',
    contract_type_functions: [
      write('transfer', [address('to'), amount('amount')]),
      write('transferFrom', [address('from'), address('to'), amount('amount')]),
      write('approve', [address('spender'), amount('amount')]),
      { type: 'function', name: 'balanceOf', inputs: [address('account')], outputs: [amount('')], state_mutability: 'view' as const },
    ].map((abi) => contractTypeFunction(world, abi)),
    archived_at: null,
    created_at: now,
    updated_at: now,
  });
}

/** The organisation the sandbox's policy API key belongs to: delegated signing, testnets only. */
export function sandboxOrganization(nowSeconds: number): Organization {
  return {
    id: SANDBOX_ORGANIZATION_ID,
    crec_channel_id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d70',
    crec_channel_offset: 0,
    signing_mode: 'delegated',
    mainnet_allowed: false,
    archived_at: null,
    created_at: nowSeconds,
    updated_at: nowSeconds,
  };
}

/** Fills an empty state with the seed. */
export function seedState(world: PolicyWorld): void {
  const { state } = world;
  const now = world.nowSeconds();
  state.organization = sandboxOrganization(now);
  seedNetworks(state, now);
  seedEngines(state, now);
  seedLibrary(world, now);
  seedContractTypes(world, now);
  state.wallets.set(SANDBOX_POLICY_IDS.wallet, {
    id: SANDBOX_POLICY_IDS.wallet,
    org_id: SANDBOX_ORGANIZATION_ID,
    chain_selector: SEPOLIA,
    owner_address: '0x4b20993bc481177ec7e8f571cecae8a9e22c02db',
    wallet_address: walletAddress(SANDBOX_POLICY_IDS.wallet, SEPOLIA),
    status: 'created',
    created_at: now,
    updated_at: now,
  });
  state.dataSchemas.set(SANDBOX_POLICY_IDS.kycDataSchema, {
    id: SANDBOX_POLICY_IDS.kycDataSchema,
    name: 'kyc-basic',
    description: 'Country of residence and the date the check passed.',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['country'],
      properties: { country: { type: 'string' }, checked_on: { type: 'string' } },
    },
  });
  state.dataValidatorImplementations.add(SANDBOX_POLICY_IDS.allowDenyDataValidatorImplementation);
}
