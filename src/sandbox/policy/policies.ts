/**
 * Policies: the coordinator's `/policies` resource, onchain and offchain
 * (offchain-policies.ts has the offchain lifecycle). An onchain policy is
 * deployed on each chain (`creation_pending` → `created`); a configuration
 * patch is written to the chains it names with optimistic concurrency
 * (`update_pending` → `created`, the version one higher), listed in
 * `ongoing_config_changes` meanwhile. A policy that still protects a
 * function cannot be archived (`409`).
 */
import type { OperationHandler } from '../types.js';
import { policyAddress } from './addresses.js';
import { checkChains } from './chains-check.js';
import { configsByChain, groupConfigs, type ConfigGroup } from './config-groups.js';
import { endPolicyContract, indexPolicyVersion } from './indexer.js';
import { applyJsonPatch } from './json-patch.js';
import { isOffchainImplementation, isOffchainPolicy, type AnyPolicy, type Policy, type PolicyImplementation } from './model.js';
import { createOffchainPolicy, undeployOffchainPolicy } from './offchain-policies.js';
import { checkEngine, kindListed, policyIsArchived } from './policy-common.js';
import { queryText, queryBool, queryEnum } from './query.js';
import { badRequest, conflict, notFound } from './refusals.js';
import { bodyOf, type CoordinatorSchema } from './request-body.js';
import { findItem, isArchived, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

/** The protections (onchain, not archived) that name `policyId`. */
const protectionsOf = (world: PolicyWorld, policyId: string) =>
  [...world.state.targetProtections.values()].filter((protection) => protection.policy_instance_id === policyId && !isArchived(protection));

export const policies: ResourceKind<AnyPolicy> = {
  noun: 'policy',
  idParam: 'policy_id',
  listKey: 'policies',
  items: (state) => state.policies,
  onchainFields: ['onchain_policies'],
  matches(policy, query, world) {
    const onchainFilters = {
      targetId: queryText(query, 'target_id'),
      status: queryEnum(query, 'status'),
      activeOnly: queryBool(query, 'only_with_active_protections'),
      targetAddress: queryText(query, 'target_address')?.toLowerCase(),
      engineId: queryText(query, 'policy_engine_id'),
      implementationId: queryText(query, 'policy_implementation_id'),
    };
    const name = queryText(query, 'name');
    if (!kindListed(isOffchainPolicy(policy), query) || (name !== undefined && policy.name !== name)) return false;
    const anyOnchainFilter = Object.values(onchainFilters).some((value) => value !== undefined && value !== false);
    if (isOffchainPolicy(policy)) return !anyOnchainFilter;
    const protections = protectionsOf(world, policy.id);
    const targetsAt = (address: string) =>
      protections.some((protection) => world.state.targets.get(protection.target_id)?.onchain_targets?.some((onchain) => onchain.address.toLowerCase() === address));
    return (
      (onchainFilters.targetId === undefined || protections.some((protection) => protection.target_id === onchainFilters.targetId)) &&
      (onchainFilters.status === undefined || (policy.onchain_policies ?? []).some((deployment) => deployment.status === onchainFilters.status)) &&
      (!onchainFilters.activeOnly || protections.length > 0) &&
      (onchainFilters.targetAddress === undefined || targetsAt(onchainFilters.targetAddress)) &&
      (onchainFilters.engineId === undefined || policy.policy_engine_id === onchainFilters.engineId) &&
      (onchainFilters.implementationId === undefined || policy.policy_implementation_id === onchainFilters.implementationId)
    );
  },
  create(raw, world) {
    const kind = (raw as { policy_kind?: unknown } | undefined)?.policy_kind;
    if (kind === 'offchain') return createOffchainPolicy(world, raw);
    if (kind === 'onchain') return createOnchainPolicy(world, raw);
    throw badRequest('body.policy_kind is required: "onchain" or "offchain"');
  },
  replace(policy, raw, world) {
    if (isOffchainPolicy(policy)) throw badRequest('an offchain policy changes its configuration with PUT /policies/{policy_id}/config');
    replaceOnchainPolicyFields(world, policy as Policy, raw);
  },
  frozen(policy, world) {
    return world.state.engines.get(policy.policy_engine_id ?? '')?.type === 'system' ? 'policies of the system policy engine are managed by the platform' : undefined;
  },
};

/** Checks that each chain's initial configuration sets what the implementation requires at deployment. */
function checkInitialConfigs(implementation: PolicyImplementation, inputs: readonly { chain_selector: string; initial_config?: Record<string, unknown> }[]): void {
  const required = implementation.policy_config_schema.initial_configs;
  if (!Array.isArray(required)) return;
  for (const input of inputs) {
    const missing = required.filter((name) => typeof name === 'string' && !(name in (input.initial_config ?? {})));
    if (missing.length > 0) throw badRequest(`onchain_policies: chain ${input.chain_selector} needs initial_config.${missing.join(', initial_config.')}`);
  }
}

function groupPolicyConfigs(world: PolicyWorld, policy: Policy, configs: Map<string, Record<string, unknown>>): Policy['onchain_configs'] {
  return groupConfigs(() => world.newId(), policy.onchain_configs as ConfigGroup[], configs);
}

function currentConfigs(policy: Policy): Map<string, Record<string, unknown>> {
  return configsByChain(policy.onchain_configs as ConfigGroup[], policy.chain_selectors);
}

/** Deploys every `creation_pending` chain of an onchain policy after the onchain delay, and indexes it. */
function deployPolicy(world: PolicyWorld, policy: Policy): void {
  world.later(world.timings.onchainMs, () => {
    for (const deployment of policy.onchain_policies ?? []) {
      if (deployment.status !== 'creation_pending') continue;
      deployment.status = 'created';
      deployment.address = policyAddress(policy.id, deployment.chain_selector);
      indexPolicyVersion(world, policy, deployment.chain_selector);
    }
  });
}

function createOnchainPolicy(world: PolicyWorld, raw: unknown): Policy {
  const body = raw as CoordinatorSchema<'CreateOnchainPolicyRequest'>;
  const implementation = world.state.implementations.get(body.policy_implementation_id);
  if (implementation === undefined) throw notFound(`no policy implementation ${body.policy_implementation_id}`);
  if (isOffchainImplementation(implementation)) throw badRequest('an offchain implementation makes offchain policies (policy_kind: offchain)');
  if (isArchived(implementation)) throw badRequest(`policy implementation ${implementation.id} is archived`);
  const engine = checkEngine(world, body.policy_engine_id);
  const inputs = body.onchain_policies ?? [];
  const chains = inputs.map((input) => input.chain_selector);
  checkChains(world, chains, 'onchain_policies');
  const missing = chains.find((chain) => !engine.chain_selectors.includes(chain));
  if (missing !== undefined) throw badRequest(`onchain_policies: policy engine ${engine.id} is not deployed on chain ${missing}`);
  checkInitialConfigs(implementation, inputs);
  const policy: Policy = {
    policy_kind: 'onchain',
    id: world.newId(),
    name: body.name,
    description: body.description ?? '',
    policy_implementation_id: implementation.id,
    policy_implementation_name: implementation.name,
    policy_engine_id: engine.id,
    onchain_configs: [],
    onchain_policies: chains.map((chain) => ({ id: world.newId(), chain_selector: chain, address: '', policy_config_version: '1', out_of_sync: false, status: 'creation_pending' })),
    chain_selectors: chains,
    ongoing_config_changes: [],
    archived_at: null,
  };
  policy.onchain_configs = groupPolicyConfigs(world, policy, new Map(inputs.map((input) => [input.chain_selector, input.initial_config ?? {}])));
  deployPolicy(world, policy);
  return policy;
}

function replaceOnchainPolicyFields(world: PolicyWorld, policy: Policy, raw: unknown): void {
  const body = bodyOf('replacePolicy', raw);
  if (body.onchain_policies !== undefined) {
    const chains = body.onchain_policies.map((input) => input.chain_selector);
    checkChains(world, chains, 'onchain_policies');
    const engine = world.state.engines.get(policy.policy_engine_id);
    const missing = chains.find((chain) => !engine?.chain_selectors.includes(chain));
    if (missing !== undefined) throw badRequest(`onchain_policies: the policy engine is not deployed on chain ${missing}`);
    const added = body.onchain_policies.filter((input) => !policy.chain_selectors.includes(input.chain_selector));
    const implementation = world.state.implementations.get(policy.policy_implementation_id ?? '');
    if (implementation !== undefined && !isOffchainImplementation(implementation)) checkInitialConfigs(implementation, added);
    const configs = currentConfigs(policy);
    for (const dropped of policy.chain_selectors.filter((chain) => !chains.includes(chain))) {
      configs.delete(dropped);
      endPolicyContract(world, policyAddress(policy.id, dropped), dropped);
    }
    for (const input of added) configs.set(input.chain_selector, input.initial_config ?? {});
    policy.onchain_policies = [
      ...(policy.onchain_policies ?? []).filter((deployment) => chains.includes(deployment.chain_selector)),
      ...added.map((input) => ({ id: world.newId(), chain_selector: input.chain_selector, address: '', policy_config_version: '1', out_of_sync: false, status: 'creation_pending' as const })),
    ];
    policy.chain_selectors = chains;
    policy.onchain_configs = groupPolicyConfigs(world, policy, configs);
    deployPolicy(world, policy);
  }
  if (body.name !== undefined) policy.name = body.name;
  if (body.description !== undefined) policy.description = body.description;
}

/** `PATCH /policies/{policy_id}`: archives an onchain policy, or undeploys an offchain one. */
export function archivePolicyHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const policy = findItem(policies, request, world);
    const body = bodyOf('archivePolicy', request.body);
    const frozen = policies.frozen!(policy, world);
    if (frozen !== undefined) throw badRequest(frozen);
    if (isOffchainPolicy(policy)) {
      if (body.policy_kind !== 'offchain') throw badRequest(`policy ${policy.id} is offchain: archive it with policy_kind "offchain"`);
      if (policyIsArchived(policy)) throw badRequest(`policy ${policy.id} is already ${policy.deployment_status}`);
      undeployOffchainPolicy(world, policy);
      return { status: 202, body: policy };
    }
    if (body.policy_kind === 'offchain') throw badRequest(`policy ${policy.id} is onchain: leave policy_kind out (or send "onchain")`);
    if (policyIsArchived(policy)) throw badRequest(`policy ${policy.id} is already archived`);
    const protection = protectionsOf(world, policy.id)[0];
    if (protection !== undefined) throw conflict(`policy ${policy.id} still protects a function (protection ${protection.id}); archive its protections first`);
    const onchain = policy as Policy;
    onchain.archived_at = world.nowSeconds();
    for (const chain of onchain.chain_selectors) endPolicyContract(world, policyAddress(onchain.id, chain), chain);
    return { status: 202, body: onchain };
  };
}

