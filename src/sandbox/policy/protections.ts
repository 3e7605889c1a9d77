/**
 * Protections: a policy attached to one function of a target. An onchain
 * policy's protection registers per chain (`creation_pending` → `created`,
 * answered `200`); archiving it removes it (`removal_pending` → `removed`,
 * then archived). An offchain policy's protection is queued (`202`,
 * `pending` → `active`) and listed under its policy; deleting it goes
 * `removing` → `removed`. The same policy protects a function of a target
 * once (`409`). Each change is re-indexed for reporting.
 */
import type { OperationHandler } from '../types.js';
import { checkChains } from './chains-check.js';
import { selectorOf } from './hex.js';
import { indexProtectedMethod } from './indexer.js';
import { isOffchainPolicy, type OffchainPolicyProtection, type Policy, type Target, type TargetProtection } from './model.js';
import { coordinatorPage } from './paging.js';
import { findOffchainPolicy, policyIsArchived } from './policy-common.js';
import { queryEnum, queryText } from './query.js';
import { badRequest, conflict, notFound } from './refusals.js';
import { bodyOf } from './request-body.js';
import { archiveItem, assertChangeable, findItem, isArchived, touch, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';
import { onSystemEngine, targets } from './targets.js';

export const targetProtections: ResourceKind<TargetProtection> = {
  noun: 'protection',
  idParam: 'protection_id',
  listKey: 'target_protections',
  items: (state) => state.targetProtections,
  parent: { param: 'target_id', owns: (protection, targetId) => protection.target_id === targetId },
  onchainFields: ['onchain_target_protections'],
  matches(protection, query) {
    const signature = queryText(query, 'function_signature');
    const policyId = queryText(query, 'policy_instance_id');
    const status = queryEnum(query, 'status');
    return (
      (signature === undefined || protection.function_signature === signature) &&
      (policyId === undefined || protection.policy_instance_id === policyId) &&
      (status === undefined || (protection.onchain_target_protections ?? []).some((onchain) => onchain.status === status))
    );
  },
  frozen(protection, world) {
    const target = world.state.targets.get(protection.target_id);
    return target !== undefined && onSystemEngine(world, target) ? 'protections of system targets are managed by the platform' : undefined;
  },
  archive(protection, world) {
    const entries = protection.onchain_target_protections ?? [];
    const registered = entries.filter((entry) => entry.status !== 'removed' && entry.status !== 'creation_failed');
    if (registered.length === 0) return;
    for (const entry of registered) entry.status = 'removal_pending';
    world.later(world.timings.onchainMs, () => {
      for (const entry of registered) entry.status = 'removed';
      protection.archived_at = world.nowSeconds();
      touch(protection, world);
      reindexProtection(world, protection);
    });
    return 'deferred';
  },
};

/** Re-reads, for reporting, the function a protection is on, on every chain it names. */
function reindexProtection(world: PolicyWorld, protection: TargetProtection): void {
  const target = world.state.targets.get(protection.target_id);
  if (target === undefined || protection.function_signature === undefined) return;
  for (const entry of protection.onchain_target_protections ?? []) indexProtectedMethod(world, target, entry.chain_selector, protection.function_signature);
}

/** Registers every `creation_pending` chain of a protection after the onchain delay. */
function registerProtection(world: PolicyWorld, protection: TargetProtection): void {
  world.later(world.timings.onchainMs, () => {
    for (const entry of protection.onchain_target_protections ?? []) if (entry.status === 'creation_pending') entry.status = 'created';
    reindexProtection(world, protection);
  });
}

/** The chains a protection goes on: those asked for, else every chain the target and the policy share. */
function protectionChains(world: PolicyWorld, target: Target, policyChains: readonly string[], asked: readonly { chain_selector: string }[] | null | undefined): string[] {
  const targetChains = (target.onchain_targets ?? []).map((onchain) => onchain.chain_selector);
  const chains = asked == null ? targetChains.filter((chain) => policyChains.includes(chain)) : asked.map((entry) => entry.chain_selector);
  checkChains(world, chains, 'onchain_target_protections');
  for (const chain of chains) {
    if (!targetChains.includes(chain)) throw badRequest(`onchain_target_protections: target ${target.id} has no contract on chain ${chain}`);
    if (!policyChains.includes(chain)) throw badRequest(`onchain_target_protections: the policy is not deployed on chain ${chain}`);
  }
  return chains;
}

/** `POST /targets/{target_id}/protections`: `200` with an onchain protection, `202` with a queued offchain one. */
export function createTargetProtectionHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const target = findItem(targets, request, world);
    const body = bodyOf('createTargetProtection', request.body);
    assertChangeable(targets, target, world);
    const policy = world.state.policies.get(body.policy_instance_id);
    if (policy === undefined) throw notFound(`no policy ${body.policy_instance_id} in this organisation`);
    const kind = body.policy_kind ?? 'onchain';
    if (isOffchainPolicy(policy) !== (kind === 'offchain')) throw badRequest(`policy ${policy.id} is ${isOffchainPolicy(policy) ? 'offchain' : 'onchain'}, not ${kind}`);
    if (policyIsArchived(policy)) throw badRequest(`policy ${policy.id} is archived`);
    const signature = body.function_signature;
    const selector = selectorOf(signature);
    if (!target.protected_methods.includes(signature)) target.protected_methods = [...target.protected_methods, signature];
    const now = world.nowSeconds();
    if (isOffchainPolicy(policy)) {
      const duplicate = [...world.state.offchainProtections.values()].some(
        (record) => record.targetId === target.id && record.protection.offchain_policy_id === policy.id && record.protection.function_signature === signature && record.protection.status !== 'removed',
      );
      if (duplicate) throw conflict(`policy ${policy.id} already protects ${signature} of target ${target.id}`);
      const chains = protectionChains(world, target, policy.chain_selectors ?? [], body.onchain_target_protections);
      const protection: OffchainPolicyProtection = {
        id: world.newId(),
        offchain_policy_id: policy.id,
        function_signature: signature,
        function_selector: selector,
        status: 'pending',
        onchain_target_protections: chains.map((chain) => ({ id: world.newId(), chain_selector: chain, status: 'creation_pending' })),
        created_at: new Date(world.now()).toISOString(),
      };
      world.state.offchainProtections.set(protection.id, { protection, targetId: target.id });
      world.later(world.timings.onchainMs, () => {
        if (protection.status !== 'pending') return;
        protection.status = 'active';
        for (const entry of protection.onchain_target_protections ?? []) entry.status = 'created';
      });
      return { status: 202, body: protection };
    }
    const onchainPolicy = policy as Policy;
    const duplicate = [...world.state.targetProtections.values()].some(
      (protection) => protection.target_id === target.id && protection.policy_instance_id === policy.id && protection.function_signature === signature && !isArchived(protection),
    );
    if (duplicate) throw conflict(`policy ${policy.id} already protects ${signature} of target ${target.id}`);
    const outputs = new Set([...world.state.extractors.values()].flatMap((extractor) => extractor.outputs.map((output) => output.id)));
    const unknownOutput = (body.extractor_output_ids ?? []).find((id) => !outputs.has(id.toLowerCase()));
    if (unknownOutput !== undefined) throw badRequest(`extractor_output_ids: no extractor output ${unknownOutput}`);
    const chains = protectionChains(world, target, onchainPolicy.chain_selectors, body.onchain_target_protections);
    const siblings = (chain: string) =>
      [...world.state.targetProtections.values()].filter(
        (other) => other.target_id === target.id && other.function_signature === signature && !isArchived(other) && other.onchain_target_protections?.some((entry) => entry.chain_selector === chain),
      ).length;
    const protection: TargetProtection = {
      id: world.newId(),
      function_signature: signature,
      function_selector: selector,
      target_id: target.id,
      policy_instance_id: policy.id,
      ...(body.desired_position === undefined ? {} : { desired_position: body.desired_position }),
      onchain_target_protections: chains.map((chain) => ({ id: world.newId(), chain_selector: chain, position: body.desired_position ?? siblings(chain), status: 'creation_pending' })),
      chain_selectors: chains,
      extractor_output_ids: body.extractor_output_ids ?? [],
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    world.state.targetProtections.set(protection.id, protection);
    registerProtection(world, protection);
    return { status: 200, body: protection };
  };
}

