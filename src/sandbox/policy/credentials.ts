/**
 * Credential types and credentials. A credential type belongs to one
 * registry (its name unique there, `409`) and may link a data schema that
 * every credential's payload must satisfy. A credential is written to the
 * credential registry of every chain of its registry (`creation_pending` →
 * `created`); a new expiry rewrites it (`update_pending` → `created`);
 * archiving removes it (`removal_pending` → `removed`). Each write is indexed
 * for reporting. Unknown ones answer `403`, as the spec says the service does.
 */
import type { OperationHandler } from '../types.js';
import { keccakHex } from './hex.js';
import { indexCredential } from './indexer.js';
import type { Credential, CredentialType, Identity, Registry } from './model.js';
import { queryText } from './query.js';
import { badRequest, conflict } from './refusals.js';
import { bodyOf, type CoordinatorBody, type CoordinatorSchema } from './request-body.js';
import { checkRegistryFilter, writableRegistry } from './registries.js';
import { assertChangeable, findItem, isArchived, touch, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

export const credentialTypes: ResourceKind<CredentialType> = {
  noun: 'credential type',
  idParam: 'credential_type_id',
  listKey: 'credential_types',
  items: (state) => state.credentialTypes,
  checkQuery: checkRegistryFilter,
  matches(type, query) {
    const registryId = queryText(query, 'registry_id')?.toLowerCase();
    return registryId === undefined || type.registry_id === registryId;
  },
  create(raw, world) {
    const body = bodyOf('createCredentialType', raw);
    const registry = world.state.registries.get(body.registry_id.toLowerCase());
    if (registry === undefined || isArchived(registry)) throw badRequest(`registry_id: no active registry ${body.registry_id} in this organisation`);
    const taken = [...world.state.credentialTypes.values()].some((type) => type.registry_id === registry.id && type.credential_type === body.credential_type && !isArchived(type));
    if (taken) throw conflict(`registry ${registry.id} already has a credential type ${JSON.stringify(body.credential_type)}`);
    const schema = body.data_schema_id === undefined ? null : world.state.dataSchemas.get(body.data_schema_id.toLowerCase());
    if (schema === undefined) throw badRequest(`data_schema_id: no data schema ${body.data_schema_id}`);
    const now = world.nowSeconds();
    return {
      id: world.newId(),
      registry_id: registry.id,
      title: body.title,
      ...(body.description === undefined ? {} : { description: body.description }),
      credential_type: body.credential_type,
      credential_type_hash: keccakHex(body.credential_type),
      chain_selectors: [...(registry.credential_registries ?? []).map((contract) => contract.chain_selector)],
      data_schema: schema,
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
  },
  replace(type, raw) {
    const body = bodyOf('replaceCredentialType', raw);
    type.title = body.title;
    if (body.description !== undefined) type.description = body.description;
  },
};

/** `PATCH /credential-types/{id}`: archives the type (`409` while credentials of it exist) or changes its display fields. */
export function updateCredentialTypeHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const type = findItem(credentialTypes, request, world);
    const raw = request.body as Record<string, unknown> | undefined;
    if (raw !== null && typeof raw === 'object' && 'status' in raw) {
      if (isArchived(type)) throw badRequest(`credential type ${type.id} is already archived`);
      const held = [...world.state.credentials.values()].find((credential) => credential.credential_type_id === type.id && !isArchived(credential));
      if (held !== undefined) throw conflict(`credential ${held.id} of this type exists; archive the credentials first`);
      type.archived_at = world.nowSeconds();
    } else {
      const body = raw as CoordinatorSchema<'CredentialTypeChanges'>;
      assertChangeable(credentialTypes, type, world);
      if (body.title !== undefined) type.title = body.title;
      if (body.description !== undefined) type.description = body.description;
    }
    touch(type, world);
    return { status: 202, body: type };
  };
}

/** Checks `data` against the top level of a data schema: its `type`, `required` keys and the `type` of each property. */
function checkCredentialData(schema: Record<string, unknown>, data: unknown, field: string): void {
  const typeOf = (value: unknown) =>
    Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;
  const fits = (value: unknown, type: unknown) => type === undefined || type === typeOf(value) || (type === 'number' && typeOf(value) === 'integer');
  if (!fits(data, schema.type)) throw badRequest(`${field}: expected ${String(schema.type)} by the credential type's data schema`);
  if (typeOf(data) !== 'object') return;
  const record = data as Record<string, unknown>;
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (!(String(key) in record)) throw badRequest(`${field}.${String(key)} is required by the credential type's data schema`);
  }
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const [key, property] of Object.entries(properties)) {
    if (key in record && !fits(record[key], property.type)) throw badRequest(`${field}.${key}: expected ${String(property.type)} by the data schema`);
  }
}

type CredentialInput = CoordinatorBody<'createCredential'>;

/** Writes (or rewrites, or removes) a credential's chain copies after the onchain delay, and indexes them. */
function settleCredential(world: PolicyWorld, credential: Credential): void {
  world.later(world.timings.onchainMs, () => {
    const type = world.state.credentialTypes.get(credential.credential_type_id);
    const identity = world.state.identities.get(credential.identity_id);
    const registry = world.state.registries.get(type?.registry_id ?? '');
    for (const copy of credential.onchain_credentials ?? []) {
      const next = { creation_pending: 'created', update_pending: 'created', removal_pending: 'removed' }[copy.status as string] as 'created' | 'removed' | undefined;
      if (next === undefined) continue;
      copy.status = next;
      const contract = registry?.credential_registries?.find((candidate) => candidate.chain_selector === copy.chain_selector);
      if (type !== undefined && identity !== undefined && contract !== undefined) {
        indexCredential(world, credential, identity.ccid, type.credential_type_hash, copy.chain_selector, contract.address, next === 'removed');
      }
    }
  });
}

