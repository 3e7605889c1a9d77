/**
 * The policy walk: an evaluation requested and followed to `ready`, the
 * coordinator's policy engines read one per page, and the reporting API's
 * permits and transactions of the last hour.
 */
import {
  collect,
  paginateCoordinator,
  paginateReporting,
  requestEvaluation,
  waitForEvaluation,
  type PolicyClient,
} from '../../src/policy/index.js';
import type { TourOptions } from './channels.js';
import { note, statusTrail, step } from './output.js';

const CALLER = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const TOKEN = '0xB8f4CC5179D1c68b54003171CD8D06587731C073';

export async function policyTour(policy: PolicyClient, { writes, fast }: TourOptions): Promise<void> {
  if (writes) {
    const accepted = await step(
      'policy',
      'request an evaluation (transfer of 1,000)',
      () =>
        requestEvaluation(policy, {
          caller_address: CALLER,
          subject: TOKEN,
          function_signature: 'transfer(address,uint256)',
          parameters: { to: TOKEN, amount: '1000' },
          chain_selector: '16015286601757825753',
          unique_evaluation_id: `demo-${crypto.randomUUID()}`,
        }),
      (e) => `permit ${e.permit_id.slice(0, 12)}… is ${e.status}`,
    );
    const evaluated = statusTrail();
    await step(
      'policy',
      'wait until ready',
      () => waitForEvaluation(policy, accepted.permit_id, { ...(fast ? { intervalMs: 100, backoff: 1, timeoutMs: 30_000 } : {}), onStatus: evaluated.onStatus }),
      (e) => e.status,
    );
    note(String(evaluated));
  } else {
    note('read-only against a real deployment: pass --allow-writes to request an evaluation');
  }

  await step(
    'policy',
    'policy engines, one per page (coordinator)',
    () => collect(paginateCoordinator(policy.coordinator, '/policy-engines', { pageSize: 1, maxItems: 5 })),
    (engines) => `${engines.length} engines over ${engines.length} pages: ${engines.map((e) => e.name).join(', ')}`,
  );
  const to = new Date();
  const from = new Date(to.getTime() - 3_600_000);
  const range = { from: from.toISOString(), to: to.toISOString() };
  await step(
    'policy',
    'permits stored in the last hour (reporting)',
    () => collect(paginateReporting(policy.reporting, '/permits', { params: { query: range }, pageSize: 10, maxItems: 50 })),
    (permits) => `${permits.length} permit${permits.length === 1 ? '' : 's'}`,
  );
  await step(
    'policy',
    'transactions of the last hour (reporting)',
    () => collect(paginateReporting(policy.reporting, '/transactions', { params: { query: range }, pageSize: 10, maxItems: 50 })),
    (transactions) => `${transactions.length} transaction${transactions.length === 1 ? '' : 's'}`,
  );
}
