/**
 * Which refusals each coordinator operation documents (besides the `401`,
 * `429` and `500` every one has), copied from the bundle; a sandbox test
 * checks this table against `generated/openapi/policy-coordinator.yaml`.
 *
 * The published coordinator documents its refusals unevenly: registries and
 * identities answer `403`, never `404`, for what they cannot find; `POST
 * /targets` documents only `409`. Handlers refuse with the status the situation calls for, and
 * `documentedStatus` moves it to the one the operation documents, so every
 * answer stays within the spec. Where an operation documents no fitting
 * status the natural one is kept, and the answer validator reports the gap.
 * A moved refusal keeps its own label (`documentedRefusal`): the status is
 * what the spec allows, the `error` says what went wrong.
 */
import type { OperationId } from '../../../generated/operations/policy-coordinator.js';
import { SandboxHttpError } from '../types.js';

export const DOCUMENTED_REFUSALS: Readonly<Record<OperationId, readonly number[]>> = {
  getHealthCheck: [],
  getOrganization: [],
  listPolicyEngines: [400],
  createPolicyEngine: [400, 409],
  getPolicyEngine: [404],
  replacePolicyEngine: [400, 404],
  archivePolicyEngine: [400, 404],
  listExtractors: [400],
  createExtractor: [400],
  getExtractor: [404],
  replaceExtractor: [400, 404],
  archiveExtractor: [400, 404],
  listContractTypes: [400],
  createContractType: [400],
  getContractType: [404],
  archiveContractType: [400, 404],
  listPolicyImplementations: [400],
  createPolicyImplementation: [409],
  getPolicyImplementation: [404],
  replacePolicyImplementation: [400, 404],
  archivePolicyImplementation: [400, 404, 409],
  listTargets: [400],
  createTarget: [409],
  getTarget: [404],
  replaceTarget: [400, 404],
  archiveTarget: [400, 404, 409],
  mergeTargets: [400, 404, 409],
  listTargetProtections: [400],
  createTargetProtection: [400, 404, 409],
  getTargetProtection: [404],
  replaceTargetProtection: [400, 404],
  archiveTargetProtection: [400, 404],
  listPolicies: [400],
  createPolicy: [400, 404, 409],
  getPolicy: [404],
  replacePolicy: [400, 404],
  archivePolicy: [400, 404, 409],
  listPolicyProtections: [400, 404],
  getPolicyProtection: [404],
  deletePolicyProtection: [404],
  replacePolicyConfig: [400, 404],
  patchPolicyConfigs: [400, 404],
  replaceOnchainPolicy: [400, 404],
  listPolicyTargetAccessGrants: [400, 403],
  createPolicyTargetAccessGrant: [400, 403, 409],
  revokePolicyTargetAccessGrant: [403, 404],
  listRegistries: [400],
  createRegistry: [409],
  getRegistry: [403],
  replaceRegistry: [400, 404, 409],
  archiveRegistry: [400, 404, 409],
  listRegistryAccessGrants: [400, 403],
  createRegistryAccessGrant: [400, 403, 409],
  revokeRegistryAccessGrant: [400, 403, 404],
  listIdentities: [400, 403],
  createIdentity: [400],
  createIdentitiesBatch: [400, 409],
  getIdentity: [403],
  replaceIdentity: [400, 404],
  updateIdentity: [400, 404],
  listCredentialTypes: [400, 403],
  createCredentialType: [400, 409],
  getCredentialType: [403],
  replaceCredentialType: [400, 404],
  updateCredentialType: [400, 404, 409],
  listCredentials: [400, 403],
  createCredential: [400, 409],
  getCredential: [403],
  replaceCredential: [400, 404],
  updateCredential: [400, 404],
  listDataValidators: [400],
  createDataValidator: [400, 404],
  getDataValidator: [404],
  replaceDataValidator: [400, 404],
  archiveDataValidator: [400, 404, 409],
  patchDataValidatorConfigs: [400, 404, 409],
  listWallets: [],
  createWallets: [400, 409],
  listNetworks: [400],
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

/**
 * A handler's refusal as the operation documents it. The status moves
 * (`documentedStatus`); the label (`AceError.error`, from the refusal's
 * `type`) does not: a missing field on `POST /targets`, which documents only
 * `409`, is a `409` labelled `Bad request`, not `Already exists`, since
 * callers branch on `error`. A `403` standing in for a `404` is the
 * exception: the service hides what it cannot show, so it reads `Forbidden`.
 */
export function documentedRefusal(operationId: OperationId, refusal: SandboxHttpError): SandboxHttpError {
  const status = documentedStatus(operationId, refusal.status);
  if (status === refusal.status) return refusal;
  const type = status === 403 ? 'FORBIDDEN' : refusal.type;
  return new SandboxHttpError(status, type, refusal.message, refusal.code, refusal.headers);
}
