// A user's test suite switches fake timers on and off around its tests. Every
// pending time limit of the process shares one timer (src/core/deadline-timer.ts):
// when a test ends on a fake clock with that timer armed, the fake timer never
// runs. The calls made afterwards, on the real clock, must still be held to
// their limits, or a hung request in a later test would hang the suite.
import { afterEach, expect, it, vi } from 'vitest';
import { ApiTimeoutError, createChannelsClient, unwrap } from '../../src/channels/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox | undefined;
afterEach(() => {
  vi.useRealTimers();
  sandbox?.close();
});

/** A channels client on a sandbox that answers no request for an hour. */
function hungClient(options: { deadlineMs: number }) {
  sandbox = createSandbox();
  sandbox.inject({ delayMs: 3_600_000, times: Infinity });
  return createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch, retry: false, timeoutMs: 0, ...options });
}

/** The call's outcome, or 'still pending' once `ms` of real time have passed. */
async function outcomeWithin<T>(call: Promise<T>, ms: number): Promise<T | unknown | 'still pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sentinel = new Promise<'still pending'>((resolve) => (timer = setTimeout(() => resolve('still pending'), ms)));
  try {
    return await Promise.race([call.then((value) => value, (error: unknown) => error), sentinel]);
  } finally {
    clearTimeout(timer);
  }
}

it('a call on the real clock keeps its time limit after a test ended on fake timers with a limit pending', async () => {
  const channels = hungClient({ deadlineMs: 50 });
  // The earlier test: fake timers, a call in flight, its limit armed on the fake clock; it ends without running them.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  const caller = new AbortController();
  const earlier = channels.GET('/networks', { signal: caller.signal }).catch(() => undefined);
  caller.abort();
  await earlier;
  vi.useRealTimers();

  // The next test, on the real clock: a hung request must end at its limit.
  const outcome = await outcomeWithin(unwrap(channels.GET('/networks', { deadlineMs: 300 })), 10_000);
  expect(outcome, String(outcome)).toBeInstanceOf(ApiTimeoutError);
  expect((outcome as ApiTimeoutError).kind).toBe('deadline');
});
