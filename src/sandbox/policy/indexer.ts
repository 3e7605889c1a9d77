/**
 * What the reporting API indexes: each onchain change the coordinator makes,
 * written as a transaction on its chain and recorded with its time, so
 * `as_of` questions have answers. Called when a change lands onchain (a
 * pending status turns final), never when it is only requested.
 */
import { engineAddress, ownerAddress, policyAddress, validatorAddress } from './addresses.js';
import { selectorOf } from './hex.js';
import type { Credential, Identity, OffchainPolicy, OnchainIdentity, Policy, Target } from './model.js';
import type { PolicyWorld, ProtectedMethodValue } from './state.js';

const now = (world: PolicyWorld) => world.now();
const lower = (address: string) => address.toLowerCase();

/** The configuration a policy holds on one chain. */
export function policyConfigOn(policy: Policy, chain: string): Record<string, unknown> {
  return (policy.onchain_configs.find((config) => config.chain_selectors.includes(chain))?.config_json ?? {}) as Record<string, unknown>;
}

/** A new version of an onchain policy on `chain` (deployed, or its configuration changed). */
export function indexPolicyVersion(world: PolicyWorld, policy: Policy, chain: string): void {
  const address = policyAddress(policy.id, chain);
  const block = world.state.chains.write(chain, now(world), `policy ${policy.id}`);
  world.state.index.policies.put(`${chain}:${lower(address)}`, {
    name: policy.name,
    description: policy.description === '' ? null : policy.description,
    owner: ownerAddress(world.state.organization.id, chain),
    policyEngineAddress: engineAddress(policy.policy_engine_id, chain),
    state: structuredClone(policyConfigOn(policy, chain)),
  }, block);
}

/** An offchain policy's validator contract deployed (or reconfigured) on `chain`. */
export function indexValidatorVersion(world: PolicyWorld, policy: OffchainPolicy, chain: string): void {
  const address = validatorAddress(policy.id, chain);
  const block = world.state.chains.write(chain, now(world), `validator ${policy.id}`);
  const { secret_name: _secret, ...config } = (policy.config ?? {}) as Record<string, unknown>;
  world.state.index.policies.put(`${chain}:${lower(address)}`, {
    name: policy.name,
    description: null,
    owner: ownerAddress(world.state.organization.id, chain),
    policyEngineAddress: engineAddress(policy.policy_engine_id ?? policy.id, chain),
    state: { type: policy.type, ...config },
  }, block);
}

export function endPolicyContract(world: PolicyWorld, address: string, chain: string): void {
  world.state.index.policies.end(`${chain}:${lower(address)}`, now(world));
}

const behaviour = (allow: boolean) => (allow ? 'ALLOW' : 'DENY');

/** A target's contract attached (or its default changed) on one chain. Policy engines deny by default in the sandbox. */
export function indexTargetAttachment(world: PolicyWorld, target: Target, chain: string, address: string): void {
  const key = `${chain}:${lower(address)}:${lower(engineAddress(target.policy_engine_id, chain))}`;
  const targetDefault = behaviour(target.onchain_targets?.find((onchain) => onchain.chain_selector === chain)?.default_allow ?? target.desired_default_allow);
  const current = world.state.index.attachments.current(key);
  if (current?.value.targetDefault === targetDefault) return;
  const block = world.state.chains.write(chain, now(world), `attach ${target.id}`);
  world.state.index.attachments.put(key, { engineDefault: 'DENY', targetDefault }, block);
}

export function indexTargetDetachment(world: PolicyWorld, target: Target, chain: string, address: string): void {
  const key = `${chain}:${lower(address)}:${lower(engineAddress(target.policy_engine_id, chain))}`;
  world.state.index.attachments.end(key, now(world));
  for (const methodKey of world.state.index.methods.keys()) {
    if (methodKey.startsWith(`${key}:`)) world.state.index.methods.end(methodKey, now(world));
  }
}

