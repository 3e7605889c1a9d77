// Every output for every mode: --all in each --output format (one JSON array,
// one table, NDJSON) and --max-items; tables that never cut an identifier,
// print their header for an empty list and show times as ISO 8601; `streams
// latest` printing every stream that answered when another did not; and
// `streams watch` giving up after its reconnection budget (exit 3).
import { describe, expect, it } from 'vitest';
import { startLocalServer } from '../support/local-server.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const UNKNOWN_FEED = `0x0003${'ab'.repeat(30)}`;
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('with a listening sandbox', () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);
  const channelNames = async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) expect((await cli(['channels', 'create-channel', '--data', JSON.stringify({ name })], { env: env() })).code).toBe(0);
    return ['a', 'b', 'c', 'd', 'e'];
  };

  it('--all --output json is one JSON array of every item, --output table one header and a row per item, ndjson a line each', async () => {
    const names = await channelNames();
    const json = await cli(['channels', 'list-channels', '--all', '--limit', '2', '--output', 'json'], { env: env() });
    expect(json.code).toBe(0);
    expect(json.json.map((channel: { name: string }) => channel.name).sort()).toEqual(names);
    const table = await cli(['channels', 'list-channels', '--all', '--limit', '2', '--output', 'table'], { env: env() });
    const rows = lines(table.stdout);
    expect(rows[0]).toMatch(/^CHANNEL_ID\s+NAME/);
    expect(rows.filter((row) => /^CHANNEL_ID/.test(row))).toHaveLength(1);
    expect(rows.slice(1).map((row) => row.split(/\s+/)[1]).sort()).toEqual(names);
    const ndjson = await cli(['channels', 'list-channels', '--all', '--limit', '2', '--output', 'ndjson'], { env: env() });
    expect(lines(ndjson.stdout).map((line) => JSON.parse(line).name).sort()).toEqual(names);
  });

  it('--max-items N stops the walk after N items, in every format', async () => {
    await channelNames();
    const ndjson = await cli(['channels', 'list-channels', '--all', '--limit', '2', '--max-items', '3'], { env: env() });
    expect([ndjson.code, lines(ndjson.stdout)]).toEqual([0, expect.any(Array)]);
    expect(lines(ndjson.stdout)).toHaveLength(3);
    const json = await cli(['channels', 'list-channels', '--all', '--limit', '2', '--max-items', '3', '--output', 'json'], { env: env() });
    expect(json.json).toHaveLength(3);
    const bad = await cli(['channels', 'list-channels', '--all', '--max-items', '0'], { env: env() });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--max-items: expected an integer ≥ 1, got "0"')]);
  });

  it('tables never cut an identifier, print the header of an empty list, and show times as ISO 8601', async () => {
    const streams = await cli(['streams', 'list-streams', '--output', 'table'], { env: env() });
    expect(streams.stdout).toContain(ETH_USD);
    expect(streams.stdout).not.toContain('…');
    expect(streams.stdout).toMatch(/\b20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b/);
    expect(streams.stdout).not.toMatch(/\s1\d{9}\s/);
    const empty = await cli(['channels', 'list-watchers', '--channel-id', (await cli(['channels', 'create-channel', '--data', '{"name":"quiet"}'], { env: env() })).json.channel_id, '--output', 'table'], { env: env() });
    expect([empty.code, lines(empty.stdout)]).toEqual([0, [expect.stringMatching(/^WATCHER_ID\s+/)]]);
  });

  it('streams latest A B prints every stream that answered, each failure on stderr, exit 1', async () => {
    const run = await cli(['streams', 'latest', ETH_USD, UNKNOWN_FEED, '--output', 'ndjson'], { env: env() });
    expect(run.code).toBe(1);
    expect(lines(run.stdout).map((line) => JSON.parse(line).feedID)).toEqual([ETH_USD]);
    expect(run.stderr).toContain(UNKNOWN_FEED);
    expect(run.stderr).toMatch(/: 4\d\d [A-Z_]+/);
  });
});

describe('streams watch with nothing to connect to', () => {
  it('gives up after --reconnect-attempts, exit 3, saying why', async () => {
    const gone = await startLocalServer(() => undefined);
    const origin = gone.origin;
    await gone.close();
    const run = await cli(['streams', 'watch', ETH_USD, '--reconnect-attempts', '1'], {
      env: {
        SERVICE_SDK_STREAMS_BASE_URL: origin,
        SERVICE_SDK_STREAMS_WS_URL: origin.replace(/^http/, 'ws'),
        SERVICE_SDK_STREAMS_API_KEY: '8f7dd029-f755-432b-a838-87108e6f7f53',
        SERVICE_SDK_STREAMS_API_SECRET: 'watch-test-secret',
      },
    });
    expect([run.code, run.stdout]).toEqual([3, '']);
    expect(run.stderr).toMatch(/service-sdk: no answer: .*no origin could be reached after 1 attempts? each.*--reconnect-attempts/);
  });
});
