// The behaviour the README's usage sections state ("First calls", "Retries
// and time limits", "Pagination and waits") that no other test pinned down,
// each shown through the public entries against a sandbox whose clock does
// not move (pace 0), on the test's fake clock where time matters. Each test's
// title is the sentence it backs (test/support/readme-claim.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  collect,
  createOperation,
  DraftOperationError,
  executeWithDraft,
  paginate,
  PollTimeoutError,
  unwrap,
  waitForOperation,
  waitForOperationEvent,
} from '../../src/channels/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createStreamsClient, streamReports, type Report, type ReportStreamEvent } from '../../src/streams/index.js';
import { countedChannels, SEPOLIA } from '../support/counted-channels.js';
import { readmeClaim } from '../support/readme-claim.js';
import { waitFor } from '../support/report-stream.js';
import { rejection } from '../support/rejection.js';

const TO = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
/** The sandbox's trigger addresses (src/sandbox/channels/triggers.ts): an operation calling one ends `failed`, the other `expired`. */
const FAILING_ADDRESS = '0x000000000000000000000000000000000000fa11';
const SILENT_ADDRESS = '0x000000000000000000000000000000000000dead';
const ECDSA_SIGNATURE = `0x${'11'.repeat(65)}`;
const DIGEST = `0x${'22'.repeat(32)}`;

let sandbox: Sandbox | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  sandbox?.close();
  sandbox = undefined;
  // Every pending deadline of the process shares one timer (src/core/deadline-timer.ts), which stays armed
  // until it fires: fire it on this test's clock, or the next test's limits would wait on a timer that never runs.
  if (vi.isFakeTimers()) await vi.runAllTimersAsync();
  vi.useRealTimers();
});

/** The test's fake clock: timers, `Date`, and `performance`, which the calls' time limits count on. */
function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
}

/** A signed operation created on the channel: on a frozen sandbox it stays `accepted`. */
function signedOperation(channels: Parameters<typeof createOperation>[0], channel_id: string, address: string) {
  return createOperation(channels, channel_id, {
    chain_selector: SEPOLIA,
    address,
    wallet_operation_id: '1',
    deadline: 0,
    signature: ECDSA_SIGNATURE,
    transactions: [{ to: TO, value: '0', data: '0x' }],
  });
}

/** A sandbox whose clock moves only when the test says (`sandbox.advance`). */
function frozenSandbox(): Sandbox {
  sandbox = createSandbox({ pace: 0 });
  return sandbox;
}

/**
 * Runs `promise` on the test's fake clock, `stepMs` at a time, for at most
 * `limitMs`: when it settled (ms of fake time), and with what.
 */