/** `PATCH /policies/{policy_id}/configs`: patches an onchain policy's configuration and writes it to the chains named. */
export function patchPolicyConfigsHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const found = findItem(policies, request, world);
    if (isOffchainPolicy(found)) throw badRequest(`policy ${found.id} is offchain: replace its configuration with PUT /policies/{policy_id}/config`);
    const policy = found as Policy;
    const body = bodyOf('patchPolicyConfigs', request.body);
    if (isArchived(policy)) throw badRequest(`policy ${policy.id} is archived`);
    if ((policy.ongoing_config_changes ?? []).length > 0) throw badRequest(`policy ${policy.id} has a configuration change still being applied`);
    const targets = body.apply_onchain_policies ?? [];
    if (targets.length === 0) throw badRequest('apply_onchain_policies: name at least one chain to apply the change on');
    const patches = body.patches ?? [];
    const configs = currentConfigs(policy);
    const patched = new Map<string, Record<string, unknown>>();
    for (const { chain_selector: chain, current_policy_config_version: expected } of targets) {
      const deployment = policy.onchain_policies?.find((candidate) => candidate.chain_selector === chain);
      if (deployment === undefined) throw badRequest(`apply_onchain_policies: policy ${policy.id} is not deployed on chain ${chain}`);
      if (deployment.status !== 'created') throw badRequest(`apply_onchain_policies: the deployment on chain ${chain} is ${deployment.status}`);
      if (deployment.policy_config_version !== expected) {
        throw badRequest(`apply_onchain_policies: chain ${chain} holds configuration version ${deployment.policy_config_version}, not ${expected}`);
      }
      patched.set(chain, applyJsonPatch(configs.get(chain) ?? {}, patches));
    }
    const change = { chain_selectors: [...patched.keys()], patches };
    policy.ongoing_config_changes = [change];
    for (const deployment of policy.onchain_policies ?? []) if (patched.has(deployment.chain_selector)) deployment.status = 'update_pending';
    world.later(world.timings.onchainMs, () => {
      const now = currentConfigs(policy);
      for (const [chain, config] of patched) now.set(chain, config);
      policy.onchain_configs = groupPolicyConfigs(world, policy, now);
      for (const deployment of policy.onchain_policies ?? []) {
        if (!patched.has(deployment.chain_selector) || deployment.status !== 'update_pending') continue;
        deployment.status = 'created';
        deployment.policy_config_version = String(Number(deployment.policy_config_version) + 1);
        indexPolicyVersion(world, policy, deployment.chain_selector);
      }
      policy.ongoing_config_changes = (policy.ongoing_config_changes ?? []).filter((ongoing) => ongoing !== change);
    });
    return { status: 200, body: policy };
  };
}

/** `PUT /policies/{policy_id}/onchain/{onchain_policy_id}`: re-syncs one chain's deployment (the body is `{}`). */
export function resyncOnchainPolicyHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const found = findItem(policies, request, world);
    const deployment = isOffchainPolicy(found)
      ? undefined
      : (found as Policy).onchain_policies?.find((candidate) => candidate.id === request.pathParams.onchain_policy_id?.toLowerCase());
    if (deployment === undefined) throw notFound(`policy ${found.id} has no deployment ${request.pathParams.onchain_policy_id}`);
    deployment.out_of_sync = false;
    return { status: 200, body: deployment };
  };
}
