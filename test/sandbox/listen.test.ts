// The sandbox over HTTP: the same behaviour as `live.sandbox.fetch`, reached by
// the SDK's real clients through `baseUrl`, with faults that only a socket
// can show (a dropped connection, a slow body) and a clean shutdown.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChannelsClient, createOperation, unwrap, waitForOperation } from '../../src/channels/index.js';
import { ApiConnectionError, ApiTimeoutError } from '../../src/core/errors.js';
import { createPolicyClient, requestEvaluation, waitForEvaluation } from '../../src/policy/index.js';
import { SandboxUsageError } from '../../src/sandbox/index.js';
import { createStreamsClient, getLatestReport, getReportsPage } from '../../src/streams/index.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';

const root = join(import.meta.dirname, '..', '..');
const SEPOLIA = '16015286601757825753';
const OWNER = `0x${'11'.repeat(20)}`;
const TOKEN = '0xb8f4cc5179d1c68b54003171cd8d06587731c073';
const CALLER = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const TRANSFER_DATA = `0xa9059cbb${'0'.repeat(24)}${'4b'.repeat(20)}${(2_500_000_000).toString(16).padStart(64, '0')}`;

const live = useListeningSandbox({ pace: 20 });

const channelsClient = (options: { timeoutMs?: number; retry?: false } = {}) =>
  createChannelsClient({ apiKey: live.sandbox.credentials.channels.apiKey, baseUrl: live.listener.baseUrls.channels, ...options });

async function walletAndChannel() {
  const channels = channelsClient();
  const channel = await unwrap(channels.POST('/channels', { body: { name: `listen-${crypto.randomUUID().slice(0, 8)}` } }));
  const wallet = await unwrap(
    channels.POST('/wallets', {
      body: { name: `listen-${crypto.randomUUID().slice(0, 8)}`, wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
    }),
  );
  return { channels, channel, wallet };
}

describe('live.sandbox.listen()', () => {
  it('gives base URLs on 127.0.0.1 with a free port', () => {
    expect(live.listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(live.listener.baseUrls).toEqual({ channels: `${live.listener.url}/channels/v1`, streams: live.listener.url, policy: live.listener.url });
  });

  it('channels: an operation reaches confirmed over HTTP', async () => {
    const { channels, channel, wallet } = await walletAndChannel();
    const created = await createOperation(channels, channel.channel_id, {
      chain_selector: wallet.chain_selector,
      address: wallet.address,
      wallet_operation_id: '1',
      deadline: 0,
      signature: SIGNATURE,
      transactions: [{ to: TOKEN, value: '0', data: TRANSFER_DATA }],
    });
    const statuses: string[] = [];
    const done = await waitForOperation(
      channels,
      { channel_id: channel.channel_id, operation_id: created.operation_id },
      { intervalMs: 20, backoff: 1, timeoutMs: 20_000, onStatus: (status) => statuses.push(status) },
    );
    expect(done.status).toBe('confirmed');
    expect(statuses.at(-1)).toBe('confirmed');
  });

  it('streams: HMAC-signed requests over HTTP are accepted, and a wrong secret is refused', async () => {
    const streams = createStreamsClient({ ...live.sandbox.credentials.streams, baseUrl: live.listener.baseUrls.streams });
    const latest = await getLatestReport(streams, ETH_USD, { decode: true });
    expect(latest.feedID).toBe(ETH_USD);
    expect(latest.decoded.version).toBe('V3');
    const page = await getReportsPage(streams, { feedID: ETH_USD, startTimestamp: latest.observationsTimestamp - 10, limit: 5 });
    expect(page).toHaveLength(5);

    const wrong = createStreamsClient({ apiKey: live.sandbox.credentials.streams.apiKey, apiSecret: 'not-the-secret', baseUrl: live.listener.baseUrls.streams, retry: false });
    await expect(getLatestReport(wrong, ETH_USD)).rejects.toMatchObject({ status: 401 });
  });

  it('policy: an evaluation reaches ready over HTTP', async () => {
    const policy = createPolicyClient({ apiKey: live.sandbox.credentials.policy.apiKey, baseUrl: live.listener.baseUrls.policy });
    const { permit_id } = await requestEvaluation(policy, {
      caller_address: CALLER,
      subject: TOKEN,
      function_signature: 'transfer(address,uint256)',
      parameters: { to: TOKEN, amount: '2500' },
      permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
      chain_selector: SEPOLIA,
      unique_evaluation_id: `listen-${crypto.randomUUID()}`,
    });
    const ready = await waitForEvaluation(policy, permit_id, { intervalMs: 20, maxIntervalMs: 40, timeoutMs: 20_000 });
    expect(ready.status).toBe('ready');
  });

  it('a HEAD answer carries headers and no body', async () => {
    const response = await fetch(`${live.listener.url}/`, { method: 'HEAD' });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('');
  });

  it('an unknown path gets a 404 in the API error body, not a crash', async () => {
    const response = await fetch(`${live.listener.baseUrls.channels}/no-such-thing`, {
      headers: { Authorization: `Apikey ${live.sandbox.credentials.channels.apiKey}` },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('refuses a bad port or host with SandboxUsageError', async () => {
    await expect(live.sandbox.listen({ port: 70_000 })).rejects.toBeInstanceOf(SandboxUsageError);
    await expect(live.sandbox.listen({ host: '' })).rejects.toBeInstanceOf(SandboxUsageError);
  });
});

describe('faults a socket shows', () => {
  it('drop: the connection closes without an answer; the client retries a GET and succeeds', async () => {
    const { channels, wallet } = await walletAndChannel();
    live.sandbox.inject({ route: 'getWallet', drop: true, times: 1 });
    const again = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }));
    expect(again.wallet_id).toBe(wallet.wallet_id);

    live.sandbox.inject({ route: 'getWallet', drop: true, times: 1 });
    const once = channelsClient({ retry: false });
    await expect(unwrap(once.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }))).rejects.toBeInstanceOf(
      ApiConnectionError,
    );
  });

  it('a slow body: the headers come at once, the body late, and timeoutMs covers it', async () => {
    const { wallet } = await walletAndChannel();
    live.sandbox.inject({ route: 'getWallet', bodyDelayMs: 1_500, times: 1 });
    const impatient = channelsClient({ timeoutMs: 300, retry: false });
    await expect(unwrap(impatient.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }))).rejects.toBeInstanceOf(
      ApiTimeoutError,
    );

    live.sandbox.inject({ route: 'getWallet', bodyDelayMs: 200, times: 1 });
    const started = performance.now();
    const raw = await fetch(`${live.listener.baseUrls.channels}/wallets/${wallet.wallet_id}`, {
      headers: { Authorization: `Apikey ${live.sandbox.credentials.channels.apiKey}` },
    });
    const headersAfter = performance.now() - started;
    const body = (await raw.json()) as { wallet_id: string };
    expect(body.wallet_id).toBe(wallet.wallet_id);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(headersAfter).toBeLessThan(performance.now() - started);
  });

  it('the same slow body through live.sandbox.fetch', async () => {
    const { wallet } = await walletAndChannel();
    live.sandbox.inject({ route: 'getWallet', bodyDelayMs: 1_500, times: 1 });
    const impatient = createChannelsClient({ apiKey: live.sandbox.credentials.channels.apiKey, fetch: live.sandbox.fetch, timeoutMs: 300, retry: false });
    await expect(unwrap(impatient.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }))).rejects.toBeInstanceOf(
      ApiTimeoutError,
    );
  });

  it('inject() refuses a negative bodyDelayMs, naming it', () => {
    expect(() => live.sandbox.inject({ bodyDelayMs: -1 })).toThrow(/bodyDelayMs/);
  });
});

