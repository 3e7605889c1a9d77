// Every flag works where it is accepted or is refused with exit 2 naming
// it: `watch --output table`, `--wait-timeout` without `--wait`; `request`
// takes `--dry-run` and `--paginate`/`--all`; `help <api> request` works.
import { describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('flags honoured or refused', () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);

  it('a flag that cannot apply is refused with exit 2 naming it, nothing sent', async () => {
    const watch = await cli(['streams', 'watch', ETH_USD, '--output', 'table'], { env: env() });
    expect([watch.code, watch.stdout, watch.stderr]).toEqual([2, '', expect.stringMatching(/^service-sdk: --output table: streams watch prints one report per line/)]);
    const channel = crypto.randomUUID();
    for (const flag of ['--wait-timeout', '--wait-interval']) {
      const run = await cli(['channels', 'create-operation', '--channel-id', channel, '--data', '{}', flag, '5s'], { env: env() });
      expect([run.code, run.stderr]).toEqual([2, `service-sdk: ${flag}: only with --wait\n`]);
    }
  });

  it(readmeClaim('`--dry-run` prints it as curl and sends nothing'), async () => {
    const dry = await cli(['channels', 'request', 'POST', '/channels', '--data', '{"name":"dry"}', '--dry-run'], { env: env() });
    expect([dry.code, dry.stdout]).toEqual([0, expect.stringMatching(/^curl -X POST '.*\/channels' .*--data-raw '\{"name":"dry"\}'\n$/)]);
    expect((await cli(['channels', 'list-channels'], { env: env() })).json.data).toEqual([]);
  });

  it(readmeClaim('`--all` (or `--paginate`, as `gh api` calls it) walks every page of a documented list'), async () => {
    for (const name of ['a', 'b', 'c']) expect((await cli(['channels', 'create-channel', '--data', JSON.stringify({ name })], { env: env() })).code).toBe(0);
    for (const flag of ['--paginate', '--all']) {
      const run = await cli(['channels', 'request', 'GET', '/channels?limit=1', flag], { env: env() });
      expect([run.code, lines(run.stdout).map((line) => JSON.parse(line).name).sort()]).toEqual([0, ['a', 'b', 'c']]);
    }
    const capped = await cli(['channels', 'request', 'GET', '/channels?limit=1', '--paginate', '--max-items', '2', '--output', 'json'], { env: env() });
    expect(capped.json).toHaveLength(2);
  });

  it('help <api> request prints the request help, as request --help does', async () => {
    const help = await cli(['help', 'channels', 'request']);
    expect([help.code, help.stdout]).toEqual([0, (await cli(['channels', 'request', '--help'])).stdout]);
    expect(help.stdout).toMatch(/^usage: service-sdk channels request <METHOD> <path>/);
    expect(help.stdout).toContain('--dry-run');
    const latest = await cli(['help', 'streams', 'latest']);
    expect([latest.code, latest.stdout]).toEqual([0, expect.stringMatching(/^usage: service-sdk streams latest/)]);
  });
});

describe('conventions of curl and gh', () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);

  it('-i prints the protocol version in its status line (HTTP/1.1 200 OK), as curl does', async () => {
    const run = await cli(['channels', 'list-networks', '-i'], { env: env() });
    expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/^HTTP\/1\.1 200 OK\n/)]);
  });

  it('service-sdk version prints the version, as --version does', async () => {
    const [word, flag] = [await cli(['version']), await cli(['--version'])];
    expect([word.code, word.stdout]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/)]);
    expect(word.stdout).toBe(flag.stdout);
  });
});
