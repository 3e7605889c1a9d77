/** What the policy modules ask of the state: which policies are live, which engine a policy may use. */
import { isOffchainPolicy, type AnyPolicy, type OffchainPolicy } from './model.js';
import { queryEnum, type QueryValues } from './query.js';
import { badRequest, notFound } from './refusals.js';
import { isArchived } from './resources.js';
import type { PolicyWorld } from './state.js';

/** Whether an item of `kind` is listed for `policy_kind` (its declared default: onchain items only). */
export function kindListed(offchain: boolean, query: QueryValues): boolean {
  const wanted = queryEnum<'onchain' | 'offchain' | 'all'>(query, 'policy_kind');
  return wanted === 'all' || (wanted === 'offchain') === offchain;
}

/** An onchain policy is archived once `archived_at` is set; an offchain one once its undeployment started. */
export function policyIsArchived(policy: AnyPolicy): boolean {
  if (isOffchainPolicy(policy)) return policy.deployment_status === 'removing' || policy.deployment_status === 'removed';
  return isArchived(policy);
}

export function checkEngine(world: PolicyWorld, engineId: string) {
  const engine = world.state.engines.get(engineId);
  if (engine === undefined) throw notFound(`no policy engine ${engineId} in this organisation`);
  if (engine.type === 'system') throw badRequest('the system policy engine cannot be used for policies');
  if (isArchived(engine)) throw badRequest(`policy engine ${engineId} is archived`);
  return engine;
}

/** The organisation's live offchain policy: one that is not removed or failed. */
export function liveOffchainPolicy(world: PolicyWorld): OffchainPolicy | undefined {
  return [...world.state.policies.values()].find(
    (policy): policy is OffchainPolicy => isOffchainPolicy(policy) && policy.deployment_status !== 'removed' && policy.deployment_status !== 'failed',
  );
}

/** The offchain policy named by the path, or `404` (also for an onchain one: these operations are offchain only). */
export function findOffchainPolicy(world: PolicyWorld, policyId: string): OffchainPolicy {
  const policy = world.state.policies.get(policyId.toLowerCase());
  if (policy === undefined || !isOffchainPolicy(policy)) throw notFound(`no offchain policy ${policyId} in this organisation`);
  return policy;
}
