/**
 * What a `ready` evaluation leads to onchain: the permit stored by the
 * offchain policy's validator (a `PermitStored` event), then the protected
 * call itself, which the sandbox plays for the caller a moment later so the
 * reporting API has the transaction, its policy run and any registry use to
 * show. The run lists the policies protecting the function on that chain as
 * the reporting index has them, followed by the validator that checked the
 * permit.
 */
import { engineAddress, validatorAddress } from './addresses.js';
import { blockFields, isoTime, type BlockRef } from './chain.js';
import { addressOf, selectorOf } from './hex.js';
import { isOffchainPolicy, type OffchainPolicy, type RegistryUsageEvent, type ReportingPolicyRunPolicy, type ReportingTransaction } from './model.js';
import { liveOffchainPolicy } from './policy-common.js';
import { isArchived } from './resources.js';
import type { EvaluationRecord, PolicyWorld } from './state.js';

const lower = (address: string) => address.toLowerCase();

/** The validator that stores permits on `chain`: the live offchain policy's, else the sandbox's own. */
export function permitValidator(world: PolicyWorld, chain: string): { address: string; policy: OffchainPolicy | undefined } {
  const policy = liveOffchainPolicy(world);
  if (policy?.deployment_status === 'active' && policy.chain_selectors?.includes(chain)) return { address: validatorAddress(policy.id, chain), policy };
  return { address: addressOf('sandbox-permit-validator', world.state.organization.id, chain), policy: undefined };
}

/** Records the `PermitStored` event of a ready evaluation. */
export function storePermit(world: PolicyWorld, evaluation: EvaluationRecord): string {
  const chain = evaluation.request.chain_selector;
  const { address } = permitValidator(world, chain);
  const block = world.state.chains.write(chain, world.now(), `permit ${evaluation.permitId}`);
  world.state.index.permits.push({
    permit_id: evaluation.permitId,
    policy_address: address,
    chain_selector: chain,
    ...blockFields(block),
    block_timestamp: isoTime(block.time),
    log_index: block.logIndex,
  });
  return address;
}

interface CredentialSource {
  identity_registry: string;
  credential_registry: string;
  credential_type_id?: string | null;
}

/** The credential sources of an identity validator's configuration (`credential_sources`), as far as they are well formed. */
function credentialSourcesOf(state: Record<string, unknown>): CredentialSource[] | null {
  if (!Array.isArray(state.credential_sources)) return null;
  const address = /^0x[0-9a-fA-F]{40}$/;
  return state.credential_sources.flatMap((entry: unknown) => {
    const source = entry as Partial<CredentialSource>;
    if (typeof source.identity_registry !== 'string' || typeof source.credential_registry !== 'string') return [];
    if (!address.test(source.identity_registry) || !address.test(source.credential_registry)) return [];
    const type = typeof source.credential_type_id === 'string' && /^0x[0-9a-fA-F]{64}$/.test(source.credential_type_id) ? source.credential_type_id : null;
    return [{ identity_registry: source.identity_registry, credential_registry: source.credential_registry, credential_type_id: type }];
  });
}

