/**
 * Identities: a cross-chain identifier (CCID) and the wallet addresses it
 * uses on each chain, written to the registry's identity registry contracts
 * (`creation_pending` → `created`; removed ones `removal_pending` →
 * `removed`) and then indexed for reporting. An entity is registered once
 * per registry (`409`); a batch is checked whole before any identity of it
 * is created. Archiving removes every mapping onchain. Unknown identities
 * answer `403`, as the spec says the service does.
 */
import type { OperationHandler } from '../types.js';
import { prepareCredential } from './credentials.js';
import { bytes32Of } from './hex.js';
import { indexIdentityAddress } from './indexer.js';
import type { Identity, OnchainIdentity, Registry } from './model.js';
import { queryText } from './query.js';
import { badRequest, conflict } from './refusals.js';
import { bodyOf, type CoordinatorBody, type CoordinatorSchema } from './request-body.js';
import { checkRegistryFilter, writableRegistry } from './registries.js';
import { assertChangeable, findItem, isArchived, touch, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

const identityRegistryOn = (registry: Registry, chain: string) => registry.identity_registries?.find((contract) => contract.chain_selector === chain);

function checkMappings(registry: Registry, inputs: readonly { chain_selector: string; address: string }[]): void {
  const seen = new Set<string>();
  for (const input of inputs) {
    if (identityRegistryOn(registry, input.chain_selector) === undefined) {
      throw badRequest(`onchain_identities: registry ${registry.id} has no identity registry on chain ${input.chain_selector}`);
    }
    const key = `${input.chain_selector}:${input.address.toLowerCase()}`;
    if (seen.has(key)) throw badRequest(`onchain_identities: ${input.address} is listed twice on chain ${input.chain_selector}`);
    seen.add(key);
  }
}

/** Writes the `creation_pending` mappings and removes the `removal_pending` ones after the onchain delay. */
function settleMappings(world: PolicyWorld, identity: Identity): void {
  world.later(world.timings.onchainMs, () => {
    const registry = world.state.registries.get(identity.registryId ?? '');
    for (const mapping of identity.onchain_identities ?? []) {
      const next = mapping.status === 'creation_pending' ? 'created' : mapping.status === 'removal_pending' ? 'removed' : undefined;
      if (next === undefined) continue;
      mapping.status = next;
      mapping.updated_at = world.nowSeconds();
      const contract = registry === undefined ? undefined : identityRegistryOn(registry, mapping.chain_selector);
      if (contract !== undefined) indexIdentityAddress(world, identity, mapping, contract.address, next === 'removed');
    }
  });
}

/** The mappings after a change to the complete set `inputs`: new ones pending creation, left-out ones pending removal. */
function remap(world: PolicyWorld, identity: Identity, inputs: readonly { chain_selector: string; address: string }[]): void {
  const now = world.nowSeconds();
  const same = (mapping: OnchainIdentity, input: { chain_selector: string; address: string }) =>
    mapping.chain_selector === input.chain_selector && mapping.address.toLowerCase() === input.address.toLowerCase();
  const current = (identity.onchain_identities ?? []).filter((mapping) => mapping.status !== 'removed' && mapping.status !== 'removal_pending');
  for (const mapping of current) {
    if (!inputs.some((input) => same(mapping, input))) {
      mapping.status = 'removal_pending';
      mapping.updated_at = now;
    }
  }
  const added = inputs
    .filter((input) => !current.some((mapping) => same(mapping, input)))
    .map((input): OnchainIdentity => ({ id: world.newId(), identity_id: identity.id, ...input, status: 'creation_pending', created_at: now, updated_at: now }));
  identity.onchain_identities = [...(identity.onchain_identities ?? []), ...added];
  identity.chain_selectors = [...new Set(inputs.map((input) => input.chain_selector))];
  settleMappings(world, identity);
}

type IdentityInput = CoordinatorBody<'createIdentity'>;

/** Checks one identity to create against the state (registry, uniqueness, credentials) and returns how to create it. */
function prepareIdentity(world: PolicyWorld, input: IdentityInput, field: string, alsoTaken: ReadonlySet<string>): () => Identity {
  const registry = writableRegistry(world, input.registry_id, `${field}.registry_id`);
  checkMappings(registry, input.onchain_identities);
  const key = `${registry.id}:${input.entity_id}`;
  const taken = alsoTaken.has(key) || [...world.state.identities.values()].some((identity) => identity.registryId === registry.id && identity.entity_id === input.entity_id && !isArchived(identity));
  if (taken) throw conflict(`${field}.entity_id: registry ${registry.id} already has an identity for entity ${JSON.stringify(input.entity_id)}`);
  const credentials = (input.credentials ?? []).map((credential, index) => prepareCredential(world, { ...credential, identity_id: '' }, registry, `${field}.credentials[${index}]`));
  return () => {
    const now = world.nowSeconds();
    const id = world.newId();
    const identity: Identity = {
      id,
      title: input.title,
      ...(input.description === undefined ? {} : { description: input.description }),
      entity_id: input.entity_id,
      ccid: bytes32Of('ccid', world.state.organization.id, id),
      registryId: registry.id,
      onchain_identities: [],
      chain_selectors: [],
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    remap(world, identity, input.onchain_identities);
    world.state.identities.set(identity.id, identity);
    for (const issue of credentials) issue(identity);
    return identity;
  };
}

export const identities: ResourceKind<Identity> = {
  noun: 'identity',
  idParam: 'identity_id',
  listKey: 'identities',
  items: (state) => state.identities,
  onchainFields: ['onchain_identities'],
  checkQuery: checkRegistryFilter,
  matches(identity, query) {
    const registryId = queryText(query, 'registry_id')?.toLowerCase();
    const text = queryText(query, 'query')?.toLowerCase();
    return (registryId === undefined || identity.registryId === registryId) && (text === undefined || identity.title.toLowerCase().includes(text));
  },
  create: (raw, world) => prepareIdentity(world, bodyOf('createIdentity', raw), 'body', new Set())(),
  replace(identity, raw, world) {
    const body = bodyOf('replaceIdentity', raw);
    const registry = world.state.registries.get(identity.registryId ?? '');
    if (registry !== undefined) checkMappings(registry, body.onchain_identities);
    identity.title = body.title;
    if (body.description !== undefined) identity.description = body.description;
    remap(world, identity, body.onchain_identities);
  },
};

/** `POST /identities/batch`: one result per identity, in request order. */
export function createIdentitiesBatchHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const body = bodyOf('createIdentitiesBatch', request.body);
    // All or nothing: every identity is checked before any is created, as the service fails the whole batch.
    const keys = new Set<string>();
    const creations = body.identities.map((input, index) => {
      const create = prepareIdentity(world, input, `body.identities[${index}]`, keys);
      keys.add(`${input.registry_id.toLowerCase()}:${input.entity_id}`);
      return create;
    });
    return { status: 200, body: { results: creations.map((create) => ({ status: 'created', identity: create() })) } };
  };
}

/** `PATCH /identities/{identity_id}`: archives the identity (removing its mappings onchain) or changes some fields, never both. */
export function updateIdentityHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const identity = findItem(identities, request, world);
    const raw = request.body as Record<string, unknown> | undefined;
    if (raw !== null && typeof raw === 'object' && 'status' in raw) {
      if (isArchived(identity)) throw badRequest(`identity ${identity.id} is already archived`);
      remap(world, identity, []);
      identity.chain_selectors = [];
      identity.archived_at = world.nowSeconds();
    } else {
      const body = raw as CoordinatorSchema<'IdentityChanges'>;
      assertChangeable(identities, identity, world);
      if (body.title !== undefined) identity.title = body.title;
      if (body.description !== undefined) identity.description = body.description;
      if (body.onchain_identities !== undefined) {
        const registry = world.state.registries.get(identity.registryId ?? '');
        if (registry !== undefined) checkMappings(registry, body.onchain_identities);
        remap(world, identity, body.onchain_identities);
      }
    }
    touch(identity, world);
    return { status: 202, body: identity };
  };
}
