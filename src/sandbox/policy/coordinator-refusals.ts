/**
 * Which refusals each coordinator operation documents (besides the `401`,
 * `429` and `500` every one has), copied from the bundle; a sandbox test
 * checks this table against `generated/openapi/policy-coordinator.yaml`.
 *
 * The published coordinator documents its refusals unevenly: registries and
 * identities answer `403`, never `404`, for what they cannot find; `POST
 * /targets` documents only `409`; `POST /identities` documents no refusal at
 * all. Handlers refuse with the status the situation calls for, and
 * `documentedStatus` moves it to the one the operation documents, so every
 * answer stays within the spec. Where an operation documents no fitting
 * status the natural one is kept, and the answer validator reports the gap.
 */
import type { OperationId } from '../../../generated/operations/policy-coordinator.js';

export const DOCUMENTED_REFUSALS: Readonly<Record<OperationId, readonly number[]>> = {
  getHealthCheck: [],
  getOrganization: [],
  listPolicyEngines: [],
  createPolicyEngine: [400, 409],
  getPolicyEngine: [404],
  replacePolicyEngine: [400, 404],
  archivePolicyEngine: [400, 404],
  listExtractors: [],
  createExtractor: [400],
  getExtractor: [404],
  replaceExtractor: [400, 404],
  archiveExtractor: [400, 404],
  listContractTypes: [],
  createContractType: [400],
  getContractType: [404],
  archiveContractType: [400, 404],
  listPolicyImplementations: [],
  createPolicyImplementation: [409],
  getPolicyImplementation: [404],
  replacePolicyImplementation: [400, 404],
  archivePolicyImplementation: [400, 404, 409],
  listTargets: [],
  createTarget: [409],
  getTarget: [404],
  replaceTarget: [400, 404],
  archiveTarget: [400, 404, 409],
  mergeTargets: [400, 404, 409],
  listTargetProtections: [],
  createTargetProtection: [400, 404, 409],
  getTargetProtection: [404],
  replaceTargetProtection: [400, 404],
  archiveTargetProtection: [400, 404],
  listPolicies: [],
  createPolicy: [400, 404, 409],
  getPolicy: [404],
  replacePolicy: [400, 404],
  archivePolicy: [400, 404, 409],
  listPolicyProtections: [404],
  getPolicyProtection: [404],
  deletePolicyProtection: [404],
  replacePolicyConfig: [400, 404],
  patchPolicyConfigs: [400, 404],
  replaceOnchainPolicy: [400, 404],
  listPolicyTargetAccessGrants: [403],
  createPolicyTargetAccessGrant: [400, 403, 409],
  revokePolicyTargetAccessGrant: [403, 404],
  listRegistries: [],
  createRegistry: [409],
  getRegistry: [403],
  replaceRegistry: [400, 404, 409],
  archiveRegistry: [400, 404, 409],
  listRegistryAccessGrants: [403],
  createRegistryAccessGrant: [400, 403, 409],
  revokeRegistryAccessGrant: [400, 403, 404],
  listIdentities: [403],
  createIdentity: [],
  createIdentitiesBatch: [400, 409],
  getIdentity: [403],
  replaceIdentity: [400, 404],
  updateIdentity: [400, 404],
  listCredentialTypes: [403],
  createCredentialType: [400, 409],
  getCredentialType: [403],
  replaceCredentialType: [400, 404],
  updateCredentialType: [400, 404, 409],
  listCredentials: [403],
  createCredential: [400, 409],
  getCredential: [403],
  replaceCredential: [400, 404],
  updateCredential: [400, 404],
  listDataValidators: [],
  createDataValidator: [400, 404],
  getDataValidator: [404],
  replaceDataValidator: [400, 404],
  archiveDataValidator: [400, 404, 409],
  patchDataValidatorConfigs: [400, 404, 409],
  listWallets: [],
  createWallets: [400, 409],
  listNetworks: [],
  getNetwork: [404],
};

/**
 * The nearest documented status for a refusal, in order of fit. `403` stands
 * in for `404` where the service hides what it cannot show; `409` ("conflicts
 * with the current state") for a `400` or `404` on operations that document
 * only it. A malformed page is never called forbidden.
 */
const NEAREST: Readonly<Record<number, readonly number[]>> = {
  400: [409],
  403: [404],
  404: [403, 409, 400],
  409: [400],
};

export function documentedStatus(operationId: OperationId, status: number): number {
  const documented = DOCUMENTED_REFUSALS[operationId];
  if (documented.includes(status)) return status;
  return NEAREST[status]?.find((candidate) => documented.includes(candidate)) ?? status;
}
