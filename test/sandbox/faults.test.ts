// Injected faults: what `inject()` accepts (a misspelt route or field must
// fail loudly, or a user's retry test passes without testing anything), how
// the SDK's real client retries through them, and that `close()` ends the
// timers a fault started (a delayed answer must not outlive the sandbox and
// keep the process alive).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS_DEFAULT_BASE_URL } from '../../src/channels/client.js';
import { createChannelsClient, unwrap, type ChannelsClient } from '../../src/channels/index.js';
import { ApiConnectionError } from '../../src/core/errors.js';
import { createSandbox, SandboxUsageError, type FaultSpec, type Sandbox } from '../../src/sandbox/index.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

let sandbox: Sandbox;

beforeEach(() => {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
});

afterEach(() => {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
});

/** A channels client over `sandbox.fetch` that records when each request reached the sandbox. */
function countingClient(retry: Parameters<typeof createChannelsClient>[0]['retry'] = false): { client: ChannelsClient; arrivals: number[] } {
  const arrivals: number[] = [];
  const fetch: typeof sandbox.fetch = (input, init) => {
    arrivals.push(performance.now());
    return sandbox.fetch(input, init);
  };
  return { client: createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch, retry }), arrivals };
}

const listNetworks = () =>
  sandbox.fetch(`${CHANNELS_DEFAULT_BASE_URL}/networks`, { headers: { authorization: `Apikey ${sandbox.credentials.channels.apiKey}` } });

/** Timers this process has running (Node lists each as a `Timeout`). */
const runningTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

type Outcome = { value: unknown } | { error: unknown } | 'still pending';

/** How `promise` settled within `ms` real ms; the timer used to wait is cleared before this returns. */
async function settledWithin(ms: number, promise: Promise<unknown>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'still pending'>((resolve) => {
    timer = setTimeout(() => resolve('still pending'), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), late]);
  } finally {
    clearTimeout(timer);
  }
}

function usageError(run: () => unknown): SandboxUsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxUsageError);
    return error as SandboxUsageError;
  }
  throw new Error('expected a SandboxUsageError, nothing was thrown');
}

describe('close()', () => {
  it('ends a request held by a delayMs fault at once, with a SandboxUsageError, and leaves no timer running', async () => {
    const before = runningTimers();
    sandbox.inject({ route: 'listNetworks', delayMs: 5_000 });
    const pending = listNetworks();
    // The fault's timer runs: without it this test would measure nothing.
    expect(runningTimers()).toBe(before + 1);

    sandbox.close();
    const outcome = await settledWithin(100, pending);
    expect(outcome).toEqual({ error: expect.any(SandboxUsageError) });
    expect((outcome as { error: Error }).error.message).toBe('the sandbox is closed');
    expect(runningTimers()).toBe(before);
  });

  it('errors a body held back by a bodyDelayMs fault at once, and leaves no timer running', async () => {
    const before = runningTimers();
    sandbox.inject({ route: 'listNetworks', bodyDelayMs: 5_000 });
    const response = await listNetworks();
    expect(response.status).toBe(200);
    const body = response.text();
    expect(runningTimers()).toBe(before + 1);

    sandbox.close();
    const outcome = await settledWithin(100, body);
    expect(outcome).toEqual({ error: expect.any(SandboxUsageError) });
    expect(runningTimers()).toBe(before);
  });

  it('through the client: the held request fails with the SandboxUsageError itself, not retried, not a connection error', async () => {
    const { client, arrivals } = countingClient({ retries: 2, baseDelayMs: 1, maxDelayMs: 1 });
    sandbox.inject({ route: 'listNetworks', delayMs: 5_000 });
    const pending = client.GET('/networks');
    await new Promise((resolve) => setImmediate(resolve));
    sandbox.close();
    const outcome = await settledWithin(100, pending);
    expect(outcome).toEqual({ error: expect.any(SandboxUsageError) });
    expect((outcome as { error: Error }).error).not.toBeInstanceOf(ApiConnectionError);
    expect((outcome as { error: Error }).error.message).toBe('the sandbox is closed');
    expect(arrivals).toHaveLength(1);
  });
});