/** Plays the protected call of a ready evaluation and indexes it as a policy-checked transaction. */
export function playProtectedCall(world: PolicyWorld, evaluation: EvaluationRecord, permitValidatorAddress: string): void {
  const { state } = world;
  const { request } = evaluation;
  const chain = request.chain_selector;
  const selector = selectorOf(request.function_signature);
  const target = [...state.targets.values()].find(
    (candidate) => !isArchived(candidate) && candidate.onchain_targets?.some((onchain) => onchain.chain_selector === chain && lower(onchain.address) === lower(request.subject)),
  );
  const offchain = [...state.policies.values()].find((policy): policy is OffchainPolicy => isOffchainPolicy(policy) && validatorAddress(policy.id, chain) === permitValidatorAddress);
  const engineId = target?.policy_engine_id ?? offchain?.policy_engine_id;
  const engine = engineId === undefined ? addressOf('sandbox-engine', state.organization.id, chain) : engineAddress(engineId, chain);
  const attachmentKey = `${chain}:${lower(request.subject)}:${lower(engine)}`;
  const attachment = state.index.attachments.current(attachmentKey)?.value;
  const method = state.index.methods.current(`${attachmentKey}:${selector}`)?.value;

  const block = state.chains.write(chain, world.now(), `call ${evaluation.permitId}`);
  const policies: ReportingPolicyRunPolicy[] = (method?.policies ?? []).flatMap((entry) => {
    const version = state.index.policies.current(`${chain}:${lower(entry.address)}`);
    if (version === undefined) return [];
    return [{ address: entry.address, version: version.number, name: version.value.name, mapper_address: null, policy_state: version.value.state, credential_sources: credentialSourcesOf(version.value.state) }];
  });
  const validatorVersion = state.index.policies.current(`${chain}:${lower(permitValidatorAddress)}`);
  policies.push({
    address: permitValidatorAddress,
    version: validatorVersion?.number ?? null,
    name: validatorVersion?.value.name ?? 'Sandbox permit validator',
    mapper_address: null,
    policy_state: validatorVersion?.value.state ?? null,
    credential_sources: null,
  });
  const words = (request.permit_parameters ?? []).map((word) => word.slice(2)).join('');
  const gasUsed = 60_000 + 15_000 * policies.length;
  const transaction: ReportingTransaction = {
    chain_selector: chain,
    tx_hash: block.txHash,
    block_number: block.blockNumber,
    block_hash: block.blockHash,
    block_timestamp: isoTime(block.time),
    from_address: request.caller_address,
    to_address: request.subject,
    value: '0',
    data: `${selector}${words}`,
    gas_used: gasUsed,
    gas_limit: 300_000,
    gas_price: null,
    gas_fee_cap: '30000000000',
    gas_tip_cap: '1500000000',
    effective_gas_price: '12000000000',
    cumulative_gas_used: gasUsed,
    tx_type: 2,
    revert_reason: null,
    l1_gas_used: null,
    l1_fee: null,
    policy_runs: [
      {
        on_chain: {
          target_contract_address: request.subject,
          engine_address: engine,
          method: { selector },
          policies,
          params: structuredClone(request.parameters),
          context: null,
          engine_default_behavior: attachment?.engineDefault ?? 'DENY',
          target_default_behavior: attachment?.targetDefault ?? null,
          extractor_address: method?.extractor?.address ?? null,
          log_index: block.logIndex,
        },
      },
    ],
  };
  state.index.transactions.push(transaction);
  indexRegistryUsage(world, transaction, policies, block);
}

/** The uses of the organisation's registries by the run: each identity validator source that knows the caller. */
function indexRegistryUsage(world: PolicyWorld, transaction: ReportingTransaction, policies: readonly ReportingPolicyRunPolicy[], block: BlockRef): void {
  const { index } = world.state;
  const run = transaction.policy_runs[0]!.on_chain;
  for (const policy of policies) {
    for (const source of policy.credential_sources ?? []) {
      const registration = index.identityAddresses
        .keys()
        .map((key) => index.identityAddresses.current(key))
        .find((version) => version !== undefined && lower(version.value.registryAddress) === lower(source.identity_registry) && lower(version.value.address) === lower(transaction.from_address));
      if (registration === undefined) continue;
      for (const [type, address] of [['identity', source.identity_registry], ['credential', source.credential_registry]] as const) {
        if (index.registryContracts.get(`${transaction.chain_selector}:${lower(address)}`)?.type !== type) continue;
        const event: RegistryUsageEvent = {
          registry_type: type,
          registry_address: lower(address),
          chain_selector: transaction.chain_selector,
          ccid: registration.value.ccid,
          ...blockFields(block),
          block_timestamp: isoTime(block.time),
          log_index: run.log_index,
          target_contract_address: run.target_contract_address,
          policy_engine_address: run.engine_address,
          function_selector: run.method.selector,
          matched_policy_address: policy.address,
          matched_identity_registry: source.identity_registry,
          matched_credential_registry: source.credential_registry,
          credential_type_ids: source.credential_type_id == null ? [] : [source.credential_type_id],
        };
        index.usage.push(event);
      }
    }
  }
}
