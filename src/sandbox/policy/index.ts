/**
 * The three policy APIs of the sandbox (coordinator, evaluation, reporting)
 * over one shared state: what the coordinator creates is what evaluations
 * use and what reporting indexes. See each module for its behaviour:
 * resources.ts (the generic coordinator handlers) with engines.ts,
 * implementations.ts, policies.ts, offchain-policies.ts, targets.ts,
 * protections.ts, registries.ts, identities.ts, credentials.ts,
 * platform.ts and grants.ts;
 * evaluation.ts; reporting.ts.
 */
import type { OperationId as CoordinatorOperationId } from '../../../generated/operations/policy-coordinator.js';
import { operations as coordinatorOperations } from '../../../generated/operations/policy-coordinator.js';
import { operations as evaluationOperations } from '../../../generated/operations/policy-evaluation.js';
import { operations as reportingOperations } from '../../../generated/operations/policy-reporting.js';
import { apiKeyOf } from '../auth.js';
import type { BehaviourContext } from '../context.js';
import { SandboxViolationError } from '../errors.js';
import { SandboxHttpError, type ApiBehaviour, type AuthInput, type OperationHandler, type SandboxAnswer, type SandboxApi } from '../types.js';
import { documentedRefusal } from './coordinator-refusals.js';
import { contractTypes, extractors, policyEngines } from './engines.js';
import { evaluationHandlers } from './evaluation.js';
import { accessGrantHandlers } from './grants.js';
import { credentialTypes, credentials, updateCredentialHandler, updateCredentialTypeHandler } from './credentials.js';
import { createIdentitiesBatchHandler, identities, updateIdentityHandler } from './identities.js';
import { registries } from './registries.js';
import { dataValidators, networks, patchDataValidatorConfigsHandler, platformHandlers, walletHandlers } from './platform.js';
import { policyImplementations } from './implementations.js';
import { replacePolicyConfigHandler } from './offchain-policies.js';
import { archivePolicyHandler, patchPolicyConfigsHandler, policies, resyncOnchainPolicyHandler } from './policies.js';
import { aceErrorAnswer, reportingErrorAnswer } from './refusals.js';
import { reportingHandlers } from './reporting.js';
import { policyRequestRefusal } from './request-refusal.js';
import { resourceHandlers, type ResourceKind, type Stored } from './resources.js';
import { sandboxOrganization, seedState } from './seed.js';
import { clearState, createEmptyState, createWorld, DEFAULT_TIMINGS, type PolicyTimings, type PolicyWorld } from './state.js';
import {
  archiveTargetProtectionHandler,
  createTargetProtectionHandler,
  offchainProtectionHandlers,
  replaceTargetProtectionHandler,
  targetProtections,
} from './protections.js';
import { mergeTargetsHandler, targets } from './targets.js';

export { SANDBOX_POLICY_IDS, SANDBOX_ORGANIZATION_ID } from './seed.js';
export { SANDBOX_OUTCOMES, SANDBOX_FAILURE_STAGES } from './evaluation.js';
export { DEFAULT_TIMINGS, type PolicyTimings } from './state.js';

export interface PolicyBehaviourOptions {
  /** How long asynchronous work takes, in sandbox ms (defaults: DEFAULT_TIMINGS). */
  timings?: Partial<PolicyTimings>;
}

type Verb = 'list' | 'get' | 'create' | 'replace' | 'archive';

/** The coordinator's resources and the operations the generic handlers serve for each. */
function resourceTable(): [ResourceKind<Stored>, Partial<Record<Verb, CoordinatorOperationId>>][] {
  const entry = <T extends Stored>(kind: ResourceKind<T>, operations: Partial<Record<Verb, CoordinatorOperationId>>) =>
    [kind as unknown as ResourceKind<Stored>, operations] as [ResourceKind<Stored>, Partial<Record<Verb, CoordinatorOperationId>>];
  return [
    entry(policyEngines, { list: 'listPolicyEngines', create: 'createPolicyEngine', get: 'getPolicyEngine', replace: 'replacePolicyEngine', archive: 'archivePolicyEngine' }),
    entry(extractors, { list: 'listExtractors', create: 'createExtractor', get: 'getExtractor', replace: 'replaceExtractor', archive: 'archiveExtractor' }),
    entry(contractTypes, { list: 'listContractTypes', create: 'createContractType', get: 'getContractType', archive: 'archiveContractType' }),
    entry(policyImplementations, {
      list: 'listPolicyImplementations',
      create: 'createPolicyImplementation',
      get: 'getPolicyImplementation',
      replace: 'replacePolicyImplementation',
      archive: 'archivePolicyImplementation',
    }),
    entry(targets, { list: 'listTargets', create: 'createTarget', get: 'getTarget', replace: 'replaceTarget', archive: 'archiveTarget' }),
    entry(targetProtections, { list: 'listTargetProtections', get: 'getTargetProtection' }),
    entry(policies, { list: 'listPolicies', create: 'createPolicy', get: 'getPolicy', replace: 'replacePolicy' }),
    entry(registries, { list: 'listRegistries', create: 'createRegistry', get: 'getRegistry', replace: 'replaceRegistry', archive: 'archiveRegistry' }),
    entry(identities, { list: 'listIdentities', create: 'createIdentity', get: 'getIdentity', replace: 'replaceIdentity' }),
    entry(credentialTypes, { list: 'listCredentialTypes', create: 'createCredentialType', get: 'getCredentialType', replace: 'replaceCredentialType' }),
    entry(credentials, { list: 'listCredentials', create: 'createCredential', get: 'getCredential', replace: 'replaceCredential' }),
    entry(dataValidators, { list: 'listDataValidators', create: 'createDataValidator', get: 'getDataValidator', replace: 'replaceDataValidator', archive: 'archiveDataValidator' }),
    entry(networks, { list: 'listNetworks', get: 'getNetwork' }),
  ];
}