/** Checks one credential to issue and returns how to issue it to its identity (stored, its onchain writes started). */
export function prepareCredential(world: PolicyWorld, input: CredentialInput, registryOfIdentity: Registry | undefined, field: string): (identity: Identity) => Credential {
  const type = world.state.credentialTypes.get(input.credential_type_id.toLowerCase());
  if (type === undefined || isArchived(type)) throw badRequest(`${field}.credential_type_id: no active credential type ${input.credential_type_id}`);
  const registry = registryOfIdentity ?? writableRegistry(world, type.registry_id, `${field}.credential_type_id`);
  if (type.registry_id !== registry.id) throw badRequest(`${field}.credential_type_id: the credential type belongs to another registry than the identity`);
  if (registry.mode === 'read_only') throw badRequest(`${field}: registry ${registry.id} is read_only and refuses writes`);
  const schema = type.data_schema?.schema;
  if (schema !== undefined && input.credential_data === undefined) throw badRequest(`${field}.credential_data is required: the credential type has a data schema`);
  if (schema === undefined && input.credential_data !== undefined) throw badRequest(`${field}.credential_data: the credential type has no data schema; leave it out`);
  if (schema !== undefined) checkCredentialData(schema, input.credential_data, `${field}.credential_data`);
  return (identity) => {
    const now = world.nowSeconds();
    const credential: Credential = {
      id: world.newId(),
      credential_type_id: type.id,
      credential_type: type,
      credential_data: input.credential_data ?? null,
      external_unique_id: input.external_unique_id ?? `sandbox-${world.newId()}`,
      ...(input.expires_at === undefined ? {} : { expires_at: input.expires_at }),
      identity_id: identity.id,
      onchain_credentials: (registry.credential_registries ?? []).map((contract) => ({
        id: world.newId(),
        chain_selector: contract.chain_selector,
        status: 'creation_pending' as const,
        ...(input.expires_at === undefined ? {} : { expires_at: input.expires_at }),
      })),
      chain_selectors: (registry.credential_registries ?? []).map((contract) => contract.chain_selector),
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    world.state.credentials.set(credential.id, credential);
    settleCredential(world, credential);
    return credential;
  };
}

export const credentials: ResourceKind<Credential> = {
  noun: 'credential',
  idParam: 'credential_id',
  listKey: 'credentials',
  items: (state) => state.credentials,
  onchainFields: ['onchain_credentials'],
  checkQuery: checkRegistryFilter,
  matches(credential, query, world) {
    const typeId = queryText(query, 'credential_type_id')?.toLowerCase();
    const identityId = queryText(query, 'identity_id')?.toLowerCase();
    const registryId = queryText(query, 'registry_id')?.toLowerCase();
    const entityId = queryText(query, 'entity_id');
    const identity = world.state.identities.get(credential.identity_id);
    return (
      (typeId === undefined || credential.credential_type_id === typeId) &&
      (identityId === undefined || credential.identity_id === identityId) &&
      (entityId === undefined || identity?.entity_id === entityId) &&
      (registryId === undefined || world.state.credentialTypes.get(credential.credential_type_id)?.registry_id === registryId)
    );
  },
  create(raw, world) {
    const body = bodyOf('createCredential', raw);
    const identity = world.state.identities.get(body.identity_id.toLowerCase());
    if (identity === undefined || isArchived(identity)) throw badRequest(`identity_id: no active identity ${body.identity_id}`);
    const issue = prepareCredential(world, body, undefined, 'body');
    const exists = [...world.state.credentials.values()].find(
      (credential) =>
        !isArchived(credential) &&
        ((credential.identity_id === identity.id && credential.credential_type_id === body.credential_type_id.toLowerCase()) ||
          (body.external_unique_id !== undefined && credential.external_unique_id === body.external_unique_id)),
    );
    if (exists !== undefined) throw conflict(`the credential already exists (${exists.id})`);
    return issue(identity);
  },
  replace(credential, raw, world) {
    const body = bodyOf('replaceCredential', raw);
    applyCredentialChanges(world, credential, body);
  },
};

function applyCredentialChanges(world: PolicyWorld, credential: Credential, changes: { external_unique_id?: string; expires_at?: number }): void {
  if (changes.external_unique_id !== undefined) credential.external_unique_id = changes.external_unique_id;
  if (changes.expires_at === undefined || changes.expires_at === credential.expires_at) return;
  credential.expires_at = changes.expires_at;
  for (const copy of credential.onchain_credentials ?? []) {
    if (copy.status === 'removed' || copy.status === 'removal_pending') continue;
    copy.status = 'update_pending';
    copy.expires_at = changes.expires_at;
  }
  settleCredential(world, credential);
}

/** `PATCH /credentials/{id}`: archives (revokes) the credential, removing it onchain, or changes its identifier or expiry. */
export function updateCredentialHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const credential = findItem(credentials, request, world);
    const raw = request.body as Record<string, unknown> | undefined;
    if (raw !== null && typeof raw === 'object' && 'status' in raw) {
      if (isArchived(credential)) throw badRequest(`credential ${credential.id} is already archived`);
      for (const copy of credential.onchain_credentials ?? []) if (copy.status !== 'removed') copy.status = 'removal_pending';
      credential.archived_at = world.nowSeconds();
      settleCredential(world, credential);
    } else {
      const body = raw as CoordinatorSchema<'CredentialChanges'>;
      assertChangeable(credentials, credential, world);
      applyCredentialChanges(world, credential, body);
    }
    touch(credential, world);
    return { status: 202, body: credential };
  };
}
