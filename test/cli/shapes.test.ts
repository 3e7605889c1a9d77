// One output shape per command, whatever the number of arguments or
// results: `streams latest` prints one array (one feed ID or several, `[]`
// when --verify refuses every report); a wait that ends in a failure status
// prints its resource after --filter and in the --output format, as the
// settled, timed-out and interrupted waits do.
import { describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
const SEPOLIA = '16015286601757825753';
const CALLER = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';
const STRANGERS = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333', '0x4444444444444444444444444444444444444444'];

describe('output shapes', () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);

  it(readmeClaim('`streams latest` prints one JSON array of reports, in the order given, for one feed ID as for several'), async () => {
    const one = await cli(['streams', 'latest', ETH_USD], { env: env() });
    const two = await cli(['streams', 'latest', ETH_USD, BTC_USD], { env: env() });
    expect([one.code, one.json.map((report: { feedID: string }) => report.feedID)]).toEqual([0, [ETH_USD]]);
    expect([two.code, two.json.map((report: { feedID: string }) => report.feedID)]).toEqual([0, [ETH_USD, BTC_USD]]);
    const filtered = await cli(['streams', 'latest', ETH_USD, '--filter', '[].feedID'], { env: env() });
    expect(filtered.json).toEqual([ETH_USD]);
  });

  it(readmeClaim('when `--verify` refuses every report it prints `[]` and exits `1`'), async () => {
    const trust = Object.fromEntries(Object.entries(live.sandbox.reportTrust as Record<string, { f: number }>).map(([digest, config]) => [digest, { f: config.f, signers: STRANGERS }]));
    const run = await cli(['streams', 'latest', ETH_USD, '--verify', '--trust', JSON.stringify(trust)], { env: env() });
    expect([run.code, run.json, run.stderr]).toEqual([1, [], expect.stringContaining(`${ETH_USD}: `)]);
  });

  it(readmeClaim('A wait that ends in a failure status prints that resource (exit `1`)'), async () => {
    const body = JSON.stringify({
      caller_address: CALLER,
      subject: TOKEN,
      function_signature: 'transfer(address,uint256)',
      parameters: { to: TOKEN, amount: '2500', sandbox_outcome: 'rejected' },
      permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
      chain_selector: SEPOLIA,
      unique_evaluation_id: 'shapes-rejected',
    });
    const wait = ['evaluation', 'request-evaluation', '--wait', '--wait-interval', '100', '--data', body];
    const filtered = await cli([...wait, '--filter', 'status'], { env: env() });
    expect([filtered.code, filtered.stdout, filtered.stderr]).toEqual([1, '"rejected"\n', expect.stringContaining('ended in status `rejected`')]);
    const table = await cli([...wait, '--output', 'table'], { env: env() });
    expect([table.code, table.stdout]).toEqual([1, expect.stringMatching(/^FIELD +VALUE\n(.*\n)*status +rejected\n/)]);
  });
});
