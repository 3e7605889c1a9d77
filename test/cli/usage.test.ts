// Bad usage exits 2 with no request sent, naming the flag or parameter and
// what the spec expects: one case per kind of parameter (path and query;
// uuid, pattern, enum, integer and its bounds, boolean, list, date-time), a
// body that does not parse (with its position), unknown names, and the
// options of the command line itself. A local server counts requests.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { cli } from './support/run-cli.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const CHANNEL = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

let server: LocalServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startLocalServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  env = {
    SERVICE_SDK_CHANNELS_BASE_URL: server.origin,
    SERVICE_SDK_CHANNELS_API_KEY: 'usage-test-key',
    SERVICE_SDK_STREAMS_BASE_URL: server.origin,
    SERVICE_SDK_STREAMS_API_KEY: '8f7dd029-f755-432b-a838-87108e6f7f53',
    SERVICE_SDK_STREAMS_API_SECRET: 'usage-test-secret',
    SERVICE_SDK_POLICY_BASE_URL: server.origin,
    SERVICE_SDK_POLICY_API_KEY: 'usage-test-key',
  };
});
afterAll(() => server.close());

const cases: [kind: string, argv: string[], stderr: RegExp][] = [
  ['unknown command', ['chanels', 'list-wallets'], /unknown command "chanels" \(did you mean channels\?\)/],
  ['unknown operation', ['channels', 'list-walets'], /unknown channels operation "list-walets" \(did you mean list-wallets\?\)/],
  ['unknown flag', ['channels', 'list-wallets', '--limt', '5'], /unknown flag --limt \(did you mean --limit\?\)/],
  ['missing required path parameter', ['channels', 'get-wallet'], /missing required --wallet-id \(path parameter wallet_id\)/],
  ['missing required query parameter', ['reporting', 'list-policies'], /missing required --as-of \(query parameter as_of\)/],
  ['path uuid', ['channels', 'get-wallet', '--wallet-id', 'not-a-uuid'], /--wallet-id: expected a UUID, got "not-a-uuid"/],
  ['path pattern', ['reporting', 'get-transaction', '--chain-selector', 'sepolia', '--tx-hash', `0x${'ab'.repeat(32)}`], /--chain-selector: expected a string matching \^\[0-9\]\{1,20\}\$, got "sepolia"/],
  ['query pattern', ['streams', 'get-latest-report', '--feed-id', '0x12'], /--feed-id: expected a string matching .*, got "0x12"/],
  ['query enum', ['channels', 'list-wallets', '--chain-environment', 'devnet'], /--chain-environment: expected one of mainnet, testnet, got "devnet"/],
  ['query integer', ['channels', 'list-wallets', '--limit', 'ten'], /--limit: expected an integer, got "ten"/],
  ['query integer bounds', ['channels', 'list-wallets', '--limit', '101'], /--limit: expected a number <= 100, got 101/],
  ['query boolean', ['coordinator', 'list-targets', '--include-granted=maybe'], /--include-granted: expected true or false, got "maybe"/],
  ['query list item', ['streams', 'get-bulk-reports', '--feed-ids', `${ETH_USD},0x12`, '--timestamp', '1700000000'], /--feed-ids: expected a string matching .*"0x12"/],
  ['query date-time', ['reporting', 'list-policies', '--as-of', 'yesterday'], /--as-of: expected an RFC 3339 date-time .*, got "yesterday"/],
  ['body that does not parse', ['channels', 'create-channel', '--data', '{"name": }'], /--data: not valid JSON at line 1, column 10 \(position 9\)/],
  ['missing required body', ['channels', 'create-channel'], /missing --data: create-channel needs a JSON request body/],
  ['body on an operation without one', ['channels', 'get-channel', '--channel-id', CHANNEL, '--data', '{}'], /--data: get-channel takes no request body/],
  ['body file that is missing', ['channels', 'create-channel', '--data', '@/nonexistent/body.json'], /--data @\/nonexistent\/body.json: cannot read the file \(ENOENT\)/],
  ['positional argument', ['channels', 'get-channel', CHANNEL], /unexpected argument/],
  ['--output', ['channels', 'list-wallets', '--output', 'yaml'], /--output: expected one of json\|ndjson\|table, got "yaml"/],
  ['--filter', ['channels', 'list-wallets', '--filter', 'data[?'], /--filter: not a valid JMESPath expression/],
  ['--all on an operation that does not page', ['channels', 'get-channel', '--channel-id', CHANNEL, '--all'], /--all: get-channel is not a list that pages/],
  ['--wait on an operation that starts nothing', ['channels', 'list-wallets', '--wait'], /--wait: list-wallets starts no work to wait for/],
  ['--network', ['streams', 'list-streams', '--network', 'devnet'], /--network: expected one of testnet\|mainnet/],
  ['streams latest without a feed', ['streams', 'latest'], /expected at least one feed ID/],
  ['streams latest with a bad feed', ['streams', 'latest', '0x12'], /feed ID "0x12": expected a string matching/],
  ['streams watch with a base URL of its own and no WebSocket host', ['streams', 'watch', ETH_USD], /streams watch: .*give --ws-url \(or SERVICE_SDK_STREAMS_WS_URL\)/],
];

