/**
 * The state the three policy APIs share: the coordinator's resources, the
 * evaluations, and the index the reporting API reads (what went onchain,
 * with its history). One object, reset in place, so the three behaviours
 * always see the same organisation.
 */
import type { SandboxClock } from '../clock.js';
import { createChains, type BlockRef, type Chains } from './chain.js';
import { History } from './history.js';
import type {
  AccessGrant,
  AnyPolicy,
  AnyPolicyImplementation,
  ContractType,
  CoordinatorWallet,
  Credential,
  CredentialType,
  CredentialTypeDataSchema,
  DataValidator,
  DefaultBehavior,
  EvaluateRequest,
  EvaluationStatus,
  Extractor,
  Identity,
  Network,
  OffchainPolicyProtection,
  Organization,
  PolicyEngine,
  Registry,
  RegistryUsageEvent,
  ReportingTransaction,
  StoredPermit,
  Target,
  TargetProtection,
} from './model.js';

/** How long the sandbox's asynchronous work takes, in sandbox ms. Every flow ends within a few seconds by default. */
export interface PolicyTimings {
  /** An onchain write (deployment, registration, configuration, removal) from `*_pending` to its final status. */
  onchainMs: number;
  /** An offchain policy's deployment steps (`pending` → `deploying` → `active`), each. */
  offchainStepMs: number;
  /** An evaluation's `evaluating` → `approving`. */
  approvingAfterMs: number;
  /** An evaluation's `approving` → terminal status (from `approving`). */
  terminalAfterMs: number;
  /** From a `ready` evaluation to the protected transaction the sandbox plays for its caller. */
  protectedCallAfterMs: number;
}

export const DEFAULT_TIMINGS: PolicyTimings = {
  onchainMs: 1_000,
  offchainStepMs: 500,
  approvingAfterMs: 1_000,
  terminalAfterMs: 1_000,
  protectedCallAfterMs: 1_000,
};

export interface OffchainProtectionRecord {
  protection: OffchainPolicyProtection;
  targetId: string;
}

export interface EvaluationRecord {
  permitId: string;
  request: EvaluateRequest;
  status: EvaluationStatus;
  reason: string | null;
  workflowExecutionId: string;
}

/** One version of a deployed policy, as the reporting API shows it. */
export interface PolicyVersionValue {
  name: string | null;
  description: string | null;
  owner: string;
  policyEngineAddress: string;
  state: Record<string, unknown>;
}

/** A target's attachment to an engine on one chain. */
export interface AttachmentValue {
  engineDefault: DefaultBehavior;
  targetDefault: DefaultBehavior | null;
}

/** The policies (in order) and extractor of one protected function. */
export interface ProtectedMethodValue {
  extractor: { address: string; block: BlockRef } | null;
  policies: { address: string; parameterNames: string[] }[];
}

/** A wallet address registered to a CCID in one identity registry. */
export interface IdentityAddressValue {
  ccid: string;
  chainSelector: string;
  registryAddress: string;
  address: string;
}

/** A credential of a CCID in one credential registry. */
export interface CredentialValue {
  ccid: string;
  credentialTypeHash: string;
  chainSelector: string;
  registryAddress: string;
  expiresAt: number | null;
  data: unknown;
}

export interface ReportingIndex {
  /** Key: `chain:address` of the policy contract. */
  policies: History<PolicyVersionValue>;
  /** Key: `chain:target:engine`. */
  attachments: History<AttachmentValue>;
  /** Key: `chain:target:engine:selector`. */
  methods: History<ProtectedMethodValue>;
  /** Key: `ccid:chain:registry:address`. */
  identityAddresses: History<IdentityAddressValue>;
  /** Key: `ccid:typeHash:chain:registry`. */
  credentials: History<CredentialValue>;
  /** Registry contracts of the organisation by `chain:address`, with the block that created them. */
  registryContracts: Map<string, { type: 'identity' | 'credential'; block: BlockRef }>;
  transactions: ReportingTransaction[];
  permits: StoredPermit[];
  usage: RegistryUsageEvent[];
}

