// The README's "Is the report genuine?" section says how the trust is read:
// "`readReportTrust` reads it through a viem `PublicClient` you pass". Shown
// here with a real viem PublicClient over a transport that records what
// reaches the node (no chain is needed: no sandbox serves JSON-RPC). The
// title is the sentence (test/support/readme-claim.ts).
import { createPublicClient, custom } from 'viem';
import { expect, it } from 'vitest';
import { readReportTrust } from '../../src/streams/index.js';
import { readmeClaim } from '../support/readme-claim.js';
import { testDon } from '../support/signed-reports.js';
import { configSetLog } from '../support/verifier-logs.js';

const VERIFIER = '0x478Aa2aC9F6D65F84e09D9185d126c3a17c2a93C';
const FEEDS = [
  '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782',
  '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439',
  '0x0003c317fbeb8ae8e3bb2e8a1c2bc9bdc8f3c5b8f0a9f2ad8b1bdc9c0e6b7a11',
] as const;

it(readmeClaim('`readReportTrust` reads it through a viem `PublicClient` you pass'), async () => {
  const don = testDon(1);
  const logs = FEEDS.map((feedId, i) => configSetLog({ verifier: VERIFIER, feedId, block: 10 + i }, `0x0006${String(i).repeat(60)}`, don.f, don.signers.map((s) => s.address)));
  const calls: { method: string; params: unknown }[] = [];
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params: unknown }) {
        calls.push({ method, params });
        return method === 'eth_blockNumber' ? '0x64' : logs;
      },
    }),
  });
  const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: FEEDS, fromBlock: 0n });
  expect(Object.values(trust).map((config) => config.feedID)).toEqual(FEEDS);

  // The latest block, then one page (100 blocks) for every stream asked for, and nothing else asked of the node.
  expect(calls.map((call) => call.method)).toEqual(['eth_blockNumber', 'eth_getLogs']);
  const [filter] = calls[1]!.params as [{ address: string; topics: [string[], string[]] }];
  expect(filter.address).toBe(VERIFIER.toLowerCase());
  expect(filter.topics[1]).toEqual(FEEDS.map((feed) => feed.toLowerCase()));
});
