// Policy in a few lines: request an evaluation and wait for its permit,
// list coordinator policy engines, read reporting transactions of a week.
//
//   POLICY_API_KEY=... npx tsx examples/policy.ts   (POLICY_BASE_URL to change the host)
//   npm run example -- policy      (the same against the offline sandbox)
//
// In your project, import from '@ourteam/service-sdk/policy'.
import {
  createPolicyClient,
  paginateCoordinator,
  paginateReporting,
  PollFailedError,
  requestEvaluation,
  waitForEvaluation,
} from '../src/policy/index.js';

const policy = createPolicyClient({
  apiKey: process.env.POLICY_API_KEY ?? '',
  baseUrl: process.env.POLICY_BASE_URL,
});

const { permit_id, status } = await requestEvaluation(policy, {
  caller_address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  subject: '0xB8f4CC5179D1c68b54003171CD8D06587731C073',
  function_signature: 'transfer(address,uint256)',
  parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount: '1000' },
  chain_selector: '16015286601757825753',
  unique_evaluation_id: `transfer-${Date.now()}`, // the deduplication key: retries are safe
});
console.log('evaluation', permit_id, status);
try {
  await waitForEvaluation(policy, permit_id, { intervalMs: 250, onStatus: (s) => console.log('  status:', s) });
  console.log('permit ready: submit the transaction');
} catch (error) {
  if (error instanceof PollFailedError) console.error('evaluation ended', error.status);
  else throw error;
}

for await (const engine of paginateCoordinator(policy.coordinator, '/policy-engines', { maxItems: 5 })) {
  console.log('policy engine:', engine.name);
}

const to = new Date();
const from = new Date(to.getTime() - 7 * 86_400_000);
for await (const tx of paginateReporting(policy.reporting, '/transactions', {
  params: { query: { from: from.toISOString(), to: to.toISOString() } },
  maxItems: 3,
})) {
  console.log('transaction:', tx.tx_hash);
}