export interface PolicyState {
  organization: Organization;
  networks: Map<string, Network>;
  engines: Map<string, PolicyEngine>;
  extractors: Map<string, Extractor>;
  contractTypes: Map<string, ContractType>;
  /** The extractors assigned to each contract type (its answers show them as they are now). */
  contractTypeExtractors: Map<string, string[]>;
  implementations: Map<string, AnyPolicyImplementation>;
  targets: Map<string, Target>;
  targetProtections: Map<string, TargetProtection>;
  policies: Map<string, AnyPolicy>;
  offchainProtections: Map<string, OffchainProtectionRecord>;
  /** Key: `policy_id/target_id`. */
  policyGrants: Map<string, AccessGrant[]>;
  /** Key: registry id. */
  registryGrants: Map<string, AccessGrant[]>;
  registries: Map<string, Registry>;
  identities: Map<string, Identity>;
  credentialTypes: Map<string, CredentialType>;
  credentials: Map<string, Credential>;
  dataValidators: Map<string, DataValidator>;
  wallets: Map<string, CoordinatorWallet>;
  /** Data schemas credential types can link (there is no endpoint to create them; the seed provides them). */
  dataSchemas: Map<string, CredentialTypeDataSchema>;
  /** Data validator implementations instances can be created from (seeded). */
  dataValidatorImplementations: Set<string>;
  evaluations: Map<string, EvaluationRecord>;
  index: ReportingIndex;
  chains: Chains;
}

/** What every policy handler works with. */
export interface PolicyWorld {
  readonly state: PolicyState;
  readonly timings: PolicyTimings;
  newId(): string;
  /**
   * Sandbox time, Unix ms. Inside a scheduled change it is the time the
   * change was due, not the (possibly later) time the clock was next read,
   * so a chain of changes keeps its spacing and its timestamps.
   */
  now(): number;
  /** Sandbox time, Unix seconds (the coordinator's timestamps). */
  nowSeconds(): number;
  /** Runs `task` `delayMs` of sandbox time from now. */
  later(delayMs: number, task: () => void): void;
}

/** A world over the sandbox clock. */
export function createWorld(state: PolicyState, clock: SandboxClock, timings: PolicyTimings, newId: () => string): PolicyWorld {
  const now = () => clock.now();
  return {
    state,
    timings,
    newId,
    now,
    nowSeconds: () => Math.floor(now() / 1000),
    later(delayMs, task) {
      const time = now() + delayMs;
      clock.at(time, task);
    },
  };
}

function emptyIndex(): ReportingIndex {
  return {
    policies: new History(),
    attachments: new History(),
    methods: new History(),
    identityAddresses: new History(),
    credentials: new History(),
    registryContracts: new Map(),
    transactions: [],
    permits: [],
    usage: [],
  };
}

export function createEmptyState(organization: Organization): PolicyState {
  return {
    organization,
    networks: new Map(),
    engines: new Map(),
    extractors: new Map(),
    contractTypes: new Map(),
    contractTypeExtractors: new Map(),
    implementations: new Map(),
    targets: new Map(),
    targetProtections: new Map(),
    policies: new Map(),
    offchainProtections: new Map(),
    policyGrants: new Map(),
    registryGrants: new Map(),
    registries: new Map(),
    identities: new Map(),
    credentialTypes: new Map(),
    credentials: new Map(),
    dataValidators: new Map(),
    wallets: new Map(),
    dataSchemas: new Map(),
    dataValidatorImplementations: new Set(),
    evaluations: new Map(),
    index: emptyIndex(),
    chains: createChains(),
  };
}

/** Empties every collection of `state` in place (the behaviours keep references to it). */
export function clearState(state: PolicyState): void {
  for (const value of Object.values(state)) {
    if (value instanceof Map || value instanceof Set) value.clear();
  }
  Object.assign(state.index, emptyIndex());
  state.chains.clear();
}