describe('inject() routes', () => {
  it('refuses an operationId no API has, naming it and the closest known one', () => {
    const error = usageError(() => sandbox.inject({ route: 'getWalet', status: 503 }));
    expect(error.message).toContain("'getWalet'");
    expect(error.message).toContain("did you mean 'getWallet'");
  });

  it('refuses a concrete path where a path template is expected, suggesting the template', () => {
    const error = usageError(() => sandbox.inject({ route: 'GET /wallets/2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d40', status: 503 }));
    expect(error.message).toContain("did you mean 'GET /wallets/{wallet_id}'");
  });

  it('refuses a lowercase method, suggesting the route as it matches', () => {
    expect(usageError(() => sandbox.inject({ route: 'get /networks', status: 503 })).message).toContain("did you mean 'GET /networks'");
  });

  it('refuses a route far from any, without a suggestion', () => {
    const error = usageError(() => sandbox.inject({ route: 'definitelyNotAnOperation', status: 503 }));
    expect(error.message).toContain("'definitelyNotAnOperation'");
    expect(error.message).not.toContain('did you mean');
  });

  it('accepts both forms of a known route, and the fault fires', async () => {
    sandbox.inject({ route: 'listNetworks', status: 503 });
    sandbox.inject({ route: 'GET /networks', status: 502 });
    expect((await listNetworks()).status).toBe(503);
    expect((await listNetworks()).status).toBe(502);
    expect((await listNetworks()).status).toBe(200);
  });
});

describe('inject() fields', () => {
  const refused: [string, unknown, RegExp][] = [
    ['a spec that is not an object', null, /inject\(\): expected a fault object/],
    ['an unknown field (a typo)', { status: 503, retryAftr: 1 }, /retryAftr/],
    ['a route that is not a string', { route: 42, status: 503 }, /route/],
    ['a status below 100', { status: 99 }, /status/],
    ['a status above 599', { status: 600 }, /status/],
    ['a fractional status', { status: 503.5 }, /status/],
    ['a status as a string', { status: '503' }, /status/],
    ['times 0', { status: 503, times: 0 }, /times/],
    ['fractional times', { status: 503, times: 1.5 }, /times/],
    ['a negative delayMs', { delayMs: -1 }, /delayMs/],
    ['a NaN delayMs', { delayMs: Number.NaN }, /delayMs/],
    ['a negative retryAfter', { status: 429, retryAfter: -1 }, /retryAfter/],
    ['a fractional retryAfter (Retry-After is whole seconds)', { status: 429, retryAfter: 1.5 }, /retryAfter/],
    ['a retryAfter without a status to carry it', { delayMs: 10, retryAfter: 1 }, /retryAfter/],
    ['drop that is not a boolean', { drop: 'yes' }, /drop/],
    ['drop together with a status it would hide', { drop: true, status: 503 }, /drop/],
    ['drop together with a bodyDelayMs it would hide', { drop: true, bodyDelayMs: 10 }, /drop/],
    ['nothing to inject', { route: 'listNetworks' }, /give a status/],
  ];

  it.each(refused)('refuses %s with a SandboxUsageError naming the field', (_what, spec, names) => {
    expect(usageError(() => sandbox.inject(spec as FaultSpec)).message).toMatch(names);
  });

  it('adds nothing when it refuses', async () => {
    usageError(() => sandbox.inject({ route: 'listNetworks', status: 503, retryAftr: 1 } as FaultSpec));
    expect((await listNetworks()).status).toBe(200);
  });

  it('takes times: Infinity for a fault that never runs out, until reset()', async () => {
    sandbox.inject({ route: 'listNetworks', status: 503, times: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 5; i++) expect((await listNetworks()).status).toBe(503);
    sandbox.reset();
    expect((await listNetworks()).status).toBe(200);
  });
});

describe('the client retries through injected faults', () => {
  it('a 429 with Retry-After: 1 is retried once, after the second it asks for', async () => {
    // Backoff of at most 1 ms: a wait of a second can only come from Retry-After.
    const { client, arrivals } = countingClient({ retries: 2, baseDelayMs: 1, maxDelayMs: 1 });
    sandbox.inject({ route: 'listNetworks', status: 429, retryAfter: 1 });
    const networks = await unwrap(client.GET('/networks'));
    expect(networks.data.length).toBeGreaterThan(0);
    expect(arrivals).toHaveLength(2);
    const waited = arrivals[1]! - arrivals[0]!;
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(3_000);
  });

  it('a 503 with no Retry-After is retried on the backoff schedule', async () => {
    const { client, arrivals } = countingClient({ retries: 2, baseDelayMs: 1, maxDelayMs: 1 });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 2 });
    const networks = await unwrap(client.GET('/networks'));
    expect(networks.data.length).toBeGreaterThan(0);
    expect(arrivals).toHaveLength(3);
  });
});