describe('bad usage: exit 2, nothing sent', () => {
  it.each(cases)('%s', async (_kind, argv, stderr) => {
    const before = server.requests.length;
    const run = await cli(argv, { env });
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(stderr)]);
    expect(server.requests.length).toBe(before);
  });

  it('a missing API key names the flag and the environment variable', async () => {
    const run = await cli(['channels', 'list-wallets'], { env: { SERVICE_SDK_CHANNELS_BASE_URL: server.origin } });
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining('pass --api-key, set SERVICE_SDK_CHANNELS_API_KEY')]);
  });

  it('the same requests, well formed, are sent (the cases above fail for the reason named)', async () => {
    const before = server.requests.length;
    for (const argv of [
      ['channels', 'list-wallets', '--limit', '100', '--chain-environment', 'testnet'],
      ['coordinator', 'list-targets', '--include-granted'],
      ['streams', 'get-bulk-reports', '--feed-ids', ETH_USD, '--feed-ids', ETH_USD.replace(/2$/, '3'), '--timestamp', '1700000000'],
      ['reporting', 'list-policies', '--as-of', '2026-03-04T09:15:27Z'],
      ['channels', 'create-channel', '--data', '{"name": "x"}'],
    ]) {
      const run = await cli(argv, { env });
      expect([argv.join(' '), run.code, run.stderr]).toEqual([argv.join(' '), 0, '']);
    }
    expect(server.requests.length - before).toBe(5);
    const bulk = server.requests.find((request) => request.url.startsWith('/api/v1/reports/bulk'))!;
    expect(new URL(bulk.url, server.origin).searchParams.get('feedIDs')).toBe(`${ETH_USD},${ETH_USD.replace(/2$/, '3')}`);
  });

  it('reads the body from stdin (--data @-) and from a file (--data @file)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-body-'));
    try {
      await writeFile(join(dir, 'body.json'), '{"name": "from-file"}');
      const fromStdin = await cli(['channels', 'create-channel', '--data', '@-'], { env, stdin: '{"name": "from-stdin"}' });
      const fromFile = await cli(['channels', 'create-channel', '--data', `@${join(dir, 'body.json')}`], { env });
      expect([fromStdin.code, fromFile.code]).toEqual([0, 0]);
      expect(server.requests.slice(-2).map((request) => JSON.parse(request.body).name)).toEqual(['from-stdin', 'from-file']);
      const broken = await cli(['channels', 'create-channel', '--data', '@-'], { env, stdin: '{\n  "name": "x",\n}' });
      expect([broken.code, broken.stderr]).toEqual([2, expect.stringContaining('--data @- (stdin): not valid JSON at line 3, column 1')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('help at every level exits 0 and comes from the spec', async () => {
    const top = await cli(['--help']);
    expect([top.code, top.stdout]).toEqual([0, expect.stringContaining('coordinator')]);
    const api = await cli(['channels', '--help']);
    expect([api.code, api.stdout]).toEqual([0, expect.stringMatching(/finalize-or-cancel-operation\s+\S/)]);
    const operation = await cli(['channels', 'list-wallets', '--help']);
    expect(operation.stdout).toMatch(/--limit <integer ≥ 1 ≤ 100>/);
    expect(operation.stdout).toMatch(/--chain-environment <one of mainnet\|testnet>/);
    expect(operation.stdout).toContain('--all walks every page');
    const create = await cli(['channels', 'create-wallet', '--help']);
    expect(create.stdout).toMatch(/body: --data <json\|@file\|@->  \(required\)\n(.*\n)*  example: --data '\{"name":"treasury-ops"/);
    const byId = await cli(['channels', 'listWallets', '--help']);
    expect(byId.stdout).toBe(operation.stdout);
    expect((await cli(['policy-coordinator', 'list-policies', '--help'])).code).toBe(0);
    const version = await cli(['--version']);
    expect([version.code, version.stdout]).toEqual([0, `${JSON.parse(await readFile(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')).version}\n`]);
  });
});
