/**
 * The policy APIs' resource types, from the generated spec types: what the
 * sandbox stores is exactly what it answers, so the compiler checks every
 * built resource against the response schemas.
 */
import type { components as Coordinator } from '../../../generated/types/policy-coordinator.js';
import type { components as Evaluation } from '../../../generated/types/policy-evaluation.js';
import type { components as Reporting } from '../../../generated/types/policy-reporting.js';

type C = Coordinator['schemas'];
export type Organization = C['Organization'];
export type Network = C['Network'];
export type PolicyEngine = C['PolicyEngine'];
export type Extractor = C['Extractor'];
export type ContractType = C['ContractType'];
export type ContractTypeFunction = C['ContractTypeFunction'];
export type PolicyImplementation = C['PolicyImplementation'];
export type OffchainPolicyImplementation = C['OffchainPolicyImplementation'];
export type AnyPolicyImplementation = C['AnyPolicyImplementation'];
export type Target = C['Target'];
export type TargetProtection = C['TargetProtection'];
export type OffchainPolicyProtection = C['OffchainPolicyProtection'];
export type Policy = C['Policy'];
export type OffchainPolicy = C['OffchainPolicy'];
export type AnyPolicy = C['AnyPolicy'];
export type OnchainPolicyInstance = C['OnchainPolicyInstance'];
export type JsonPatchOperation = C['JsonPatchOperation'];
export type AccessGrant = C['AccessGrant'];
export type Registry = C['Registry'];
export type IdentityRegistry = C['IdentityRegistry'];
export type CredentialRegistry = C['CredentialRegistry'];
export type Identity = C['Identity'];
export type OnchainIdentity = C['OnchainIdentity'];
export type CredentialType = C['CredentialType'];
export type CredentialTypeDataSchema = C['CredentialTypeDataSchema'];
export type Credential = C['Credential'];
export type DataValidator = C['DataValidator'];
export type CoordinatorWallet = C['CoordinatorWallet'];
export type WalletRiskScoringConfig = C['WalletRiskScoringConfig'];

export type EvaluationStatus = Evaluation['schemas']['EvaluationRunStatus'];
export type EvaluateRequest = Evaluation['schemas']['EvaluateRequest'];
export type EvaluationDetail = Evaluation['schemas']['EvaluationDetailResponse'];

type R = Reporting['schemas'];
export type ReportingPolicy = R['PolicyData'];
export type ReportingTarget = R['TargetData'];
export type ReportingIdentity = R['IdentityData'];
export type ReportingTransaction = R['TransactionData'];
export type ReportingPolicyRunPolicy = R['PolicyRunPolicyDetail'];
export type StoredPermit = R['StoredPermit'];
export type RegistryUsageEvent = R['RegistryUsageEvent'];
export type DefaultBehavior = R['DefaultBehavior'];

export const isOffchainPolicy = (policy: AnyPolicy): policy is OffchainPolicy => policy.policy_kind === 'offchain';
export const isOffchainImplementation = (implementation: AnyPolicyImplementation): implementation is OffchainPolicyImplementation =>
  implementation.policy_kind === 'offchain';