async function settleOnFakeClock(promise: Promise<unknown>, stepMs: number, limitMs: number): Promise<{ at: number | undefined; outcome: unknown }> {
  let outcome: unknown;
  let done = false;
  void promise.then(
    (value) => ((outcome = value), (done = true)),
    (error: unknown) => ((outcome = error), (done = true)),
  );
  for (let elapsed = 0; elapsed <= limitMs; elapsed += stepMs) {
    if (done) return { at: elapsed, outcome };
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  return { at: done ? limitMs : undefined, outcome };
}

/** The fake-clock times (to `stepMs`) at which the counter `requests` moved, over the next `forMs`. */
async function readTimes(requests: () => number, forMs: number, stepMs = 50): Promise<number[]> {
  const times: number[] = [];
  let last = requests();
  for (let elapsed = stepMs; elapsed <= forMs; elapsed += stepMs) {
    await vi.advanceTimersByTimeAsync(stepMs);
    if (requests() !== last) {
      last = requests();
      times.push(elapsed);
    }
  }
  return times;
}

describe('README claims: waits', () => {
  it(readmeClaim('have their own `timeoutMs` (default 300 s)'), async () => {
    const own = frozenSandbox();
    const { channels, channel_id, address } = await countedChannels(own);
    const { operation_id } = await signedOperation(channels, channel_id, address);
    // The sandbox's clock is frozen: the operation stays `accepted`, and each wait runs out of its own time.
    useFakeClock();
    for (const wait of [
      () => waitForOperation(channels, { channel_id, operation_id }),
      () => waitForOperationEvent(channels, { channel_id, operation_id }),
    ]) {
      const { at, outcome } = await settleOnFakeClock(wait(), 500, 400_000);
      expect(outcome).toBeInstanceOf(PollTimeoutError);
      expect(at).toBeGreaterThanOrEqual(300_000);
      expect(at).toBeLessThanOrEqual(300_500);
    }
  });

  it(readmeClaim('while the event waits pause `intervalMs` every time'), async () => {
    const own = frozenSandbox();
    const { channels, requests, channel_id } = await countedChannels(own);
    useFakeClock();
    const wait = waitForOperationEvent(channels, { channel_id, operation_id: '9b2f6c1e-4d3a-4f5b-8e7c-1a2b3c4d5e6f' }, 'confirmed', { timeoutMs: 20_000 });
    wait.catch(() => undefined);
    const times = await readTimes(requests, 20_000);
    await rejection(wait);
    const pauses = times.slice(1).map((at, i) => at - times[i]!);
    // A read a second, for as long as the wait lasts: no growth (1.5 s, 2.25 s, … would be the resource waits' pauses).
    expect(pauses.length).toBeGreaterThanOrEqual(15);
    for (const pause of pauses) expect(Math.abs(pause - 1_000)).toBeLessThanOrEqual(50);
  });
});

describe('README claims: a wait reads with the limits of a call', () => {
  it(readmeClaim('Each read is a call with the limits above.'), async () => {
    useFakeClock();
    const own = frozenSandbox();
    const { channels, requests, channel_id, address } = await countedChannels(own);
    const { operation_id } = await signedOperation(channels, channel_id, address);
    // The wait's first read meets an answer that never comes: its attempt ends at the call's 30 s and is retried.
    own.inject({ route: 'getOperation', delayMs: 3_600_000, times: 1 });
    const before = requests();
    const wait = waitForOperation(channels, { channel_id, operation_id }, { timeoutMs: 120_000 });
    wait.catch(() => undefined);
    const times = [0, ...(await readTimes(() => requests() - before, 40_000))];
    expect(times[1]).toBeGreaterThanOrEqual(30_000);
    expect(times[1]).toBeLessThanOrEqual(30_000 + 300 + 50); // the attempt's limit, then at most the first back-off
    // The retry answered (`accepted`): the wait goes on, its next read a second later.
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1_000);
    expect(times[2]! - times[1]!).toBeLessThanOrEqual(1_050);
    expect((await settleOnFakeClock(wait, 1_000, 200_000)).outcome).toBeInstanceOf(PollTimeoutError);
  });
});