describe('closing', () => {
  it('close() stops listening: a request after it cannot connect', async () => {
    const url = `${live.listener.baseUrls.channels}/networks`;
    await live.listener.close();
    await expect(fetch(url)).rejects.toThrow(TypeError);
  });

  it("live.sandbox.close() closes the sandbox's listeners too", async () => {
    const second = await live.sandbox.listen();
    live.sandbox.close();
    // Polled with a deadline: the listener closes on its own, and a loaded machine may take longer than any fixed wait.
    const outcome = () => fetch(`${second.url}/`).then((response) => `answered ${response.status}`, (error: unknown) => (error instanceof TypeError ? 'refused' : String(error)));
    await expect.poll(outcome, { timeout: 10_000, interval: 20 }).toBe('refused');
  });
});

describe('the service-sdk-sandbox command', () => {
  it('prints its URLs and credentials, serves requests, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'sandbox', 'bin.ts'), '--port', '0'], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const channelsUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /channels\s+(http:\/\/127\.0\.0\.1:\d+\/channels\/v1)/.exec(output);
          if (match && /apiSecret/.test(output)) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const apiKey = /channels apiKey\s+(\S+)/.exec(output)?.[1];
      expect(apiKey).toMatch(/^sandbox_[0-9a-f]{32}$/);
      const networks = await fetch(`${channelsUrl}/networks`, { headers: { Authorization: `Apikey ${apiKey}` } });
      expect(networks.status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      process.kill(-child.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 40_000);

  it('refuses an unknown flag with exit code 2 and says why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'sandbox', 'bin.ts'), '--prot', '1'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(errors).toMatch(/--prot/);
  }, 30_000);
});
