/**
 * One API's generated request checks, imported when asked for: the command
 * line checks a request against its own API's spec only, and loading every
 * API's (1.8 MB of generated code) would cost each command's start-up.
 */
import type { RequestCheck } from './apply-request-check.js';
import type { SandboxApi } from './apis.js';

type ChecksModule = { requestChecks: unknown };

/** Each API's module of checks, imported on first use. */
const MODULES: Readonly<Record<SandboxApi, () => Promise<ChecksModule>>> = {
  channels: () => import('../../generated/request-checks/channels.js'),
  streams: () => import('../../generated/request-checks/streams.js'),
  'policy-coordinator': () => import('../../generated/request-checks/policy-coordinator.js'),
  'policy-evaluation': () => import('../../generated/request-checks/policy-evaluation.js'),
  'policy-reporting': () => import('../../generated/request-checks/policy-reporting.js'),
};

/** The request checks of `api`, by operationId (the same tables as `GENERATED_REQUEST_CHECKS[api]`). */
export async function requestChecksOf(api: SandboxApi): Promise<Readonly<Record<string, RequestCheck>>> {
  return (await MODULES[api]()).requestChecks as Readonly<Record<string, RequestCheck>>;
}