describe('README claims: paginators', () => {
  it(readmeClaim('A paginator has no overall limit of its own (a list can be long); each page is one call with the limits above'), async () => {
    useFakeClock();
    const own = frozenSandbox();
    const { channels, requests } = await countedChannels(own);
    for (const name of ['a', 'b', 'c']) {
      await unwrap(channels.POST('/wallets', { body: { name, wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' } }));
    }
    // Every page answers after 25 s: within a call's limits, while the walk of five pages takes over two minutes,
    // beyond the 60 s a single call may last.
    const slowPages = own.inject({ route: 'listWallets', delayMs: 25_000, times: Infinity });
    const before = requests();
    const { at, outcome } = await settleOnFakeClock(collect(paginate(channels, '/wallets', { pageSize: 1 })), 1_000, 300_000);
    expect(outcome, 'the walk ended').toHaveLength(4); // the treasury wallet and a, b, c
    expect(requests() - before).toBe(4);
    expect(at).toBeGreaterThanOrEqual(100_000);

    // A page is a call like any: one whose answer never comes ends at the client's time limits.
    slowPages.remove();
    own.inject({ route: 'listWallets', delayMs: 3_600_000, times: Infinity });
    const hung = await settleOnFakeClock(collect(paginate(channels, '/wallets', { pageSize: 1 })), 1_000, 300_000);
    expect(hung.outcome).toMatchObject({ name: 'ApiTimeoutError', kind: 'deadline' });
    expect(hung.at).toBeGreaterThanOrEqual(60_000);
    expect(hung.at).toBeLessThanOrEqual(61_000);
  });
});

describe('README claims: retries', () => {
  it(readmeClaim('with exponential backoff and full jitter (defaults: 2 retries, 300 ms base, 5 s cap; `retry: false` disables)'), async () => {
    useFakeClock();
    const own = frozenSandbox();
    own.inject({ route: 'listNetworks', status: 503, times: Infinity });
    /** The pauses between the attempts of one failing call, each pause's random draw pinned to `draw`. */
    const pausesWith = async (draw: number) => {
      vi.spyOn(Math, 'random').mockReturnValue(draw);
      // Six retries asked for, the base and the cap left at their defaults.
      const { channels, requests } = await countedChannels(own, { retry: { retries: 6 } });
      vi.restoreAllMocks();
      const before = requests();
      const call = rejection(unwrap(channels.GET('/networks')));
      // The first attempt goes at once (at 0), the retries after their pauses.
      const times = [0, ...(await readTimes(() => requests() - before, 20_000))];
      await call;
      expect(requests() - before).toBe(7);
      return times.slice(1).map((at, i) => at - times[i]!);
    };
    const near = (pauses: number[], expected: number[]) => expected.forEach((ms, i) => expect(Math.abs(pauses[i]! - ms), `pause ${i + 1}`).toBeLessThanOrEqual(50));

    // A draw near 1 makes each pause its cap: 300 ms doubling, never above 5 s.
    near(await pausesWith(0.9999), [300, 600, 1_200, 2_400, 4_800, 5_000]);
    // Full jitter: each pause is the draw's share of its cap.
    near(await pausesWith(0.5), [150, 300, 600, 1_200, 2_400, 2_500]);

    // retry: false: the one attempt.
    const once = await countedChannels(own, { retry: false });
    const before = once.requests();
    const { outcome } = await settleOnFakeClock(unwrap(once.channels.GET('/networks')), 50, 10_000);
    expect(outcome).toMatchObject({ name: 'ApiError', status: 503 });
    expect(once.requests() - before).toBe(1);
  });
});

describe("README claims: a call's time, whatever the service does", () => {
  it(readmeClaim('So with the defaults a call never takes more than about 60 s, whatever the service does.'), async () => {
    useFakeClock();
    const own = frozenSandbox();
    const { channels } = await countedChannels(own);
    const services = {
      'an answer that never comes': { delayMs: 3_600_000 },
      'headers at once, the body an hour later': { bodyDelayMs: 3_600_000 },
      '503 asking for 29 s each time': { status: 503, retryAfter: 29 },
      '429 asking for 59 s each time': { status: 429, retryAfter: 59 },
    };
    for (const [service, fault] of Object.entries(services)) {
      const handle = own.inject({ route: 'listNetworks', times: Infinity, ...fault });
      const { at, outcome } = await settleOnFakeClock(unwrap(channels.GET('/networks')), 100, 300_000);
      handle.remove();
      expect(outcome, service).toBeInstanceOf(Error);
      expect(at, service).toBeLessThanOrEqual(60_100);
    }
    // The limit that ends a call that never answers is the minute itself, not a shorter one.
    const hung = own.inject({ route: 'listNetworks', times: Infinity, delayMs: 3_600_000 });
    const { at, outcome } = await settleOnFakeClock(unwrap(channels.GET('/networks')), 100, 300_000);
    hung.remove();
    expect(outcome).toMatchObject({ name: 'ApiTimeoutError', kind: 'deadline' });
    expect(at).toBeGreaterThanOrEqual(60_000);
  });
});

describe('README claims: Retry-After', () => {
  it(readmeClaim('A `Retry-After` longer than `retry.maxRetryAfterMs` (default 60 s)'), async () => {
    useFakeClock();
    const own = frozenSandbox();
    // No deadline for the call: only maxRetryAfterMs decides whether a Retry-After is waited out.
    const { channels, requests } = await countedChannels(own, { deadlineMs: 0 });

    // A minute is waited out, and the retry answered.
    own.inject({ route: 'listNetworks', status: 503, retryAfter: 60, times: 1 });
    let before = requests();
    const waited = await settleOnFakeClock(unwrap(channels.GET('/networks')), 1_000, 120_000);
    expect(waited.outcome).toMatchObject({ has_more: false });
    expect(waited.at).toBeGreaterThanOrEqual(60_000);
    expect(requests() - before).toBe(2);

    // A second more is not: the 503 comes back at once.
    own.inject({ route: 'listNetworks', status: 503, retryAfter: 61, times: 1 });
    before = requests();
    const refused = await settleOnFakeClock(unwrap(channels.GET('/networks')), 10, 120_000);
    expect(refused.outcome).toMatchObject({ name: 'ApiError', status: 503 });
    expect(refused.at).toBeLessThanOrEqual(10);
    expect(requests() - before).toBe(1);
  });
});

describe('README claims: bounding a walk', () => {
  it(readmeClaim('pass a `signal` or `maxItems` to bound a walk'), async () => {
    const own = frozenSandbox();
    const { channels, requests } = await countedChannels(own);
    for (const name of ['a', 'b', 'c']) {
      await unwrap(channels.POST('/wallets', { body: { name, wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' } }));
    }
    // maxItems: two of the four wallets, and no page read beyond them.
    let before = requests();
    const two = await collect(paginate(channels, '/wallets', { pageSize: 1, maxItems: 2 }));
    expect(two).toHaveLength(2);
    expect(requests() - before).toBe(2);

    // signal: a page that never answers ends when the walk is aborted, with the signal's reason.
    own.inject({ route: 'listWallets', delayMs: 3_600_000, times: Infinity });
    const controller = new AbortController();
    before = requests();
    const walk = collect(paginate(channels, '/wallets', { pageSize: 1, signal: controller.signal })).catch((error: unknown) => error);
    await waitFor(() => requests() - before === 1, 'the first page to be asked for');
    const reason = new Error('the walk is long enough');
    controller.abort(reason);
    await expect(walk).resolves.toBe(reason);
    expect(requests() - before).toBe(1);
  });
});

describe('README claims: time limits', () => {
  it(readmeClaim('`0` or `Infinity` disables a limit, on the client or for one call'), async () => {
    useFakeClock();
    const own = frozenSandbox();
    // Answers that come after two minutes: beyond both default limits (30 s an attempt, 60 s a call).
    own.inject({ route: 'listNetworks', delayMs: 120_000, times: Infinity });
    for (const limits of [
      { timeoutMs: 0, deadlineMs: 0 },
      { timeoutMs: Number.POSITIVE_INFINITY, deadlineMs: Number.POSITIVE_INFINITY },
    ]) {
      const { channels, requests } = await countedChannels(own, limits);
      const before = requests();
      const { at, outcome } = await settleOnFakeClock(unwrap(channels.GET('/networks')), 1_000, 200_000);
      expect(outcome, JSON.stringify(limits)).toMatchObject({ has_more: false });
      expect(at).toBeGreaterThanOrEqual(120_000);
      expect(requests() - before, 'one attempt, never cut short').toBe(1);
    }
  });
});

describe('README claims: the draft flow', () => {
  it(readmeClaim('`executeWithDraft` refuses a malformed one before sending anything'), async () => {
    const own = frozenSandbox();
    const body = (wallet_operation_id: string, address: string) => ({
      chain_selector: SEPOLIA,
      address,
      wallet_operation_id,
      deadline: 0,
      transactions: [{ to: TO, value: '0', data: '0x' }],
    });

    // 256 bytes from an RSA-2048 signer is a signature the service takes: it is sent, and accepted.
    const rsa = await countedChannels(own, { walletType: 'rsa' });
    const rsaSignature = `0x${'ab'.repeat(256)}`;
    await expect(executeWithDraft(rsa.channels, rsa.channel_id, body('1', rsa.address), () => ({ signature: rsaSignature, digest: DIGEST }))).resolves.toMatchObject({
      status: 'accepted',
      signature: rsaSignature,
    });

    // What the service would refuse is refused by the SDK, the draft created and nothing more sent.
    const ecdsa = await countedChannels(own);
    const malformed = [
      { signature: ECDSA_SIGNATURE, digest: `0x${'22'.repeat(31)}`, says: 'a digest that is not 0x hex of 32 bytes' },
      { signature: ECDSA_SIGNATURE, digest: DIGEST.slice(2), says: 'a digest that is not 0x hex of 32 bytes' },
      { signature: `0x${'11'.repeat(66)}`, digest: DIGEST, says: 'a signature that is not 0x hex of 65 bytes (ECDSA) or 256 bytes (RSA-2048)' },
    ];
    for (const [i, { signature, digest, says }] of malformed.entries()) {
      const before = ecdsa.requests();
      const error = await rejection(executeWithDraft(ecdsa.channels, ecdsa.channel_id, body(String(10 + i), ecdsa.address), () => ({ signature, digest })));
      expect(error).toBeInstanceOf(DraftOperationError);
      expect(error).toMatchObject({ step: 'sign' });
      expect((error as Error).message).toContain(says);
      expect(ecdsa.requests() - before, 'the create only').toBe(1);
    }
  });

  it(readmeClaim('The finalize is tried again when it fails in a way another attempt may not (429, 5xx, no answer, a timeout), up to twice, and only after reading the operation back'), async () => {
    const own = frozenSandbox();
    const { channels, requests, channel_id, address } = await countedChannels(own);
    const body = (wallet_operation_id: string) => ({ chain_selector: SEPOLIA, address, wallet_operation_id, deadline: 0, transactions: [{ to: TO, value: '0', data: '0x' }] });
    const sign = () => ({ signature: ECDSA_SIGNATURE, digest: DIGEST });
    // Once each: the create, the finalize that fails, the read-back (still a draft), the finalize again.
    const faults = [{ status: 429 }, { status: 500 }, { drop: true }];
    for (const [i, fault] of faults.entries()) {
      own.inject({ route: 'finalizeOperation', times: 1, ...fault });
      const before = requests();
      await expect(executeWithDraft(channels, channel_id, body(String(20 + i)), sign), JSON.stringify(fault)).resolves.toMatchObject({ status: 'accepted' });
      expect(requests() - before, JSON.stringify(fault)).toBe(4);
    }
  });

  it(readmeClaim('(its subclass `NotADraftError` when the same `wallet_operation_id` already ended `cancelled`, `expired` or `failed`)'), async () => {
    const own = frozenSandbox();
    const { channels, requests, channel_id, address } = await countedChannels(own);
    const now = () => Math.floor(own.clock.now() / 1000);
    // The same draft flow ending `failed` (its transaction reverts) and `expired` (no answer before its deadline).
    const bodies = {
      failed: { chain_selector: SEPOLIA, address, wallet_operation_id: '71', deadline: now() + 3_600, transactions: [{ to: FAILING_ADDRESS, value: '0', data: '0x' }] },
      expired: { chain_selector: SEPOLIA, address, wallet_operation_id: '72', deadline: now() + 60, transactions: [{ to: SILENT_ADDRESS, value: '0', data: '0x' }] },
    };
    const sign = () => ({ signature: ECDSA_SIGNATURE, digest: DIGEST });
    const ids: Record<string, string> = {};
    for (const [status, body] of Object.entries(bodies)) ids[status] = (await executeWithDraft(channels, channel_id, body, sign)).operation_id;
    own.advance(3_600_000);
    for (const [status, body] of Object.entries(bodies)) {
      const operation = await unwrap(channels.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id, operation_id: ids[status]! } } }));
      expect(operation.status).toBe(status);

      // Called again with the same body: the service hands back the ended operation, which is never signed or finalized again.
      const before = requests();
      const error = await rejection(executeWithDraft(channels, channel_id, body, () => expect.unreachable('signed an ended operation')));
      expect(error).toBeInstanceOf(DraftOperationError);
      expect(error).toMatchObject({ name: 'NotADraftError', resumable: false, channel_id, operation_id: ids[status], wallet_operation_id: body.wallet_operation_id });
      expect((error as Error).message).toContain(status);
      expect(requests() - before, 'the create only').toBe(1);
    }
  });
});

describe('README claims: the live stream on a sandbox', () => {
  it(readmeClaim("reports are then dated by the sandbox's clock, so `sandbox.advance()` does not make them \"from the future\""), async () => {
    const own = frozenSandbox();
    const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
    const client = createStreamsClient({ ...own.credentials.streams, fetch: own.fetch });
    const events: ReportStreamEvent[] = [];
    // maxFutureMs is left at its default, a minute ahead of the clock the reports are judged by.
    const stream = streamReports(client, [ETH_USD], { reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, onStatus: (event) => events.push(event) });
    const received: Report[] = [];
    const done = (async () => {
      for await (const report of stream) received.push(report);
    })();
    try {
      await waitFor(() => events.some((event) => event.type === 'connected'), 'a connection');
      // An hour on: the sandbox's reports are now an hour ahead of this machine's clock.
      own.advance(3_600_000);
      const hourAhead = Math.floor(Date.now() / 1000) + 3_600 - 60;
      await waitFor(() => {
        if (!received.some((r) => r.observationsTimestamp >= hourAhead)) own.advance(1_000);
        return received.some((r) => r.observationsTimestamp >= hourAhead);
      }, 'a report of the sandbox hour');
    } finally {
      await stream.close();
      await done;
    }
    expect(events.filter((event) => event.type === 'message-skipped')).toEqual([]);
    expect(stream.stats.skipped).toBe(0);
  });
});