/** The policies and extractor that protect `signature` of `target` on `chain` now, from the coordinator's state. */
function protectedMethodNow(
  world: PolicyWorld,
  target: Target,
  chain: string,
  signature: string,
): { extractorAddress: string | null; policies: ProtectedMethodValue['policies'] } {
  const { state } = world;
  const protections = [...state.targetProtections.values()]
    .filter((protection) => protection.target_id === target.id && protection.function_signature === signature)
    .flatMap((protection) => {
      const onchain = protection.onchain_target_protections?.find((entry) => entry.chain_selector === chain);
      return onchain?.status === 'created' || onchain?.status === 'removal_pending' || onchain?.status === 'removal_failed'
        ? [{ protection, position: onchain.position ?? 0 }]
        : [];
    })
    .sort((a, b) => a.position - b.position);
  const policies = protections.map(({ protection }) => {
    const outputs = [...state.extractors.values()].flatMap((extractor) => extractor.outputs);
    const parameterNames = protection.extractor_output_ids.flatMap((id) => outputs.find((output) => output.id === id)?.name ?? []);
    return { address: policyAddress(protection.policy_instance_id, chain), parameterNames };
  });
  const engine = state.engines.get(target.policy_engine_id);
  const registered = new Set(engine?.extractor_registrations?.map((registration) => registration.extractor_id) ?? []);
  const extractor = [...state.extractors.values()].find(
    (candidate) => registered.has(candidate.id) && candidate.archived_at == null && candidate.supported_function_signatures.includes(signature),
  );
  const extractorAddress = extractor?.onchain_extractors?.find((onchain) => onchain.chain_selector === chain)?.address;
  return { extractorAddress: extractorAddress ?? null, policies };
}

/** Re-reads the protections of one function of a target on one chain and records a version when they changed. */
export function indexProtectedMethod(world: PolicyWorld, target: Target, chain: string, signature: string): void {
  const address = target.onchain_targets?.find((onchain) => onchain.chain_selector === chain)?.address;
  if (address === undefined) return;
  const key = `${chain}:${lower(address)}:${lower(engineAddress(target.policy_engine_id, chain))}:${selectorOf(signature)}`;
  const { extractorAddress, policies } = protectedMethodNow(world, target, chain, signature);
  const history = world.state.index.methods;
  const current = history.current(key);
  const unchanged =
    current !== undefined &&
    (current.value.extractor?.address ?? null) === extractorAddress &&
    JSON.stringify(current.value.policies) === JSON.stringify(policies);
  if (unchanged) return;
  if (policies.length === 0) {
    history.end(key, now(world));
    return;
  }
  const block = world.state.chains.write(chain, now(world), `protect ${target.id} ${signature}`);
  // An unchanged extractor keeps the block that set it, so its own period survives changes of the policies.
  const keptExtractor = current?.value.extractor?.address === extractorAddress ? current.value.extractor : undefined;
  const extractor = extractorAddress === null ? null : keptExtractor ?? { address: extractorAddress, block };
  history.put(key, { extractor, policies }, block);
}

/** A wallet mapping written to (or removed from) a chain's identity registry. */
export function indexIdentityAddress(world: PolicyWorld, identity: Identity, onchain: OnchainIdentity, registryAddress: string, removed: boolean): void {
  const key = `${identity.ccid}:${onchain.chain_selector}:${lower(registryAddress)}:${lower(onchain.address)}`;
  if (removed) {
    world.state.index.identityAddresses.end(key, now(world));
    return;
  }
  const block = world.state.chains.write(onchain.chain_selector, now(world), `identity ${onchain.id}`);
  world.state.index.identityAddresses.put(key, { ccid: identity.ccid, chainSelector: onchain.chain_selector, registryAddress, address: onchain.address }, block);
}

/** A credential written to (rewritten in, or removed from) a chain's credential registry. */
export function indexCredential(world: PolicyWorld, credential: Credential, ccid: string, typeHash: string, chain: string, registryAddress: string, removed: boolean): void {
  const key = `${ccid}:${typeHash}:${chain}:${lower(registryAddress)}`;
  if (removed) {
    world.state.index.credentials.end(key, now(world));
    return;
  }
  const block = world.state.chains.write(chain, now(world), `credential ${credential.id}`);
  world.state.index.credentials.put(key, {
    ccid,
    credentialTypeHash: typeHash,
    chainSelector: chain,
    registryAddress,
    expiresAt: credential.expires_at ?? null,
    data: credential.credential_data ?? null,
  }, block);
}

/** A registry contract of the organisation deployed or registered on a chain. */
export function indexRegistryContract(world: PolicyWorld, type: 'identity' | 'credential', chain: string, address: string): void {
  const key = `${chain}:${lower(address)}`;
  if (world.state.index.registryContracts.has(key)) return;
  world.state.index.registryContracts.set(key, { type, block: world.state.chains.write(chain, now(world), `${type} registry ${address}`) });
}
