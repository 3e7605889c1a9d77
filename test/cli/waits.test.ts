// --wait through the real bin, against a listening sandbox whose clock is
// frozen (pace 0: a status moves only when the test says so): a draft ends
// the wait at once, --wait-timeout gives the last state and exit 4, the
// created ID is on stderr before the wait, and Ctrl-C (a real SIGINT, sent
// once the process says it is waiting) prints the last state and exits 130.
// --wait-interval takes the same durations as --wait-timeout (a bare number
// is still milliseconds), counted by the reads that reach the sandbox.
import { describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { answerLog } from './support/answer-log.js';
import { finish, lineOn, start } from './support/bin-process.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const SEPOLIA = '16015286601757825753';
const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';

describe('--wait through the bin, on a frozen sandbox', () => {
  const answers = answerLog();
  const live = useListeningSandbox({ pace: 0, ...answers.options });
  const env = () => sandboxEnv(live.sandbox, live.listener);

  let channelsMade = 0;
  /** A channel (named anew each time) and a wallet to operate from, and the argv of create-operation with `--wait` (signed unless `draft`). */
  async function createOperationArgs(options: { draft?: boolean } = {}): Promise<string[]> {
    const channels = createChannelsClient({ ...live.sandbox.credentials.channels, baseUrl: live.listener.baseUrls.channels });
    const channel = await unwrap(channels.POST('/channels', { body: { name: `waits-${++channelsMade}` } }));
    const wallet = await unwrap(
      channels.POST('/wallets', { body: { name: `treasury-${channelsMade}`, wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' } }),
    );
    const body = {
      chain_selector: SEPOLIA,
      address: wallet.address,
      wallet_operation_id: '1',
      deadline: 0,
      ...(options.draft ? {} : { signature: `0x${'11'.repeat(65)}` }),
      transactions: [{ to: TOKEN, value: '0', data: '0x' }],
    };
    return ['channels', 'create-operation', '--channel-id', channel.channel_id, '--wait', '--data', JSON.stringify(body)];
  }

  it('a draft (pending_signature) ends the wait at once: exit 0, the draft on stdout, stderr says what it waits for', async () => {
    const run = await finish(start([...(await createOperationArgs({ draft: true })), '--wait-timeout', '10m'], env()));
    expect(run.code).toBe(0);
    const draft = JSON.parse(run.stdout);
    expect(draft.status).toBe('pending_signature');
    expect(run.stderr).toContain(`operation ${draft.operation_id}`);
    expect(run.stderr).toMatch(/pending_signature: it waits for your signature .*finalize-or-cancel-operation/);
  });

  it('--wait-timeout: the last state on stdout, exit 4, the created ID on stderr before waiting', async () => {
    const run = await finish(start([...(await createOperationArgs()), '--wait-timeout', '300ms', '--wait-interval', '50'], env()));
    expect(run.code).toBe(4);
    const last = JSON.parse(run.stdout);
    expect(last).toMatchObject({ status: 'accepted', operation_id: expect.any(String) });
    const lines = run.stderr.split('\n');
    const created = lines.findIndex((line) => line.includes(`created operation ${last.operation_id}`));
    expect(created).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((line) => / accepted$/.test(line))).toBeGreaterThan(created);
    expect(run.stderr).toMatch(/did not settle within 300 ms \(last status: accepted\)/);
  });

  it('--wait-timeout refuses a duration without a unit, naming the flag', async () => {
    const run = await finish(start([...(await createOperationArgs()), '--wait-timeout', '10'], env()));
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(/--wait-timeout: expected a duration such as 500ms, 30s or 10m, got "10"/);
  });

  it('Ctrl-C during the wait prints the last state seen on stdout and exits 130', async () => {
    const child = start([...(await createOperationArgs()), '--wait-interval', '50'], env());
    const done = finish(child);
    const created = await lineOn(child, 'stderr', /created operation /);
    await lineOn(child, 'stderr', / accepted$/);
    child.kill('SIGINT');
    const run = await done;
    expect(run.code).toBe(130);
    const last = JSON.parse(run.stdout);
    expect(last.status).toBe('accepted');
    expect(created).toContain(last.operation_id);
  });

  it('--wait-interval takes durations (500ms, 2s, 1m) as --wait-timeout does; a bare number is still milliseconds', async () => {
    const readsWith = async (interval: string) => {
      const before = answers.count('getOperation');
      const run = await finish(start([...(await createOperationArgs()), '--wait-timeout', '400ms', '--wait-interval', interval], env()));
      expect([interval, run.code, run.stderr]).toEqual([interval, 4, expect.stringContaining('did not settle within 400 ms')]);
      return answers.count('getOperation') - before;
    };
    // A pause of a minute: the first read and the one the 400 ms cut short; of 40 ms (either form): a read every 40-200 ms.
    expect(await readsWith('1m')).toBeLessThanOrEqual(2);
    expect(await readsWith('40ms')).toBeGreaterThanOrEqual(4);
    expect(await readsWith('40')).toBeGreaterThanOrEqual(4);
  });

  it('--wait-interval refuses what is not a duration, naming the flag; its help says it takes durations', async () => {
    const argv = await createOperationArgs();
    for (const bad of ['2x', '-1s', 'soon']) {
      const run = await cli([...argv, '--wait-interval', bad], { env: env() });
      expect([run.code, run.stdout, run.stderr]).toEqual([2, '', `service-sdk: --wait-interval: expected a duration such as 500ms, 2s or 1m (a bare number is milliseconds), got ${JSON.stringify(bad)}\n`]);
    }
    const help = (await cli(['channels', 'create-operation', '--help'])).stdout;
    expect(help).toMatch(/^ {2}--wait-interval <duration>\s+.*\(500ms, 2s, 1m; a bare number is ms; default 1s\)/m);
  });
});
