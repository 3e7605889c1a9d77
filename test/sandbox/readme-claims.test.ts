// The README's behavioural sentences that no code block shows, each shown
// here through the public entries against the sandbox; each test's title is
// the sentence it backs (test/support/readme-claim.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  cancelOperation,
  createChannelsClient,
  createOperation,
  DraftOperationError,
  executeWithDraft,
  unwrap,
  waitForOperation,
  type ChannelsClient,
} from '../../src/channels/index.js';
import { ApiConnectionError, ApiError, ConfigurationError, SdkError } from '../../src/channels/index.js';
import { createSandbox, SandboxUsageError, type Sandbox } from '../../src/sandbox/index.js';
import { readmeClaim } from '../support/readme-claim.js';
import { rejection } from '../support/rejection.js';

const SEPOLIA = '16015286601757825753';
const TO = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';

let sandbox: Sandbox | undefined;
afterEach(() => {
  vi.useRealTimers();
  sandbox?.close();
  sandbox = undefined;
});

/** A channels client on a frozen sandbox, its requests counted, and a wallet and channel to use. */
async function frozenChannels(): Promise<{ channels: ChannelsClient; requests: () => number; channel_id: string; address: string }> {
  sandbox = createSandbox({ pace: 0 });
  const own = sandbox;
  let count = 0;
  const channels = createChannelsClient({
    apiKey: own.credentials.channels.apiKey,
    baseUrl: 'https://acme.example/v1',
    fetch: (input, init) => {
      count++;
      return own.fetch(input, init);
    },
  });
  const channel = await unwrap(channels.POST('/channels', { body: { name: 'claims' } }));
  const wallet = await unwrap(
    channels.POST('/wallets', {
      body: { name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
    }),
  );
  return { channels, requests: () => count, channel_id: channel.channel_id, address: wallet.address };
}

describe('README claims: the draft flow', () => {
  it(readmeClaim('Any failure is a `DraftOperationError`'), async () => {
    const { channels, channel_id, address } = await frozenChannels();
    const body = { chain_selector: SEPOLIA, address, wallet_operation_id: '9', deadline: 0, transactions: [{ to: TO, value: '0', data: '0x' }] };
    const draft = await createOperation(channels, channel_id, body);
    await cancelOperation(channels, { channel_id, operation_id: draft.operation_id });

    // The same wallet_operation_id again: the service hands back the cancelled operation, which cannot be finalized.
    const error = await rejection(executeWithDraft(channels, channel_id, body, () => ({ signature: `0x${'11'.repeat(65)}`, digest: `0x${'22'.repeat(32)}` })));
    expect(error).toBeInstanceOf(DraftOperationError);
    expect(error).toMatchObject({ name: 'NotADraftError', step: 'create', resumable: false, channel_id, operation_id: draft.operation_id, wallet_operation_id: '9' });
    expect((error as Error).message).toContain('cancelled');
  });
});

describe('README claims: waits', () => {
  it(readmeClaim('Between two reads they pause `intervalMs` (default 1 s), each pause `backoff` times the one before (default 1.5) up to `maxIntervalMs` (default 10 s)'), async () => {
    const { channels, requests, channel_id, address } = await frozenChannels();
    const operation = await createOperation(channels, channel_id, {
      chain_selector: SEPOLIA,
      address,
      wallet_operation_id: '1',
      deadline: 0,
      signature: `0x${'11'.repeat(65)}`,
      transactions: [{ to: TO, value: '0', data: '0x' }],
    });
    // The sandbox's clock is frozen, so the operation stays `accepted`: the wait reads on, on the test's fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const before = requests();
    const readsAt: number[] = [];
    const wait = waitForOperation(channels, { channel_id, operation_id: operation.operation_id }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    let last = before;
    for (let elapsed = 0; elapsed <= 60_000; elapsed += 50) {
      await vi.advanceTimersByTimeAsync(50);
      if (requests() !== last) {
        last = requests();
        readsAt.push(elapsed);
      }
    }
    await wait;
    const pauses = readsAt.slice(1).map((at, i) => at - readsAt[i]!);
    // 1 s, 1.5 s, 2.25 s, 3.375 s, 5.06 s, 7.59 s, then 10 s each (to the nearest step of 50 ms).
    const expected = [1_000, 1_500, 2_250, 3_375, 5_062.5, 7_593.75, 10_000, 10_000];
    expect(pauses.length).toBeGreaterThanOrEqual(expected.length);
    expected.forEach((ms, i) => expect(Math.abs(pauses[i]! - ms)).toBeLessThanOrEqual(50));
  });
});

describe('README claims: retries', () => {
  it(readmeClaim('(defaults: 2 retries, 300 ms base, 5 s cap; `retry: false` disables)'), async () => {
    const { channels, requests } = await frozenChannels();
    sandbox!.inject({ route: 'listNetworks', status: 503, times: Infinity });
    const before = requests();
    await rejection(unwrap(channels.GET('/networks')));
    expect(requests() - before).toBe(3); // the first attempt and 2 retries
  });
});

describe('README claims: which calls are retried', () => {
  it(readmeClaim('GET, PUT and DELETE are retried; a POST or PATCH only when its body carries the service\'s deduplication key'), async () => {
    const { channels, requests, channel_id, address } = await frozenChannels();
    sandbox!.inject({ route: 'createChannel', status: 503, times: Infinity });
    let before = requests();
    await rejection(unwrap(channels.POST('/channels', { body: { name: 'no key' } })));
    expect(requests() - before).toBe(1);

    sandbox!.inject({ route: 'createOperation', status: 503, times: Infinity });
    before = requests();
    const body = { chain_selector: SEPOLIA, address, wallet_operation_id: '5', deadline: 0, transactions: [{ to: TO, value: '0', data: '0x' }] };
    await rejection(createOperation(channels, channel_id, body));
    expect(requests() - before).toBe(3); // wallet_operation_id makes the POST safe to send again
  });

  it(readmeClaim('A `Retry-After` longer than `retry.maxRetryAfterMs` (default 60 s) or than what is left of the deadline is not waited out: the 429 or 503 comes back as an `ApiError` at once.'), async () => {
    const { channels, requests } = await frozenChannels();
    sandbox!.inject({ route: 'listNetworks', status: 503, retryAfter: 61, times: Infinity });
    const before = requests();
    const error = await rejection(unwrap(channels.GET('/networks')));
    expect(error).toMatchObject({ name: 'ApiError', status: 503 });
    expect(requests() - before).toBe(1);
  });
});

describe('README claims: time limits', () => {
  it(readmeClaim('Each attempt has `timeoutMs` (default 30 s) and the whole call, attempts, back-off, `Retry-After` waits and body included, has `deadlineMs` (default 60 s'), async () => {
    // The test's clock, before the client reads it: the call's deadline counts on it too.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const { channels, requests } = await frozenChannels();
    sandbox!.inject({ route: 'listNetworks', delayMs: 3_600_000, times: Infinity }); // an answer that never comes in time
    const before = requests();
    const call = rejection(unwrap(channels.GET('/networks')));
    const attemptsAt: number[] = [];
    let settled: unknown;
    void call.then((error) => (settled = error));
    for (let elapsed = 0; settled === undefined && elapsed <= 120_000; elapsed += 100) {
      if (requests() - before > attemptsAt.length) attemptsAt.push(elapsed);
      await vi.advanceTimersByTimeAsync(100);
    }
    // The first attempt times out at 30 s and is retried; the second runs into the 60 s deadline.
    expect(settled).toMatchObject({ name: 'ApiTimeoutError', kind: 'deadline' });
    expect(attemptsAt[0]).toBe(0);
    expect(attemptsAt[1]).toBeGreaterThanOrEqual(30_000);
    expect(attemptsAt[1]).toBeLessThanOrEqual(30_000 + 300 + 100);
    expect(attemptsAt).toHaveLength(2);
  });
});

describe('README claims: errors', () => {
  it(readmeClaim('Every failure is an `SdkError`; only a call you abort yourself rejects with your signal\'s reason (an `AbortError`), as `fetch` does.'), async () => {
    const { channels } = await frozenChannels();
    sandbox!.inject({ route: 'listNetworks', delayMs: 60_000, times: Infinity });
    sandbox!.inject({ route: 'getChannel', drop: true, times: Infinity });
    const failures: Promise<unknown>[] = [
      unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } } })),
      unwrap(channels.GET('/networks', { deadlineMs: 20 } as never)),
    ];
    failures.push(unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } } })));
    for (const error of await Promise.all(failures.map(rejection))) expect(error).toBeInstanceOf(SdkError);

    const controller = new AbortController();
    const aborted = unwrap(channels.GET('/networks', { signal: controller.signal }));
    controller.abort();
    const reason = await rejection(aborted);
    expect(reason).not.toBeInstanceOf(SdkError);
    expect(reason).toMatchObject({ name: 'AbortError' });
  });

  it(readmeClaim('`ApiError` | a non-2xx answer, with `status`, `type`, `code`, `message`, `operation` and `headers`'), async () => {
    const { channels } = await frozenChannels();
    const error = await rejection(unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } } })));
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError).toMatchObject({ status: 404, type: 'NOT_FOUND' });
    expect(typeof apiError.code).toBe('string');
    expect(apiError.message).toContain('GET');
    expect(apiError.operation).toMatchObject({ method: 'GET' });
    expect(apiError.headers.get('content-type')).toContain('json');
  });

  it(readmeClaim('`ApiConnectionError` | no complete answer: DNS, refused or reset connections'), async () => {
    const { channels, requests } = await frozenChannels();
    sandbox!.inject({ route: 'listNetworks', drop: true, times: Infinity });
    const before = requests();
    const error = await rejection(unwrap(channels.GET('/networks')));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect((error as ApiConnectionError).cause).toBeDefined();
    expect(requests() - before).toBe(3); // a connection failure is retried
  });

  it(readmeClaim('`SandboxUsageError` | (sandbox) a request the sandbox cannot serve, or a sandbox option or call that is malformed; never retried'), async () => {
    const { channels, requests } = await frozenChannels();
    const before = requests();
    const error = await rejection(unwrap(channels.GET('/no-such-thing' as '/networks')));
    expect(error).toBeInstanceOf(SandboxUsageError);
    expect(requests() - before).toBe(1);
    expect(() => sandbox!.inject({ route: 'listNetwork', status: 503 })).toThrow(SandboxUsageError);
  });

  it(readmeClaim('a client or call option is malformed, thrown at once: a `baseUrl` that is not an absolute http(s) URL or carries `user:password@`, an API key or header value a header cannot carry, an unknown `retry` setting, a fractional retry count, a negative duration'), () => {
    const malformed: Array<[string, () => unknown]> = [
      ['baseUrl', () => createChannelsClient({ apiKey: 'k', baseUrl: 'ftp://acme.example/v1' })],
      ['baseUrl', () => createChannelsClient({ apiKey: 'k', baseUrl: '/v1' })],
      ['baseUrl', () => createChannelsClient({ apiKey: 'k', baseUrl: 'https://user:s3cr3t@acme.example/v1' })],
      ['apiKey', () => createChannelsClient({ apiKey: 'line\nbreak', baseUrl: 'https://acme.example/v1' })],
      ['retry', () => createChannelsClient({ apiKey: 'k', baseUrl: 'https://acme.example/v1', retry: { retires: 2 } as never })],
      ['retries', () => createChannelsClient({ apiKey: 'k', baseUrl: 'https://acme.example/v1', retry: { retries: 1.5 } })],
      ['timeoutMs', () => createChannelsClient({ apiKey: 'k', baseUrl: 'https://acme.example/v1', timeoutMs: -1 })],
    ];
    for (const [option, make] of malformed) {
      let thrown: unknown;
      try {
        make();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, option).toBeInstanceOf(ConfigurationError);
      expect((thrown as Error).message, option).toContain(option);
      expect((thrown as Error).message).not.toContain('s3cr3t');
    }
  });

  it(readmeClaim('No error message, log or `JSON.stringify(client)` ever holds an API key, a secret, a header value or a URL password.'), async () => {
    sandbox = createSandbox({ pace: 0 });
    const { apiKey } = sandbox.credentials.channels;
    const channels = createChannelsClient({ apiKey, baseUrl: 'https://acme.example/v1', fetch: sandbox.fetch, headers: { 'x-tenant': 'tenant-header-value' } });
    expect(JSON.stringify(channels)).not.toContain(apiKey);
    sandbox.inject({ route: 'listNetworks', status: 503, times: Infinity });
    const errors = await Promise.all([
      rejection(unwrap(channels.GET('/networks'))),
      rejection(unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } } }))),
    ]);
    for (const error of errors) {
      const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ''}`;
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain('tenant-header-value');
    }
  });
});
