/**
 * Targets: protected contracts, one address per chain, under a policy
 * engine. Registering one attaches its contracts to the engine at once (and
 * for reporting); an address is held by one live target at a time (`409`).
 * A target with live protections cannot be archived (`409`); merging moves
 * the sources' contracts (and protections) to the destination and archives
 * the sources. Targets of the `system` engine are the platform's and refuse
 * changes.
 */
import type { OperationHandler } from '../types.js';
import { checkChains } from './chains-check.js';
import { indexTargetAttachment, indexTargetDetachment } from './indexer.js';
import type { Target } from './model.js';
import { queryBool, queryText } from './query.js';
import { badRequest, conflict, notFound } from './refusals.js';
import { bodyOf } from './request-body.js';
import { assertChangeable, findItem, isArchived, touch, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

export const onSystemEngine = (world: PolicyWorld, target: Target) => world.state.engines.get(target.policy_engine_id)?.type === 'system';

/** Checks the onchain targets of a body: supported chains the engine is on, and no address another live target holds. */
function checkOnchainTargets(world: PolicyWorld, engineId: string, entries: readonly { chain_selector: string; address: string }[], self?: string): void {
  checkChains(world, entries.map((entry) => entry.chain_selector), 'onchain_targets');
  const engine = world.state.engines.get(engineId);
  for (const entry of entries) {
    if (!engine?.chain_selectors.includes(entry.chain_selector)) throw badRequest(`onchain_targets: the policy engine is not deployed on chain ${entry.chain_selector}`);
    const holder = [...world.state.targets.values()].find(
      (target) =>
        target.id !== self &&
        !isArchived(target) &&
        target.onchain_targets?.some((onchain) => onchain.chain_selector === entry.chain_selector && onchain.address.toLowerCase() === entry.address.toLowerCase()),
    );
    if (holder !== undefined) throw conflict(`${entry.address} on chain ${entry.chain_selector} is already registered as target ${holder.id}`);
  }
}

function contractTypesOf(world: PolicyWorld, ids: readonly string[] | undefined): Target['contract_types'] {
  return (ids ?? []).map((id) => {
    const contractType = world.state.contractTypes.get(id);
    if (contractType === undefined || isArchived(contractType)) throw badRequest(`contract_type_ids: no active contract type ${id}`);
    return contractType;
  });
}

/** Brings the reporting index in line with the target's onchain targets (attachments and their defaults). */
function reindexAttachments(world: PolicyWorld, target: Target, before: Target['onchain_targets']): void {
  for (const old of before ?? []) {
    const kept = target.onchain_targets?.some((now) => now.chain_selector === old.chain_selector && now.address === old.address);
    if (!kept || isArchived(target)) indexTargetDetachment(world, target, old.chain_selector, old.address);
  }
  if (isArchived(target)) return;
  for (const onchain of target.onchain_targets ?? []) indexTargetAttachment(world, target, onchain.chain_selector, onchain.address);
}

export const targets: ResourceKind<Target> = {
  noun: 'target',
  idParam: 'target_id',
  listKey: 'targets',
  items: (state) => state.targets,
  onchainFields: ['onchain_targets'],
  matches(target, query) {
    const engineId = queryText(query, 'policy_engine_id');
    const chain = queryText(query, 'chain_selector');
    const search = queryText(query, 'search')?.toLowerCase();
    const found =
      search === undefined ||
      target.title.toLowerCase().includes(search) ||
      (target.onchain_targets ?? []).some((onchain) => onchain.address.toLowerCase().includes(search));
    return (engineId === undefined || target.policy_engine_id === engineId) && (chain === undefined || target.chain_selectors.includes(chain)) && found;
  },
  // The sandbox organisation holds no grants from others, so `include_granted` adds only the ownership fields.
  view: (target, query, world) =>
    queryBool(query, 'include_granted') ? { ...target, owner_org_id: world.state.organization.id, access_type: 'owned' } : target,
  create(raw, world) {
    const body = bodyOf('createTarget', raw);
    const engine = world.state.engines.get(body.policy_engine_id);
    if (engine === undefined) throw notFound(`no policy engine ${body.policy_engine_id} in this organisation`);
    if (engine.type === 'system') throw badRequest('the system policy engine cannot be used for targets');
    if (isArchived(engine)) throw badRequest(`policy engine ${engine.id} is archived`);
    const onchain = body.onchain_targets ?? [];
    checkOnchainTargets(world, engine.id, onchain);
    const now = world.nowSeconds();
    const allow = body.desired_default_allow ?? true;
    const target: Target = {
      id: world.newId(),
      title: body.title,
      description: body.description ?? '',
      policy_engine_id: engine.id,
      protected_methods: body.protected_methods ?? [],
      contract_types: contractTypesOf(world, body.contract_type_ids),
      onchain_targets: onchain.map((entry) => ({ id: world.newId(), ...entry, default_allow: allow })),
      chain_selectors: onchain.map((entry) => entry.chain_selector),
      desired_default_allow: allow,
      ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    reindexAttachments(world, target, []);
    return target;
  },
  replace(target, raw, world) {
    const body = bodyOf('replaceTarget', raw);
    const before = target.onchain_targets;
    if (body.onchain_targets !== undefined) checkOnchainTargets(world, target.policy_engine_id, body.onchain_targets, target.id);
    if (body.contract_type_ids !== undefined) target.contract_types = contractTypesOf(world, body.contract_type_ids);
    target.title = body.title;
    if (body.description !== undefined) target.description = body.description;
    if (body.protected_methods !== undefined) target.protected_methods = body.protected_methods;
    if (body.metadata !== undefined) target.metadata = body.metadata;
    if (body.desired_default_allow !== undefined) target.desired_default_allow = body.desired_default_allow;
    const entries = body.onchain_targets ?? (before ?? []).map(({ chain_selector, address }) => ({ chain_selector, address }));
    target.onchain_targets = entries.map((entry) => ({
      id: before?.find((old) => old.chain_selector === entry.chain_selector && old.address === entry.address)?.id ?? world.newId(),
      ...entry,
      default_allow: target.desired_default_allow,
    }));
    target.chain_selectors = entries.map((entry) => entry.chain_selector);
    reindexAttachments(world, target, before);
  },
  frozen: (target, world) => (onSystemEngine(world, target) ? 'targets of the system policy engine are managed by the platform' : undefined),
  archive(target, world) {
    const live = liveProtectionsOf(world, target.id)[0];
    if (live !== undefined) throw conflict(`target ${target.id} still has protection ${live} that is not archived`);
    target.archived_at = world.nowSeconds();
    reindexAttachments(world, target, target.onchain_targets);
  },
};

/** Ids of the target's protections (onchain and offchain) that are not archived or removed. */
function liveProtectionsOf(world: PolicyWorld, targetId: string): string[] {
  const onchain = [...world.state.targetProtections.values()].filter((protection) => protection.target_id === targetId && !isArchived(protection));
  const offchain = [...world.state.offchainProtections.values()].filter(
    (record) => record.targetId === targetId && record.protection.status !== 'removed' && record.protection.status !== 'failed',
  );
  return [...onchain.map((protection) => protection.id), ...offchain.map((record) => record.protection.id)];
}

/**
 * `POST /targets/{target_id}/merge`: moves the sources' onchain targets to
 * the destination and archives the sources. Their protections move along,
 * so nothing is left protecting an archived target.
 */
export function mergeTargetsHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const destination = findItem(targets, request, world);
    const body = bodyOf('mergeTargets', request.body);
    const ids = body.source_target_ids.map((id) => id.toLowerCase());
    if (ids.includes(destination.id)) throw badRequest('source_target_ids must not list the destination target');
    const sources = ids.map((id) => {
      const source = world.state.targets.get(id);
      if (source === undefined) throw notFound(`no target ${id} in this organisation`);
      return source;
    });
    for (const target of [destination, ...sources]) assertChangeable(targets, target, world);
    const other = sources.find((source) => source.policy_engine_id !== destination.policy_engine_id);
    if (other !== undefined) throw conflict(`target ${other.id} uses another policy engine than ${destination.id}`);
    const chains = [destination, ...sources].flatMap((target) => target.onchain_targets ?? []).map((onchain) => onchain.chain_selector);
    const twice = chains.find((chain, index) => chains.indexOf(chain) !== index);
    if (twice !== undefined) throw conflict(`two of the targets have an onchain target on chain ${twice}`);
    for (const source of sources) {
      destination.onchain_targets = [...(destination.onchain_targets ?? []), ...(source.onchain_targets ?? [])];
      destination.protected_methods = [...new Set([...destination.protected_methods, ...source.protected_methods])];
      for (const protection of world.state.targetProtections.values()) if (protection.target_id === source.id) protection.target_id = destination.id;
      for (const record of world.state.offchainProtections.values()) if (record.targetId === source.id) record.targetId = destination.id;
      source.onchain_targets = [];
      source.chain_selectors = [];
      source.archived_at = world.nowSeconds();
      touch(source, world);
    }
    destination.chain_selectors = (destination.onchain_targets ?? []).map((onchain) => onchain.chain_selector);
    touch(destination, world);
    return { status: 200, body: destination };
  };
}