/** `PUT …/protections/{protection_id}`: the chains a protection is registered on; new ones register, dropped ones are removed. */
export function replaceTargetProtectionHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const protection = findItem(targetProtections, request, world);
    const body = bodyOf('replaceTargetProtection', request.body);
    assertChangeable(targetProtections, protection, world);
    const target = world.state.targets.get(protection.target_id)!;
    const policy = world.state.policies.get(protection.policy_instance_id);
    const chains = protectionChains(world, target, policy?.chain_selectors ?? [], body.onchain_target_protections);
    const entries = protection.onchain_target_protections ?? [];
    const dropped = entries.filter((entry) => !chains.includes(entry.chain_selector) && entry.status !== 'removed');
    for (const entry of dropped) entry.status = 'removal_pending';
    const added = chains
      .filter((chain) => !entries.some((entry) => entry.chain_selector === chain && entry.status !== 'removed'))
      .map((chain) => ({ id: world.newId(), chain_selector: chain, position: protection.desired_position ?? 0, status: 'creation_pending' as const }));
    protection.onchain_target_protections = [...entries.filter((entry) => entry.status !== 'removed'), ...added];
    protection.chain_selectors = chains;
    touch(protection, world);
    world.later(world.timings.onchainMs, () => {
      for (const entry of dropped) entry.status = 'removed';
      protection.onchain_target_protections = (protection.onchain_target_protections ?? []).filter((entry) => !dropped.includes(entry));
      reindexProtection(world, protection);
      for (const entry of dropped) if (protection.function_signature !== undefined) indexProtectedMethod(world, target, entry.chain_selector, protection.function_signature);
    });
    registerProtection(world, protection);
    return { status: 200, body: protection };
  };
}

