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
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
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
