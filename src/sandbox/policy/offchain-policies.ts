/**
 * Offchain (managed) policies: a workflow that evaluates calls and writes
 * permits, and a validator contract per chain that checks them. Deployment
 * goes `pending` → `deploying` → `active`; a new configuration
 * `config_updating` → `active`; archiving `removing` → `removed`. Only one
 * offchain policy may be live per organisation (`409`).
 */
import type { OperationHandler } from '../types.js';
import { validatorAddress } from './addresses.js';
import { checkChains } from './chains-check.js';
import { endPolicyContract, indexValidatorVersion } from './indexer.js';
import { isOffchainImplementation, isOffchainPolicy, type OffchainPolicy } from './model.js';
import { checkEngine, liveOffchainPolicy } from './policy-common.js';
import { badRequest, conflict, notFound } from './refusals.js';
import { bodyOf, type CoordinatorSchema } from './request-body.js';
import type { PolicyWorld } from './state.js';

export function createOffchainPolicy(world: PolicyWorld, raw: unknown): OffchainPolicy {
  const body = raw as CoordinatorSchema<'CreateOffchainPolicyRequest'>;
  const live = liveOffchainPolicy(world);
  if (live !== undefined) throw conflict(`the organisation already has an offchain policy (${live.id}); archive it first`);
  const engine = checkEngine(world, body.policy_engine_id);
  const chains = body.onchain_policies.map((entry) => entry.chain_selector);
  checkChains(world, chains, 'onchain_policies');
  const implementation = [...world.state.implementations.values()].find((candidate) => isOffchainImplementation(candidate) && candidate.type === body.type);
  const policy: OffchainPolicy = {
    policy_kind: 'offchain',
    id: world.newId(),
    type: body.type,
    name: body.name,
    config: body.config,
    policy_engine_id: engine.id,
    ...(implementation === undefined ? {} : { policy_implementation_id: implementation.id }),
    chain_selectors: chains,
    action_validators: chains.map((chain) => ({ chain_selector: chain, validator_address: '' })),
    deployment_status: 'pending',
    created_at: new Date(world.now()).toISOString(),
  };
  const step = world.timings.offchainStepMs;
  world.later(step, () => {
    if (policy.deployment_status !== 'pending') return;
    policy.deployment_status = 'deploying';
    policy.workflow_id = world.newId();
    policy.workflow_name = `wallet-risk-scoring-${policy.id.slice(0, 8)}`;
  });
  world.later(2 * step, () => {
    if (policy.deployment_status !== 'deploying') return;
    policy.deployment_status = 'active';
    for (const validator of policy.action_validators ?? []) {
      validator.validator_address = validatorAddress(policy.id, validator.chain_selector);
      indexValidatorVersion(world, policy, validator.chain_selector);
    }
  });
  return policy;
}

export function undeployOffchainPolicy(world: PolicyWorld, policy: OffchainPolicy): void {
  policy.deployment_status = 'removing';
  // The policy's protections go with it: their validator registrations are removed on every chain.
  const protections = [...world.state.offchainProtections.values()]
    .map((record) => record.protection)
    .filter((protection) => protection.offchain_policy_id === policy.id && protection.status !== 'removed');
  for (const protection of protections) {
    protection.status = 'removing';
    for (const entry of protection.onchain_target_protections ?? []) if (entry.status !== 'removed') entry.status = 'removal_pending';
  }
  world.later(world.timings.onchainMs, () => {
    policy.deployment_status = 'removed';
    for (const validator of policy.action_validators ?? []) endPolicyContract(world, validatorAddress(policy.id, validator.chain_selector), validator.chain_selector);
    for (const protection of protections) {
      protection.status = 'removed';
      for (const entry of protection.onchain_target_protections ?? []) entry.status = 'removed';
    }
  });
}

/** `PUT /policies/{policy_id}/config`: redeploys an active offchain policy with a new configuration. */
export function replacePolicyConfigHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const policyId = request.pathParams.policy_id ?? '';
    const policy = world.state.policies.get(policyId.toLowerCase());
    if (policy === undefined) throw notFound(`no policy ${policyId} in this organisation`);
    if (!isOffchainPolicy(policy)) throw badRequest(`policy ${policy.id} is onchain: patch its configuration with PATCH /policies/{policy_id}/configs`);
    const body = bodyOf('replacePolicyConfig', request.body);
    if (policy.deployment_status !== 'active') throw badRequest(`policy ${policy.id} is ${policy.deployment_status}; only an active policy can take a new configuration`);
    policy.config = body.config;
    policy.deployment_status = 'config_updating';
    world.later(world.timings.offchainStepMs, () => {
      if (policy.deployment_status !== 'config_updating') return;
      policy.deployment_status = 'active';
      for (const validator of policy.action_validators ?? []) indexValidatorVersion(world, policy, validator.chain_selector);
    });
    return { status: 202, body: policy };
  };
}
