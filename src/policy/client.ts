import { apiKeyHeader } from '../core/auth.js';
import { createApiClient, type CommonClientOptions, type SdkClient } from '../core/client.js';
import { checkWithOptions, deriveClients, type WithOptions } from '../core/derived-client.js';
import { baseUrlOption } from '../core/options.js';
import { ConfigurationError } from '../core/errors.js';
import { EMPTY_SUCCESS as COORDINATOR_EMPTY_SUCCESS } from '../../generated/operations/policy-coordinator.js';
import { EMPTY_SUCCESS as EVALUATION_EMPTY_SUCCESS } from '../../generated/operations/policy-evaluation.js';
import { EMPTY_SUCCESS as REPORTING_EMPTY_SUCCESS } from '../../generated/operations/policy-reporting.js';
import type { paths as CoordinatorPathsOf } from '../../generated/types/policy-coordinator.js';
import type { paths as EvaluationPathsOf } from '../../generated/types/policy-evaluation.js';
import type { paths as ReportingPathsOf } from '../../generated/types/policy-reporting.js';
import { API_VERSION as COORDINATOR_VERSION } from '../../generated/operations/policy-coordinator.js';
import { API_VERSION as EVALUATION_VERSION } from '../../generated/operations/policy-evaluation.js';
import { API_VERSION as REPORTING_VERSION } from '../../generated/operations/policy-reporting.js';

/** Every path of the policy coordinator API, as typed from its description. */
export type CoordinatorPaths = CoordinatorPathsOf;
/** Every path of the policy evaluation API, as typed from its description. */
export type EvaluationPaths = EvaluationPathsOf;
/** Every path of the policy reporting API, as typed from its description. */
export type ReportingPaths = ReportingPathsOf;
/** The version (`info.version`) of the policy coordinator API description this client was generated from. */
export const POLICY_COORDINATOR_API_VERSION = COORDINATOR_VERSION;
/** The version (`info.version`) of the policy evaluation API description this client was generated from. */
export const POLICY_EVALUATION_API_VERSION = EVALUATION_VERSION;
/** The version (`info.version`) of the policy reporting API description this client was generated from. */
export const POLICY_REPORTING_API_VERSION = REPORTING_VERSION;

/** The shared host of the three policy APIs. */
export const POLICY_DEFAULT_HOST = 'https://ace.api.chain.link';

/** Options of `createPolicyClient`: the API key, the host, and the limits every client shares. */
export interface PolicyClientOptions extends Omit<CommonClientOptions, 'baseUrl'> {
  /** The organisation API key (`Authorization: Apikey <key>`). Keep it server-side. */
  apiKey: string;
  /** Scheme and host shared by the three APIs. Default `https://ace.api.chain.link`. */
  baseUrl?: string;
  /** Full base URL of one API, overriding the one derived from `baseUrl` (tests, proxies). */
  baseUrls?: Partial<Record<'coordinator' | 'evaluation' | 'reporting', string>>;
}

/** The three policy APIs' typed clients on one host and key: `coordinator`, `evaluation` and `reporting`, made by `createPolicyClient`. */
export interface PolicyClient {
  /** Read-write management: `{host}/v1`. */
  coordinator: SdkClient<CoordinatorPaths>;
  /** Offchain policy evaluations (MVP): `{host}/v1/evaluation`. */
  evaluation: SdkClient<EvaluationPaths>;
  /** Read-only indexed onchain state: `{host}/v1/reporting`. */
  reporting: SdkClient<ReportingPaths>;
  /** The three clients with options added to every call they make: how a helper gets per-call options. */
  withOptions(options: WithOptions): PolicyClient;
}

/** Body fields the evaluation service deduplicates on: a retried `POST /evaluate` with it is safe. */
export const EVALUATION_DEDUP_KEYS = ['unique_evaluation_id'] as const;

/** The policy client's own options beside the common ones (`baseUrls` is taken apart before). */
const POLICY_OPTIONS = ['apiKey'] as const;

/** Typed clients of the coordinator, evaluation and reporting APIs, sharing one key and one host. */
export function createPolicyClient(options: PolicyClientOptions): PolicyClient {
  if (options === null || typeof options !== 'object') throw new ConfigurationError('options', 'expected an object');
  const authHeaders = { Authorization: apiKeyHeader(options.apiKey) };
  const host = baseUrlOption(options.baseUrl ?? POLICY_DEFAULT_HOST).replace(/\/+$/, '');
  const { baseUrls = {}, ...common } = options;
  const base = (api: keyof NonNullable<PolicyClientOptions['baseUrls']>, suffix: string) => ({
    ...common,
    baseUrl: baseUrls[api] ?? `${host}${suffix}`,
  });
  const clients = {
    coordinator: createApiClient<CoordinatorPaths>(base('coordinator', '/v1'), { baseUrl: host, authHeaders, emptySuccess: COORDINATOR_EMPTY_SUCCESS, optionNames: POLICY_OPTIONS }),
    evaluation: createApiClient<EvaluationPaths>(base('evaluation', '/v1/evaluation'), {
      baseUrl: host,
      authHeaders,
      dedupKeys: EVALUATION_DEDUP_KEYS,
      emptySuccess: EVALUATION_EMPTY_SUCCESS,
      optionNames: POLICY_OPTIONS,
    }),
    reporting: createApiClient<ReportingPaths>(base('reporting', '/v1/reporting'), {
      baseUrl: host,
      authHeaders,
      emptySuccess: REPORTING_EMPTY_SUCCESS,
      optionNames: POLICY_OPTIONS,
    }),
  };
  // Not enumerable: the policy client lists (and serialises as) its three clients.
  return Object.defineProperty({ ...clients }, 'withOptions', {
    value: (defaults: WithOptions) => deriveClients(clients, checkWithOptions(defaults)) as PolicyClient,
  }) as PolicyClient;
}
