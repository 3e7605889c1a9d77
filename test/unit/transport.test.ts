import { describe, expect, it } from 'vitest';
import { hmacAuthorizer } from '../../src/core/auth.js';
import { ApiConnectionError, ApiTimeoutError, ConfigurationError } from '../../src/core/errors.js';
import { DEFAULT_RETRY, type ResolvedRetryOptions } from '../../src/core/retry.js';
import { createTransport, type FetchLike } from '../../src/core/transport.js';
import { fakeFetch, hangingAnswer, instantSleep, json } from '../support/fake-fetch.js';

const URL_BASE = 'https://api.example.test/v1';

function transportFor(fetch: FetchLike, extra: Partial<Parameters<typeof createTransport>[0]> = {}) {
  const { sleep, waits } = instantSleep();
  const transport = createTransport({
    fetch,
    retry: DEFAULT_RETRY,
    timeoutMs: undefined,
    dedupKeys: ['idempotency_key', 'wallet_operation_id'],
    sleep,
    random: () => 0.5,
    now: () => Date.parse('2026-01-01T00:00:00Z'),
    ...extra,
  });
  return { transport, waits };
}

const get = (path = '/wallets', init: RequestInit = {}) => new Request(`${URL_BASE}${path}`, init);
const post = (body: unknown, init: RequestInit = {}) =>
  new Request(`${URL_BASE}/channels/c1/queries`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...init,
  });

