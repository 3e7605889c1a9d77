/**
 * Registries: a named pair of identity and credential registry contracts per
 * chain. Contracts given without an address are deployed (`creation_pending`
 * → `created`, the registry `managed`); contracts given with one are
 * registered as they are (`created` at once, the registry `read_only`, which
 * refuses identity and credential writes). Contracts can be added on new
 * chains, never removed; a registry with live identities cannot be archived.
 * Unknown registries answer `403`, as the spec says the service does.
 */
import { credentialRegistryAddress, identityRegistryAddress } from './addresses.js';
import { checkChains } from './chains-check.js';
import { indexRegistryContract } from './indexer.js';
import type { CredentialRegistry, IdentityRegistry, Registry } from './model.js';
import { queryBool, queryEnum, queryText, type QueryValues } from './query.js';
import { badRequest, conflict, notFound } from './refusals.js';
import { bodyOf, type CoordinatorBody } from './request-body.js';
import { isArchived, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

type RegistryBody = CoordinatorBody<'createRegistry'> | CoordinatorBody<'replaceRegistry'>;
type ContractInput = NonNullable<RegistryBody['identity_registries']>[number];

function registryContract(world: PolicyWorld, registry: Registry, type: 'identity' | 'credential', input: ContractInput): IdentityRegistry & CredentialRegistry {
  const now = world.nowSeconds();
  const derive = type === 'identity' ? identityRegistryAddress : credentialRegistryAddress;
  const contract = {
    id: world.newId(),
    address: input.address ?? derive(registry.id, input.chain_selector),
    name: input.name,
    description: input.description,
    created_at: now,
    updated_at: now,
    org_id: world.state.organization.id,
    chain_selector: input.chain_selector,
    registry_id: registry.id,
    status: input.address === undefined ? ('creation_pending' as const) : ('created' as const),
  };
  if (contract.status === 'created') indexRegistryContract(world, type, contract.chain_selector, contract.address);
  else {
    world.later(world.timings.onchainMs, () => {
      contract.status = 'created';
      contract.updated_at = world.nowSeconds();
      indexRegistryContract(world, type, contract.chain_selector, contract.address);
    });
  }
  return contract;
}

/** Adds the contracts a body names on chains the registry has none of yet; a chain left out is refused. */
function applyRegistryContracts(world: PolicyWorld, registry: Registry, body: RegistryBody): void {
  for (const type of ['identity', 'credential'] as const) {
    const field = type === 'identity' ? 'identity_registries' : 'credential_registries';
    const inputs = body[field] ?? [];
    checkChains(world, inputs.map((input) => input.chain_selector), field);
    const existing = registry[field] ?? [];
    const dropped = existing.find((contract) => !inputs.some((input) => input.chain_selector === contract.chain_selector));
    if (dropped !== undefined) throw badRequest(`${field}: the contract on chain ${dropped.chain_selector} cannot be removed; list every existing chain`);
    const added = inputs.filter((input) => !existing.some((contract) => contract.chain_selector === input.chain_selector));
    registry[field] = [...existing, ...added.map((input) => registryContract(world, registry, type, input))];
  }
  registry.chain_selectors = [...new Set([...(registry.identity_registries ?? []), ...(registry.credential_registries ?? [])].map((contract) => contract.chain_selector))];
}

export const registries: ResourceKind<Registry> = {
  noun: 'registry',
  idParam: 'registry_id',
  listKey: 'registries',
  items: (state) => state.registries,
  onchainFields: ['identity_registries', 'credential_registries'],
  view(registry, query) {
    const type = queryEnum<'pair' | 'identity' | 'credential'>(query, 'type');
    const shown: Registry = { ...registry };
    if (type === 'credential') delete shown.identity_registries;
    if (type === 'identity') delete shown.credential_registries;
    // The sandbox organisation is granted nothing by others: with include_granted every registry is its own.
    if (queryBool(query, 'include_granted')) shown.access_type = 'owned';
    return shown;
  },
  create(raw, world) {
    const body = bodyOf('createRegistry', raw);
    const taken = [...world.state.registries.values()].some((registry) => registry.name === body.name && !isArchived(registry));
    if (taken) throw conflict(`a registry named ${JSON.stringify(body.name)} already exists`);
    const contracts = [...(body.identity_registries ?? []), ...(body.credential_registries ?? [])];
    const now = world.nowSeconds();
    const registry: Registry = {
      id: world.newId(),
      name: body.name,
      description: body.description,
      org_id: world.state.organization.id,
      created_at: now,
      updated_at: now,
      identity_registries: [],
      credential_registries: [],
      chain_selectors: [],
      mode: contracts.length > 0 && contracts.every((input) => input.address !== undefined) ? 'read_only' : 'managed',
      archived_at: null,
    };
    applyRegistryContracts(world, registry, body);
    return registry;
  },
  replace(registry, raw, world) {
    const body = bodyOf('replaceRegistry', raw);
    const taken = [...world.state.registries.values()].some((other) => other.id !== registry.id && other.name === body.name && !isArchived(other));
    if (taken) throw conflict(`a registry named ${JSON.stringify(body.name)} already exists`);
    applyRegistryContracts(world, registry, body);
    registry.name = body.name;
    registry.description = body.description;
  },
  archive(registry, world) {
    const member = [...world.state.identities.values()].find((identity) => identity.registryId === registry.id && !isArchived(identity));
    if (member !== undefined) throw conflict(`registry ${registry.id} still holds identity ${member.id}; archive its identities first`);
  },
};

/** The registry a request body names, ready for writes: known, not archived, not read-only. */
export function writableRegistry(world: PolicyWorld, registryId: string, field: string): Registry {
  const registry = world.state.registries.get(registryId.toLowerCase());
  if (registry === undefined) throw badRequest(`${field}: no registry ${registryId} in this organisation`);
  if (isArchived(registry)) throw badRequest(`${field}: registry ${registry.id} is archived`);
  if (registry.mode === 'read_only') throw badRequest(`${field}: registry ${registry.id} is read_only and refuses writes`);
  return registry;
}

/** A `registry_id` filter the organisation may not see is refused (`403` where the spec says so). */
export function checkRegistryFilter(query: QueryValues, world: PolicyWorld): void {
  const id = queryText(query, 'registry_id');
  if (id !== undefined && !world.state.registries.has(id.toLowerCase())) throw notFound(`no registry ${id} visible to this organisation`);
}
