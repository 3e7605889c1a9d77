/**
 * The request checks generated from the bundles (`generated/request-checks/`,
 * made by `npm run generate`), applied to every routed request before its
 * handler: path parameters, query parameters, declared headers and the JSON
 * body, as each operation's spec declares them. A request that breaks its
 * spec gets a `RequestProblem` naming the field and what was expected; each
 * API words it in its own error body (`ApiBehaviour.refuseRequest`).
 * Handlers keep only behaviour: state and business refusals.
 */
import { requestChecks as channels } from '../../generated/request-checks/channels.js';
import { requestChecks as coordinator } from '../../generated/request-checks/policy-coordinator.js';
import { requestChecks as evaluation } from '../../generated/request-checks/policy-evaluation.js';
import { requestChecks as reporting } from '../../generated/request-checks/policy-reporting.js';
import { requestChecks as streams } from '../../generated/request-checks/streams.js';
import type { RequestChecks } from '../checks/apply-request-check.js';

export * from '../checks/apply-request-check.js';

/** The checks of the committed bundles. */
export const GENERATED_REQUEST_CHECKS: RequestChecks = {
  channels,
  streams,
  'policy-coordinator': coordinator,
  'policy-evaluation': evaluation,
  'policy-reporting': reporting,
} as unknown as RequestChecks;