/** Refusals leave with the status the operation documents for them (coordinator-refusals.ts). */
function withDocumentedRefusals(operationId: CoordinatorOperationId, handler: OperationHandler): OperationHandler {
  return (request) => {
    try {
      return handler(request);
    } catch (error) {
      if (!(error instanceof SandboxHttpError)) throw error;
      throw documentedRefusal(operationId, error);
    }
  };
}

function coordinatorHandlers(world: PolicyWorld): Record<string, OperationHandler> {
  const handlers: Record<string, OperationHandler> = {
    ...Object.assign({}, ...resourceTable().map(([kind, operations]) => resourceHandlers(kind, world, operations))),
    mergeTargets: mergeTargetsHandler(world),
    createTargetProtection: createTargetProtectionHandler(world),
    replaceTargetProtection: replaceTargetProtectionHandler(world),
    archiveTargetProtection: archiveTargetProtectionHandler(world),
    archivePolicy: archivePolicyHandler(world),
    ...offchainProtectionHandlers(world),
    replacePolicyConfig: replacePolicyConfigHandler(world),
    patchPolicyConfigs: patchPolicyConfigsHandler(world),
    replaceOnchainPolicy: resyncOnchainPolicyHandler(world),
    ...accessGrantHandlers(world),
    createIdentitiesBatch: createIdentitiesBatchHandler(world),
    updateIdentity: updateIdentityHandler(world),
    updateCredentialType: updateCredentialTypeHandler(world),
    updateCredential: updateCredentialHandler(world),
    patchDataValidatorConfigs: patchDataValidatorConfigsHandler(world),
    ...walletHandlers(world),
    ...platformHandlers(world),
  };
  return Object.fromEntries(
    Object.entries(handlers).map(([operationId, handler]) => [operationId, withDocumentedRefusals(operationId as CoordinatorOperationId, handler)]),
  );
}

/**
 * Fails at construction, loudly, when a handler names no operation of its
 * spec (a typo). An operation with no handler is answered 501 by the
 * dispatch (a spec bump ahead of its handler), and listed by `npm run spec:bump`.
 */
function checkComplete(api: SandboxApi, handlers: Record<string, OperationHandler>, operations: Record<string, unknown>): Record<string, OperationHandler> {
  const extra = Object.keys(handlers).filter((operationId) => !(operationId in operations));
  if (extra.length > 0) {
    throw new SandboxViolationError(extra.join(', '), `the ${api} handlers name operations its spec does not have: ${extra.join(', ')}`);
  }
  return handlers;
}

/** Health checks answer anyone; every other operation needs the sandbox's policy API key. */
const ANONYMOUS = new Set(['getHealthCheck', 'getHealth']);

export function createPolicyBehaviours(context: BehaviourContext, options: PolicyBehaviourOptions = {}): ApiBehaviour[] {
  const { clock } = context;
  const state = createEmptyState(sandboxOrganization(Math.floor(clock.now() / 1000)));
  const world = createWorld(state, clock, { ...DEFAULT_TIMINGS, ...options.timings }, context.newId);
  seedState(world);

  const authenticator =
    (errorAnswer: (error: SandboxHttpError) => SandboxAnswer) =>
    (input: AuthInput): 'ok' | 'anonymous' | SandboxAnswer => {
      if (apiKeyOf(input.headers) === context.credentials.policy.apiKey) return 'ok';
      if (ANONYMOUS.has(input.operationId)) return 'anonymous';
      const refusal = input.headers.has('authorization')
        ? 'the API key is not valid (send Authorization: Apikey <API_KEY>)'
        : 'missing Authorization header (send Authorization: Apikey <API_KEY>)';
      return errorAnswer(new SandboxHttpError(401, 'UNAUTHORIZED', refusal));
    };
  const reset = () => {
    clearState(world.state);
    seedState(world);
  };
  const behaviour = (
    api: SandboxApi,
    handlers: Record<string, OperationHandler>,
    operations: Record<string, unknown>,
    errorAnswer: (error: SandboxHttpError) => SandboxAnswer,
  ): ApiBehaviour => ({
    api,
    handlers: checkComplete(api, handlers, operations),
    authenticate: authenticator(errorAnswer),
    errorAnswer,
    // The coordinator's refusals leave with the status its operation documents, as its handlers' do.
    refuseRequest: (problem, operationId) =>
      api === 'policy-coordinator' ? documentedRefusal(operationId as CoordinatorOperationId, policyRequestRefusal(problem)) : policyRequestRefusal(problem),
    reset,
  });

  return [
    behaviour('policy-coordinator', coordinatorHandlers(world), coordinatorOperations, aceErrorAnswer),
    behaviour('policy-evaluation', evaluationHandlers(world), evaluationOperations, aceErrorAnswer),
    behaviour('policy-reporting', reportingHandlers(world), reportingOperations, reportingErrorAnswer),
  ];
}
