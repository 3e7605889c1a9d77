/**
 * Cross-organisation access grants: on a registry, or on an offchain policy
 * for one target. Only the owner may list, give or revoke them (`403` for
 * anyone else, and for what does not exist). A grantee holds at most one
 * active grant (`409`); revocation is final, and a revoked grant stays
 * listed with `revoked_at`.
 */
import type { OperationHandler, SandboxRequest } from '../types.js';
import { isOffchainPolicy, type AccessGrant } from './model.js';
import { coordinatorPage } from './paging.js';
import { badRequest, conflict, forbidden, notFound } from './refusals.js';
import { bodyOf } from './request-body.js';
import type { PolicyWorld } from './state.js';

interface GrantScope {
  /** The grants of the resource the request names, or a `403` when the organisation does not own it. */
  grantsOf(request: SandboxRequest, world: PolicyWorld): AccessGrant[];
}

function grantHandlers(scope: GrantScope, world: PolicyWorld): { list: OperationHandler; create: OperationHandler; revoke: OperationHandler } {
  return {
    list: (request) => {
      const page = coordinatorPage(scope.grantsOf(request, world), request.queryParams);
      return { status: 200, body: { access_grants: page.items, total: page.total, total_pages: page.total_pages, page: page.page } };
    },
    create: (request) => {
      const grants = scope.grantsOf(request, world);
      const body = bodyOf('createRegistryAccessGrant', request.body);
      const own = world.state.organization.id;
      if (body.grantee_org_id === own) throw badRequest('an organisation cannot grant access to itself');
      if (grants.some((grant) => grant.grantee_org_id === body.grantee_org_id && grant.status === 'active')) {
        throw conflict(`organisation ${body.grantee_org_id} already holds an active grant`);
      }
      const grant: AccessGrant = { id: world.newId(), grantee_org_id: body.grantee_org_id, grantor_org_id: own, status: 'active', granted_at: world.nowSeconds(), revoked_at: null };
      grants.push(grant);
      return { status: 201, body: grant };
    },
    revoke: (request) => {
      const grants = scope.grantsOf(request, world);
      const grantee = request.pathParams.grantee_org_id ?? '';
      const grant = grants.find((candidate) => candidate.grantee_org_id === grantee && candidate.status === 'active');
      if (grant === undefined) throw notFound(`organisation ${grantee} holds no active grant here`);
      grant.status = 'revoked';
      grant.revoked_at = world.nowSeconds();
      return { status: 200, body: grant };
    },
  };
}

const registryScope: GrantScope = {
  grantsOf(request, world) {
    const id = (request.pathParams.registry_id ?? '').toLowerCase();
    if (!world.state.registries.has(id)) throw forbidden(`registry ${id} is not one this organisation owns`);
    const grants = world.state.registryGrants.get(id) ?? [];
    world.state.registryGrants.set(id, grants);
    return grants;
  },
};

const policyTargetScope: GrantScope = {
  grantsOf(request, world) {
    const policyId = (request.pathParams.policy_id ?? '').toLowerCase();
    const targetId = (request.pathParams.target_id ?? '').toLowerCase();
    const policy = world.state.policies.get(policyId);
    const target = world.state.targets.get(targetId);
    // Evaluation access exists only for offchain policies: an onchain one is as unknown here as a missing one.
    if (policy === undefined || target === undefined || !isOffchainPolicy(policy)) {
      throw forbidden(`this organisation owns no offchain policy ${policyId} on target ${targetId}`);
    }
    const key = `${policyId}/${targetId}`;
    const grants = world.state.policyGrants.get(key) ?? [];
    world.state.policyGrants.set(key, grants);
    return grants;
  },
};

export function accessGrantHandlers(world: PolicyWorld): Record<string, OperationHandler> {
  const registry = grantHandlers(registryScope, world);
  const policyTarget = grantHandlers(policyTargetScope, world);
  return {
    listRegistryAccessGrants: registry.list,
    createRegistryAccessGrant: registry.create,
    revokeRegistryAccessGrant: registry.revoke,
    listPolicyTargetAccessGrants: policyTarget.list,
    createPolicyTargetAccessGrant: policyTarget.create,
    revokePolicyTargetAccessGrant: policyTarget.revoke,
  };
}