export function archiveTargetProtectionHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const protection = findItem(targetProtections, request, world);
    archiveItem(targetProtections, protection, world);
    return { status: 202, body: protection };
  };
}

/** The offchain protections of the offchain policy named by the path. */
function offchainProtectionsOf(world: PolicyWorld, policyId: string): OffchainPolicyProtection[] {
  return [...world.state.offchainProtections.values()].map((record) => record.protection).filter((protection) => protection.offchain_policy_id === policyId);
}

function findOffchainProtection(world: PolicyWorld, policyId: string, protectionId: string): OffchainPolicyProtection {
  const policy = findOffchainPolicy(world, policyId);
  const record = world.state.offchainProtections.get(protectionId.toLowerCase());
  if (record === undefined || record.protection.offchain_policy_id !== policy.id) throw notFound(`offchain policy ${policy.id} has no protection ${protectionId}`);
  return record.protection;
}

export function offchainProtectionHandlers(world: PolicyWorld): Record<'listPolicyProtections' | 'getPolicyProtection' | 'deletePolicyProtection', OperationHandler> {
  return {
    listPolicyProtections: (request) => {
      const policy = findOffchainPolicy(world, request.pathParams.policy_id ?? '');
      const all = offchainProtectionsOf(world, policy.id);
      const page = coordinatorPage(all, request.queryParams);
      return { status: 200, body: { protections: page.items, total: page.total, total_pages: page.total_pages, page: page.page } };
    },
    getPolicyProtection: (request) => ({
      status: 200,
      body: findOffchainProtection(world, request.pathParams.policy_id ?? '', request.pathParams.protection_id ?? ''),
    }),
    deletePolicyProtection: (request) => {
      const protection = findOffchainProtection(world, request.pathParams.policy_id ?? '', request.pathParams.protection_id ?? '');
      if (protection.status !== 'removing' && protection.status !== 'removed') {
        protection.status = 'removing';
        for (const entry of protection.onchain_target_protections ?? []) if (entry.status !== 'removed') entry.status = 'removal_pending';
        world.later(world.timings.onchainMs, () => {
          protection.status = 'removed';
          for (const entry of protection.onchain_target_protections ?? []) entry.status = 'removed';
        });
      }
      return { status: 202 };
    },
  };
}
