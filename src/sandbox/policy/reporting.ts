/**
 * The reporting API: read-only answers from the index the coordinator's
 * onchain changes and the evaluations wrote (state.ts). Policies, targets
 * and identities answer as of a point in time (`as_of`, required); lists of
 * transactions, permits and registry uses filter on the block time
 * (`from`/`to`, inclusive) and sort by chain, then block (newest first by
 * default). Every list pages with `page_size` and `page_token` (paging.ts).
 */
import type { OperationHandler } from '../types.js';
import { activityHandlers } from './reporting-activity.js';
import { identityHandlers } from './reporting-identities.js';
import { policyHandlers } from './reporting-policies.js';
import { targetHandlers } from './reporting-targets.js';
import type { PolicyWorld } from './state.js';

export function reportingHandlers(world: PolicyWorld): Record<string, OperationHandler> {
  return {
    getHealth: () => ({ status: 200, body: { status: 'ok' } }),
    ...policyHandlers(world),
    ...targetHandlers(world),
    ...identityHandlers(world),
    ...activityHandlers(world),
  };
}
