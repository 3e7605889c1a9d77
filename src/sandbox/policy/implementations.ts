/**
 * The library of policy implementations: the platform's onchain policies and
 * its offchain (managed) templates, plus custom onchain implementations the
 * organisation registers (names unique, `409`). Offchain templates belong to
 * the platform and refuse changes; an implementation with live policy
 * instances cannot be archived (`409`).
 */
import { checkChains } from './chains-check.js';
import { isOffchainImplementation, type AnyPolicyImplementation, type PolicyImplementation } from './model.js';
import { kindListed, policyIsArchived } from './policy-common.js';
import { queryText } from './query.js';
import { conflict } from './refusals.js';
import { bodyOf } from './request-body.js';
import { isArchived, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

/** The run parameters an implementation's schema declares (`policy_run_parameters`). */
export function runParameters(world: PolicyWorld, schema: Record<string, unknown>): PolicyImplementation['parameters'] {
  const declared = Array.isArray(schema.policy_run_parameters) ? schema.policy_run_parameters : [];
  const now = world.nowSeconds();
  return declared.flatMap((entry: unknown, position) => {
    const parameter = entry as { name?: unknown; type?: unknown; max?: unknown };
    if (typeof parameter.name !== 'string' || typeof parameter.type !== 'string') return [];
    const max = typeof parameter.max === 'number' && Number.isInteger(parameter.max) ? parameter.max : -1;
    return [{ id: world.newId(), name: parameter.name, type: parameter.type, position, max, created_at: now, updated_at: now }];
  });
}

const livePolicyOf = (world: PolicyWorld, implementationId: string) =>
  [...world.state.policies.values()].find((policy) => policy.policy_implementation_id === implementationId && !policyIsArchived(policy));

export const policyImplementations: ResourceKind<AnyPolicyImplementation> = {
  noun: 'policy implementation',
  idParam: 'policy_implementation_id',
  listKey: 'implementations',
  items: (state) => state.implementations,
  onchainFields: ['onchain_policy_implementations'],
  matches(implementation, query) {
    const name = queryText(query, 'name');
    return kindListed(isOffchainImplementation(implementation), query) && (name === undefined || implementation.name === name);
  },
  create(raw, world) {
    const body = bodyOf('createPolicyImplementation', raw);
    const taken = [...world.state.implementations.values()].some((existing) => existing.name === body.name && !isArchived(existing));
    if (taken) throw conflict(`a policy implementation named ${JSON.stringify(body.name)} already exists`);
    const onchain = body.onchain_policy_implementations ?? [];
    checkChains(world, onchain.map((entry) => entry.chain_selector), 'onchain_policy_implementations');
    const now = world.nowSeconds();
    const implementation: PolicyImplementation = {
      policy_kind: 'onchain',
      id: world.newId(),
      name: body.name,
      description: body.description,
      type: 'custom',
      policy_config_schema: body.policy_config_schema,
      onchain_policy_implementations: onchain,
      chain_selectors: onchain.map((entry) => entry.chain_selector),
      parameters: runParameters(world, body.policy_config_schema),
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    return implementation;
  },
  replace(implementation, raw, world) {
    const body = bodyOf('replacePolicyImplementation', raw);
    const onchain = body.onchain_policy_implementations ?? [];
    checkChains(world, onchain.map((entry) => entry.chain_selector), 'onchain_policy_implementations');
    const target = implementation as PolicyImplementation;
    target.name = body.name;
    target.description = body.description;
    target.onchain_policy_implementations = onchain;
    target.chain_selectors = onchain.map((entry) => entry.chain_selector);
  },
  frozen: (implementation) =>
    isOffchainImplementation(implementation) ? 'offchain policy implementations are managed by the platform and cannot be changed' : undefined,
  archive(implementation, world) {
    const live = livePolicyOf(world, implementation.id);
    if (live !== undefined) throw conflict(`policy ${live.id} is an instance of this implementation and is not archived`);
  },
};
