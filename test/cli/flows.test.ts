// The command line's flows against a listening sandbox, in process: --all
// over several pages (and in flat memory over 100,000 items from a local
// server), --wait to `confirmed`, `completed` and `ready`, streams latest
// --decode, --dry-run redaction, profiles and their file permissions, the
// output formats, and the exit codes 0/1/2/3/130.
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const SEPOLIA = '16015286601757825753';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const WALLET_ID = '2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d40';
const CHANNEL_ID = '2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d41';
const CALLER = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('with a listening sandbox', () => {
  const live = useListeningSandbox({
    seed: {
      channels: {
        wallets: [{ wallet_id: WALLET_ID, name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' }],
        channels: [{ channel_id: CHANNEL_ID, name: 'payouts' }],
      },
    },
  });
  const env = () => sandboxEnv(live.sandbox, live.listener);

  it('--all starts where --offset or --page says', async () => {
    for (const name of ['a', 'b', 'c', 'd']) expect((await cli(['channels', 'create-channel', '--data', JSON.stringify({ name })], { env: env() })).code).toBe(0);
    const all = await cli(['channels', 'list-channels', '--all', '--limit', '2'], { env: env() });
    const later = await cli(['channels', 'list-channels', '--all', '--limit', '2', '--offset', '2'], { env: env() });
    expect(lines(later.stdout)).toEqual(lines(all.stdout).slice(2));
    const engines = await cli(['coordinator', 'list-policy-engines', '--all', '--page-size', '1'], { env: env() });
    const fromSecond = await cli(['coordinator', 'list-policy-engines', '--all', '--page-size', '1', '--page', '2'], { env: env() });
    expect(lines(engines.stdout).length).toBeGreaterThanOrEqual(2);
    expect(lines(fromSecond.stdout)).toEqual(lines(engines.stdout).slice(1));
  });

  it('--all walks every page: channels by offset, the coordinator by page number, reports by time', async () => {
    for (const name of ['a', 'b', 'c', 'd']) expect((await cli(['channels', 'create-channel', '--data', JSON.stringify({ name })], { env: env() })).code).toBe(0);
    const channels = await cli(['channels', 'list-channels', '--all', '--limit', '2'], { env: env() });
    expect(lines(channels.stdout).map((line) => JSON.parse(line).name).sort()).toEqual(['a', 'b', 'c', 'd', 'payouts']);
    expect(channels.stderr).toBe('');
    const onTerminal = await cli(['channels', 'list-channels', '--all', '--limit', '2'], { env: env(), stderrTty: true });
    expect([onTerminal.stdout, onTerminal.stderr]).toEqual([channels.stdout, expect.stringMatching(/^\r\d items….*\r5 items\n$/s)]);
    const engines = await cli(['coordinator', 'list-policy-engines', '--all', '--page-size', '1', '--filter', 'name'], { env: env() });
    expect(lines(engines.stdout).length).toBeGreaterThanOrEqual(2);
    expect(lines(engines.stdout).every((line) => typeof JSON.parse(line) === 'string')).toBe(true);
    const from = Math.floor(Date.now() / 1000) - 9;
    const reports = await cli(['streams', 'get-reports-page', '--feed-id', ETH_USD, '--start-timestamp', String(from), '--limit', '3', '--all'], { env: env() });
    const times = lines(reports.stdout).map((line) => JSON.parse(line).observationsTimestamp as number);
    expect(times.length).toBeGreaterThanOrEqual(9);
    expect(times).toEqual([...new Set(times)].sort((a, b) => a - b));
  });

  it('--wait follows an operation to confirmed and a query to completed, statuses with times on stderr', async () => {
    const wallet = (await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID], { env: env() })).json;
    const operation = await cli(
      [
        'channels', 'create-operation', '--channel-id', CHANNEL_ID, '--wait', '--wait-interval', '100', '--data',
        JSON.stringify({ chain_selector: SEPOLIA, address: wallet.address, wallet_operation_id: '1', deadline: 0, signature: `0x${'11'.repeat(65)}`, transactions: [{ to: TOKEN, value: '0', data: '0x' }] }),
      ],
      { env: env() },
    );
    expect([operation.code, operation.json?.status]).toEqual([0, 'confirmed']);
    const [announced, ...statusLines] = lines(operation.stderr);
    expect(announced).toMatch(new RegExp(`^created operation ${operation.json.operation_id}; waiting for confirmed`));
    const seen = statusLines.map((line) => line.split(/\s+/));
    expect(seen.every(([clock, elapsed]) => /^\d\d:\d\d:\d\d\.\d{3}$/.test(clock!) && /^\+\d+\.\ds$/.test(elapsed!))).toBe(true);
    // The sandbox runs in real time: under load the first read may already be past `accepted`, so any
    // sequence the operation can go through is right, as long as each status is later than the one before.
    const ORDER = ['accepted', 'sending', 'sent', 'broadcasting', 'confirmed_latest', 'confirmed_safe', 'confirmed'];
    const ranks = seen.map(([, , status]) => ORDER.indexOf(status!));
    expect(ranks.every((rank, i) => rank >= 0 && (i === 0 || rank > ranks[i - 1]!))).toBe(true);
    expect(seen.at(-1)![2]).toBe('confirmed');

    const query = await cli(
      [
        'channels', 'create-query', '--channel-id', CHANNEL_ID, '--wait', '--wait-interval', '100', '--data',
        JSON.stringify({ idempotency_key: 'q-1', query_kind: 'evm_call', chain_selector: SEPOLIA, params: { contract_address: TOKEN, call_data: '0x18160ddd', block_selection: { type: 'latest' } } }),
      ],
      { env: env() },
    );
    expect([query.code, query.json?.status, lines(query.stderr).at(-1)]).toEqual([0, 'completed', expect.stringMatching(/ completed$/)]);
  });

  it('--wait follows an evaluation to ready; one that ends rejected exits 1', async () => {
    const request = (id: string, parameters: Record<string, unknown> = {}) =>
      JSON.stringify({
        caller_address: CALLER,
        subject: TOKEN,
        function_signature: 'transfer(address,uint256)',
        parameters: { to: TOKEN, amount: '2500', ...parameters },
        permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
        chain_selector: SEPOLIA,
        unique_evaluation_id: id,
      });
    const ready = await cli(['evaluation', 'request-evaluation', '--wait', '--wait-interval', '100', '--data', request('cli-ready')], { env: env() });
    expect([ready.code, ready.json?.status, lines(ready.stderr).at(-1)]).toEqual([0, 'ready', expect.stringMatching(/ ready$/)]);
    const rejected = await cli(['evaluation', 'request-evaluation', '--wait', '--wait-interval', '100', '--data', request('cli-rejected', { sandbox_outcome: 'rejected' })], { env: env() });
    expect([rejected.code, rejected.stderr, rejected.json?.status]).toEqual([1, expect.stringContaining('ended in status `rejected`'), 'rejected']);
  });

  it('streams latest --decode prints values in human units', async () => {
    const run = await cli(['streams', 'latest', ETH_USD, '--decode'], { env: env() });
    expect(run.code).toBe(0);
    expect(run.json).toHaveLength(1);
    expect(run.json[0]).toMatchObject({
      feedID: ETH_USD,
      version: 'V3',
      price: expect.stringMatching(/^\d{3,5}(\.\d+)?$/),
      bid: expect.stringMatching(/^\d+(\.\d+)?$/),
      observationsTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
    });
    expect(run.json[0]).not.toHaveProperty('rawRs');
    const two = await cli(['streams', 'latest', ETH_USD, '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439', '--output', 'ndjson'], { env: env() });
    expect(lines(two.stdout).map((line) => JSON.parse(line).feedID)).toEqual([ETH_USD, '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439']);
  });

  it('prints JSON pretty on a terminal and compact in a pipe, NDJSON, tables and filters', async () => {
    const piped = await cli(['channels', 'list-networks'], { env: env() });
    expect(lines(piped.stdout)).toHaveLength(1);
    const terminal = await cli(['channels', 'list-networks'], { env: { ...env(), NO_COLOR: '1' }, tty: true });
    expect(terminal.stdout).toBe(`${JSON.stringify(piped.json, null, 2)}\n`);
    const ndjson = await cli(['channels', 'list-networks', '--output', 'ndjson'], { env: env() });
    expect(lines(ndjson.stdout).map((line) => JSON.parse(line))).toEqual(piped.json.data);
    const table = await cli(['channels', 'list-networks', '--output', 'table'], { env: env() });
    expect(lines(table.stdout)[0]).toMatch(/^ID\s+NAME\s+CHAIN_SELECTOR/);
    expect(lines(table.stdout)).toHaveLength(piped.json.data.length + 1);
    const filtered = await cli(['channels', 'list-networks', '--filter', "data[?chain_selector=='16015286601757825753'].name | [0]"], { env: env() });
    expect(filtered.json).toBe('Ethereum Sepolia');
  });

  it('exit 1 on an answered error: status, type, code and message on stderr, the body on stdout', async () => {
    const run = await cli(['channels', 'get-wallet', '--wallet-id', '3fa85f64-5717-4562-b3fc-2c963f66afa6'], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('service-sdk: 404 NOT_FOUND WALLET_NOT_FOUND: wallet 3fa85f64-5717-4562-b3fc-2c963f66afa6 not found\n');
    expect(run.json).toMatchObject({ type: 'NOT_FOUND', code: 'WALLET_NOT_FOUND' });
    const asTable = await cli(['channels', 'get-wallet', '--wallet-id', '3fa85f64-5717-4562-b3fc-2c963f66afa6', '--output', 'table'], { env: env() });
    expect([asTable.code, asTable.stdout, asTable.stderr]).toEqual([1, '', run.stderr]);
  });

  it('--dry-run prints curl with the key as its variable, and the streams signing inputs redacted, sending nothing', async () => {
    const { apiKey } = live.sandbox.credentials.channels;
    const channels = await cli(['channels', 'create-channel', '--data', '{"name":"dry"}', '--dry-run'], { env: env() });
    expect(channels.code).toBe(0);
    expect(channels.stdout).toMatch(/^curl -X POST 'http:\/\/127\.0\.0\.1:\d+\/channels\/v1\/channels' .*-H "Authorization: Apikey \$SERVICE_SDK_CHANNELS_API_KEY".* --data-raw '\{"name":"dry"\}'\n$/);
    expect(channels.stdout + channels.stderr).not.toContain(apiKey);
    // Sent, the channel would exist: the sandbox creates what it is asked to.
    const listed = (await cli(['channels', 'list-channels'], { env: env() })).json.data.map((channel: { name: string }) => channel.name);
    expect(listed).toEqual(['payouts']);

    const { apiKey: streamsKey, apiSecret } = live.sandbox.credentials.streams;
    const streams = await cli(['streams', 'get-latest-report', '--feed-id', ETH_USD, '--dry-run'], { env: env() });
    expect(streams.code).toBe(0);
    expect(streams.stdout).toContain("-H 'x-authorization-signature-sha256: <redacted>'");
    expect(streams.stderr).toMatch(
      new RegExp(`signed text GET /api/v1/reports/latest\\?feedID=${ETH_USD} e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 <redacted> \\d{13}`),
    );
    for (const secret of [streamsKey, apiSecret]) expect(streams.stdout + streams.stderr).not.toContain(secret);
  });

  it('profiles: created 0600 in a 0700 folder, used by name, refused once others can read them; never printed', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cli-profile-'));
    try {
      const { apiKey } = live.sandbox.credentials.channels;
      const set = await cli(['profile', 'set', 'sandbox', '--api', 'channels', '--api-key', apiKey, '--base-url', live.listener.baseUrls.channels], { homeDir: home });
      expect([set.code, set.stderr]).toEqual([0, expect.not.stringContaining(apiKey)]);
      const file = join(home, '.config', 'service-sdk', 'profiles.json');
      expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
      expect(((await stat(join(home, '.config', 'service-sdk'))).mode & 0o777).toString(8)).toBe('700');
      expect(JSON.parse(await readFile(file, 'utf8')).profiles.sandbox.channels.apiKey).toBe(apiKey);

      const used = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID, '--profile', 'sandbox'], { homeDir: home });
      expect([used.code, used.json?.wallet_id]).toEqual([0, WALLET_ID]);
      const byEnv = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID], { homeDir: home, env: { SERVICE_SDK_PROFILE: 'sandbox' } });
      expect(byEnv.code).toBe(0);
      const listed = await cli(['profile', 'list'], { homeDir: home });
      expect([listed.code, listed.stdout]).toEqual([0, 'sandbox  channels(apiKey,baseUrl)\n']);
      const unknown = await cli(['channels', 'list-wallets', '--profile', 'prod'], { homeDir: home });
      expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('no profile named "prod"')]);

      await chmod(file, 0o644);
      const refused = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID, '--profile', 'sandbox'], { homeDir: home });
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('can be read by others (mode 644)')]);
      expect(refused.stderr).not.toContain(apiKey);
      // Saving again tightens it.
      expect((await cli(['profile', 'set', 'sandbox', '--api', 'channels', '--api-key', apiKey], { homeDir: home })).code).toBe(2);
      await chmod(file, 0o600);
      expect((await cli(['profile', 'set', 'sandbox', '--api', 'streams', '--network', 'testnet'], { homeDir: home })).code).toBe(0);
      expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('against a local server', () => {
  let server: LocalServer;
  let pages = 0;
  const ITEMS = 100_000;
  const PAGE = 100; // the spec's largest `limit`
  // 1 kB per item: a walk that kept its items would hold 100 MB.
  const padding = 'x'.repeat(1_000);
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      const url = new URL(request.url!, 'http://local');
      if (url.pathname === '/slow/wallets') {
        // An endless list, slowly: for Ctrl-C in the middle of --all.
        const offset = Number(url.searchParams.get('offset'));
        const data = Array.from({ length: 10 }, (_, i) => ({ wallet_id: `w-${offset + i}`, padding }));
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, has_more: true })), 20);
        return;
      }
      pages++;
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const count = Math.max(0, Math.min(limit, ITEMS - offset));
      const data = Array.from({ length: count }, (_, i) => ({ wallet_id: `w-${offset + i}`, name: `wallet ${offset + i}`, padding }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, has_more: offset + count < ITEMS }));
    });
  });
  afterAll(() => server.close());

  it('--all over 100,000 items streams them in flat memory', async () => {
    // A full collection before each reading, so the heap measured is what the walk keeps alive.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let count = 0;
    const heapAt = new Map<number, number>();
    const run = await cli(['channels', 'list-wallets', '--all', '--limit', String(PAGE)], {
      env: { SERVICE_SDK_CHANNELS_BASE_URL: server.origin, SERVICE_SDK_CHANNELS_API_KEY: 'memory-test' },
      // As the bin runs it: with the Ctrl-C signal, which every page's request listens to.
      signal: new AbortController().signal,
      discardStdout: true,
      onStdout: (chunk) => {
        for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', at + 1)) count++;
        for (const checkpoint of [10_000, 99_000]) {
          if (count >= checkpoint && !heapAt.has(checkpoint)) {
            gc();
            heapAt.set(checkpoint, process.memoryUsage().heapUsed);
          }
        }
      },
    });
    expect([run.code, count, pages]).toEqual([0, ITEMS, ITEMS / PAGE]);
    // Kept items would add ~100 MB between the two windows; a walk that holds one page adds next to nothing.
    const growthMb = (heapAt.get(99_000)! - heapAt.get(10_000)!) / 1e6;
    expect(growthMb).toBeLessThan(20);
  }, 60_000);

  it('exit 3 when nothing answers; 130 when interrupted during --all, every line whole', async () => {
    const closed = await startLocalServer(() => undefined);
    const origin = closed.origin;
    await closed.close();
    const refused = await cli(['channels', 'list-wallets'], { env: { SERVICE_SDK_CHANNELS_BASE_URL: origin, SERVICE_SDK_CHANNELS_API_KEY: 'k' } });
    expect([refused.code, refused.stderr]).toEqual([3, expect.stringContaining('no answer')]);

    const interrupt = new AbortController();
    let seen = 0;
    const run = await cli(['channels', 'list-wallets', '--all', '--limit', '10'], {
      env: { SERVICE_SDK_CHANNELS_BASE_URL: `${server.origin}/slow`, SERVICE_SDK_CHANNELS_API_KEY: 'k' },
      signal: interrupt.signal,
      onStdout: () => {
        if (++seen === 25) interrupt.abort(new Error('interrupted'));
      },
    });
    expect(run.code).toBe(130);
    expect(run.stdout.endsWith('\n')).toBe(true);
    const items = lines(run.stdout).map((line) => JSON.parse(line).wallet_id);
    expect(items.slice(0, 3)).toEqual(['w-0', 'w-1', 'w-2']);
    expect(items.length).toBeGreaterThanOrEqual(25);
  });
});
