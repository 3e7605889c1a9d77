// --wait through the real bin, against a listening sandbox whose clock is
// frozen (pace 0: a status moves only when the test says so): a draft ends
// the wait at once, --wait-timeout gives the last state and exit 4, the
// created ID is on stderr before the wait, and Ctrl-C (a real SIGINT, sent
// once the process says it is waiting) prints the last state and exits 130.
import { describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { finish, lineOn, start } from './support/bin-process.js';
import { sandboxEnv } from './support/run-cli.js';

const SEPOLIA = '16015286601757825753';
const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';

describe('--wait through the bin, on a frozen sandbox', () => {
  const live = useListeningSandbox({ pace: 0 });
  const env = () => sandboxEnv(live.sandbox, live.listener);

  /** A channel and a wallet to operate from, and the argv of create-operation with `--wait` (signed unless `draft`). */
  async function createOperationArgs(options: { draft?: boolean } = {}): Promise<string[]> {
    const channels = createChannelsClient({ ...live.sandbox.credentials.channels, baseUrl: live.listener.baseUrls.channels });
    const channel = await unwrap(channels.POST('/channels', { body: { name: 'waits' } }));
    const wallet = await unwrap(
      channels.POST('/wallets', { body: { name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' } }),
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
});