describe('retry on status', () => {
  it.each([429, 500, 502, 503, 504])('retries a GET answered %i, then returns the success', async (status) => {
    const fake = fakeFetch(json(status, { type: 'X', message: 'x' }), json(200, { ok: true }));
    const { transport, waits } = transportFor(fake.fetch);
    const response = await transport(get());
    expect(response.status).toBe(200);
    expect(fake.sent).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409, 422])('never retries %i', async (status) => {
    const fake = fakeFetch(json(status, { type: 'X', message: 'x' }), json(200, {}));
    const { transport, waits } = transportFor(fake.fetch);
    const response = await transport(get());
    expect(response.status).toBe(status);
    expect(fake.sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up after the configured retries and returns the last answer', async () => {
    const fake = fakeFetch(json(503, {}), json(503, {}), json(503, {}), json(200, {}));
    const { transport, waits } = transportFor(fake.fetch);
    const response = await transport(get());
    expect(response.status).toBe(503);
    expect(fake.sent).toHaveLength(DEFAULT_RETRY.retries + 1);
    expect(waits).toHaveLength(DEFAULT_RETRY.retries);
  });

  it('uses exponential backoff with full jitter', async () => {
    const retry: ResolvedRetryOptions = { retries: 4, baseDelayMs: 100, maxDelayMs: 500, maxRetryAfterMs: 60_000 };
    const fake = fakeFetch(json(500, {}), json(500, {}), json(500, {}), json(500, {}), json(200, {}));
    const { transport, waits } = transportFor(fake.fetch, { retry, random: () => 0.5 });
    await transport(get());
    // caps 100, 200, 400, 500 (max) times the jitter draw 0.5
    expect(waits).toEqual([50, 100, 200, 250]);
  });

  it('honours Retry-After in seconds', async () => {
    const fake = fakeFetch(json(429, {}, { 'retry-after': '3' }), json(200, {}));
    const { transport, waits } = transportFor(fake.fetch);
    await transport(get());
    expect(waits).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const fake = fakeFetch(json(429, {}, { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), json(200, {}));
    const { transport, waits } = transportFor(fake.fetch);
    await transport(get());
    expect(waits).toEqual([7000]);
  });

  it('does not wait out a Retry-After longer than maxRetryAfterMs: the 429 is returned', async () => {
    const fake = fakeFetch(json(429, {}, { 'retry-after': '3600' }), json(200, {}));
    const { transport, waits } = transportFor(fake.fetch);
    const response = await transport(get());
    expect(response.status).toBe(429);
    expect(waits).toEqual([]);
  });

  it('retries nothing when retries is 0', async () => {
    const fake = fakeFetch(json(503, {}));
    const { transport } = transportFor(fake.fetch, { retry: { ...DEFAULT_RETRY, retries: 0 } });
    expect((await transport(get())).status).toBe(503);
    expect(fake.sent).toHaveLength(1);
  });
});

describe('which methods are retried', () => {
  it.each(['PUT', 'DELETE'])('retries an idempotent %s', async (method) => {
    const fake = fakeFetch(json(502, {}), json(200, {}));
    const { transport } = transportFor(fake.fetch);
    await transport(new Request(`${URL_BASE}/x`, { method, body: '{"a":1}' }));
    expect(fake.sent).toHaveLength(2);
    expect(fake.sent[1]!.body).toBe('{"a":1}');
  });

  it.each(['POST', 'PATCH'])('does not retry a %s without a deduplication key', async (method) => {
    const fake = fakeFetch(json(503, {}), json(200, {}));
    const { transport } = transportFor(fake.fetch);
    const response = await transport(new Request(`${URL_BASE}/wallets`, { method, body: '{"name":"w"}' }));
    expect(response.status).toBe(503);
    expect(fake.sent).toHaveLength(1);
  });

  it('retries a POST whose body carries the deduplication key, sending it unchanged', async () => {
    const fake = fakeFetch(json(500, {}), new TypeError('fetch failed'), json(202, {}));
    const { transport } = transportFor(fake.fetch);
    const body = { idempotency_key: '8b9f5c1e-2d4a-4e6b-9c3d-7a1f0e2b4c6d', query_kind: 'evm_call' };
    const response = await transport(post(body));
    expect(response.status).toBe(202);
    expect(fake.sent).toHaveLength(3);
    for (const sent of fake.sent) expect(JSON.parse(sent.body!)).toEqual(body);
  });

  it('treats an empty deduplication key as absent', async () => {
    const fake = fakeFetch(json(500, {}), json(200, {}));
    const { transport } = transportFor(fake.fetch);
    expect((await transport(post({ idempotency_key: '' }))).status).toBe(500);
  });
});

describe('network failures, timeouts and aborts', () => {
  it('retries a network error and throws ApiConnectionError when retries run out', async () => {
    const fake = fakeFetch(new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'));
    const { transport } = transportFor(fake.fetch);
    const error = await transport(get('/wallets/w1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect((error as ApiConnectionError).operation).toEqual({ method: 'GET', path: '/v1/wallets/w1', urlPath: '/v1/wallets/w1' });
    expect(fake.sent).toHaveLength(3);
  });

  it('times out a hung attempt, retries it, then throws ApiTimeoutError', async () => {
    const fake = fakeFetch(hangingAnswer(), hangingAnswer(), hangingAnswer());
    const { transport } = transportFor(fake.fetch, { timeoutMs: 20 });
    const error = await transport(get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).timeoutMs).toBe(20);
    expect(fake.sent).toHaveLength(3);
  });

  it('a timed-out attempt followed by a success returns the success', async () => {
    const fake = fakeFetch(hangingAnswer(), json(200, { ok: 1 }));
    const { transport } = transportFor(fake.fetch, { timeoutMs: 20 });
    expect((await transport(get())).status).toBe(200);
  });

  it('passes the caller abort through and never retries it', async () => {
    const controller = new AbortController();
    let calls = 0;
    const fetch: FetchLike = (request, init) => {
      calls++;
      const signal = init?.signal ?? request.signal;
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        controller.abort(new Error('caller gave up'));
      });
    };
    const { transport } = transportFor(fetch, { timeoutMs: 1000 });
    const error = await transport(get('/wallets', { signal: controller.signal })).catch((e: unknown) => e);
    expect((error as Error).message).toBe('caller gave up');
    expect(calls).toBe(1);
  });

  it('an abort during the backoff wait stops the retries', async () => {
    const controller = new AbortController();
    const fake = fakeFetch(json(503, {}), json(200, {}));
    const transport = createTransport({
      fetch: fake.fetch,
      retry: DEFAULT_RETRY,
      timeoutMs: undefined,
      dedupKeys: [],
      sleep: async (_ms, signal) => {
        controller.abort(new Error('stop'));
        signal?.throwIfAborted();
      },
    });
    await expect(transport(get('/x', { signal: controller.signal }))).rejects.toThrow('stop');
    expect(fake.sent).toHaveLength(1);
  });
});

describe('signing', () => {
  const key = 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11';
  it('re-signs every attempt with a fresh timestamp', async () => {
    let clock = 1_700_000_000_000;
    const authorize = hmacAuthorizer({ apiKey: key, apiSecret: 'test-secret-please-ignore' }, () => clock++);
    const fake = fakeFetch(json(503, {}), json(200, {}));
    const { transport } = transportFor(fake.fetch, { authorize });
    await transport(
      new Request(
        'https://api.testnet-dataengine.chain.link/api/v1/reports/latest?feedID=0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782',
      ),
    );
    const [first, second] = fake.sent;
    expect(first!.headers.get('authorization')).toBe(key);
    expect(first!.headers.get('x-authorization-timestamp')).toBe('1700000000000');
    expect(first!.headers.get('x-authorization-signature-sha256')).toBe(
      '4bebd6f37f60496dfaf1d79f11011d0203e7473368cf5ef4c55f4dc1e45e8ff1',
    );
    expect(second!.headers.get('x-authorization-timestamp')).toBe('1700000000001');
    expect(second!.headers.get('x-authorization-signature-sha256')).not.toBe(
      first!.headers.get('x-authorization-signature-sha256'),
    );
  });
});

describe("a call's own options", () => {
  it('an invalid deadlineMs rejects with ConfigurationError, and nothing is sent', async () => {
    const fake = fakeFetch(json(200, {}));
    const { transport } = transportFor(fake.fetch);
    const request = Object.assign(get(), { deadlineMs: -5 });
    let returned: Promise<Response> | undefined;
    // Rejects, never throws: the transport is called where a promise is expected.
    expect(() => {
      returned = transport(request);
    }).not.toThrow();
    await expect(returned).rejects.toBeInstanceOf(ConfigurationError);
    expect(fake.sent).toHaveLength(0);
  });
});
