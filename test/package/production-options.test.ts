// A user's production code, with its production options (the organisation's
// own base URL), runs unchanged against the sandbox: the packed tarball is
// installed into an empty project with vitest, and the user's own test file
// hands the code `sandbox.fetch` and the sandbox's key, nothing else.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProject, PACKAGE_NAME as PKG, packPackage, run } from '../support/packed-package.js';
import { isolatedEnv } from '../support/working-tree.js';

/** The user's production module: its client is made with the options it has in production. */
const PAYOUTS_TS = `
import { createChannelsClient, executeWithDraft, unwrap, waitForOperation, type Operation } from '${PKG}/channels';

export interface PayoutsOptions {
  apiKey: string;
  /** Left out in production (the global fetch); tests pass the sandbox's. */
  fetch?: (request: Request, init?: RequestInit) => Promise<Response>;
}

const SEPOLIA = '16015286601757825753';

export function createPayouts(options: PayoutsOptions) {
  const channels = createChannelsClient({ apiKey: options.apiKey, baseUrl: 'https://acme.example/v1', fetch: options.fetch });
  return {
    async openTreasury(): Promise<{ channelId: string; address: string }> {
      const channel = await unwrap(channels.POST('/channels', { body: { name: 'payouts' } }));
      const wallet = await unwrap(
        channels.POST('/wallets', {
          body: { name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
        }),
      );
      return { channelId: channel.channel_id, address: wallet.address };
    },
    async pay(channelId: string, address: string, id: string, sign: (draft: Operation) => { signature: string; digest: string }): Promise<Operation> {
      const accepted = await executeWithDraft(
        channels,
        channelId,
        { chain_selector: SEPOLIA, address, wallet_operation_id: id, deadline: 0, transactions: [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }] },
        sign,
      );
      return waitForOperation(channels, { channel_id: channelId, operation_id: accepted.operation_id }, { intervalMs: 50 });
    },
  };
}
`;

/** The user's test file: the sandbox's fetch and key go in; the production code is not touched. */
const PAYOUTS_TEST_TS = `
import { expect, test } from 'vitest';
import { createSandbox } from '${PKG}/sandbox';
import { createPayouts } from './payouts.js';

test('a payout reaches confirmed, even through a 503 on the finalize', async () => {
  const sandbox = createSandbox({ pace: 20 });
  const payouts = createPayouts({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch });
  const { channelId, address } = await payouts.openTreasury();
  sandbox.inject({ route: 'finalizeOperation', status: 503 });
  const done = await payouts.pay(channelId, address, '1', () => ({ signature: '0x' + '11'.repeat(65), digest: '0x' + '22'.repeat(32) }));
  expect(done.status).toBe('confirmed');
  sandbox.close();
});
`;

let tmp: string;
let project: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sdk-production-options-'));
  project = join(tmp, 'user');
  await mkdir(project);
  const packed = await packPackage(tmp);
  await installProject(project, [packed.tarball, 'vitest@4.1.12']);
  await writeFile(join(project, 'payouts.ts'), PAYOUTS_TS);
  await writeFile(join(project, 'payouts.test.ts'), PAYOUTS_TEST_TS);
}, 240_000);

afterAll(async () => {
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

describe('the packed package in an empty project', () => {
  it("runs the user's test of production code with production options against the sandbox", { timeout: 120_000 }, async () => {
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=verbose'], project, { ...isolatedEnv(), CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' });
    expect(stdout).toContain('a payout reaches confirmed, even through a 503 on the finalize');
    expect(stdout).toMatch(/Tests\s+1 passed/);
  });
});
