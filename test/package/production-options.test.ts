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

/** The user's test of what the SDK shows of each attempt, against the installed package. */
const OPERABLE_TEST_TS = `
import { expect, test, vi } from 'vitest';
import { ConfigurationError, createChannelsClient, unwrap } from '${PKG}/channels';
import { createSandbox } from '${PKG}/sandbox';

const QUICK = { baseDelayMs: 1, maxDelayMs: 1 };

test('two injected 503s and a logger: three lines, attempts 1 to 3, the path template, no credential; the middleware sees three attempts', async () => {
  const sandbox = createSandbox();
  const lines: string[] = [];
  const logger = { debug: (m: string) => lines.push(m), info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
  const apiKey = sandbox.credentials.channels.apiKey;
  const channels = createChannelsClient({ apiKey, baseUrl: 'https://acme.example/v1', fetch: sandbox.fetch, retry: QUICK, logger, logLevel: 'debug' });
  const attempts: number[] = [];
  channels.use({ onRequest: (params) => void attempts.push((params as unknown as { attempt: number }).attempt) });
  sandbox.inject({ route: 'listNetworks', status: 503, times: 2 });
  await unwrap(channels.GET('/networks'));
  expect(lines.map((line) => line.replace(/ in \\d+ ms.*$/, ''))).toEqual([
    'service-sdk: GET /networks attempt 1/3: 503',
    'service-sdk: GET /networks attempt 2/3: 503',
    'service-sdk: GET /networks attempt 3/3: 200',
  ]);
  expect(lines.join('\\n')).not.toContain(apiKey);
  expect(attempts).toEqual([1, 2, 3]);
  sandbox.close();
});

test('SERVICE_SDK_LOG=debug logs each attempt on console', async () => {
  const sandbox = createSandbox();
  vi.stubEnv('SERVICE_SDK_LOG', 'debug');
  const lines: string[] = [];
  for (const level of ['debug', 'info'] as const) vi.spyOn(console, level).mockImplementation((m: string) => void lines.push(m));
  const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch, retry: QUICK });
  sandbox.inject({ route: 'listNetworks', status: 503, times: 2 });
  await unwrap(channels.GET('/networks'));
  expect(lines.map((line) => line.replace(/ in \\d+ ms.*$/, ''))).toEqual([
    'service-sdk: GET /networks attempt 1/3: 503',
    'service-sdk: GET /networks attempt 2/3: 503',
    'service-sdk: GET /networks attempt 3/3: 200',
  ]);
  vi.unstubAllEnvs();
  sandbox.close();
});

test('per-call options are honoured or refused by name', async () => {
  const sandbox = createSandbox();
  let sent = 0;
  const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: (r, i) => (sent++, sandbox.fetch(r, i)), retry: QUICK });
  sandbox.inject({ route: 'listNetworks', status: 503, times: 1 });
  expect((await channels.GET('/networks', { retry: false })).response.status).toBe(503);
  expect(sent).toBe(1);
  // @ts-expect-error -- not an option of a call
  await expect(channels.GET('/networks', { bogusOption: 1 })).rejects.toThrow(ConfigurationError);
  expect(sent).toBe(1);
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
  await writeFile(join(project, 'operable.test.ts'), OPERABLE_TEST_TS);
}, 240_000);

afterAll(async () => {
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

describe('the packed package in an empty project', () => {
  it("runs the user's test of production code with production options against the sandbox", { timeout: 120_000 }, async () => {
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=verbose'], project, { ...isolatedEnv(), CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' });
    expect(stdout).toContain('a payout reaches confirmed, even through a 503 on the finalize');
    expect(stdout).toContain('two injected 503s and a logger: three lines');
    expect(stdout).toMatch(/Tests\s+4 passed/);
  });
});
