// Deadlines must hold end to end: a caller's abort and the per-attempt
// timeout cover the body too (a server may send headers and then stall), and
// a wait's own timeout bounds each of its reads (the client's timeout and
// retries could last much longer).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelsClient, PollTimeoutError, unwrap, waitForQuery, waitForQueryEvent } from '../../src/channels/index.js';
import { fakeFetch, hangingAnswer, json } from '../support/fake-fetch.js';

/** Settles within `ms`, or says it is still pending. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      (error: Error) => `rejected: ${error.name}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still pending'), ms)),
  ]);

describe('a body that stalls after the headers', () => {
  let server: Server;
  let baseUrl = '';
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":['); // and never more
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('the caller can still abort the call', async () => {
    const channels = createChannelsClient({ apiKey: 'k', baseUrl, timeoutMs: 30_000 });
    const controller = new AbortController();
    const call = unwrap(channels.GET('/wallets', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    expect(await within(call, 2_000)).toMatch(/^rejected/);
  });

  it('timeoutMs bounds the attempt', async () => {
    const channels = createChannelsClient({ apiKey: 'k', baseUrl, timeoutMs: 200, retry: false });
    expect(await within(unwrap(channels.GET('/wallets')), 2_000)).toBe('rejected: ApiTimeoutError');
  });
});

describe('a wait whose read hangs', () => {
  const slowClient = (...answers: Parameters<typeof fakeFetch>) =>
    createChannelsClient({ apiKey: 'k', fetch: fakeFetch(...answers).fetch, timeoutMs: 1_000 });

  it('waitForQuery ends near its own timeoutMs with PollTimeoutError', async () => {
    const channels = slowClient(json(200, { query_id: 'q', status: 'accepted' }), hangingAnswer(), hangingAnswer(), hangingAnswer());
    const started = Date.now();
    const error = await waitForQuery(channels, { channel_id: 'c', query_id: 'q' }, { intervalMs: 10, timeoutMs: 200 }).catch((e) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error.lastStatus).toBe('accepted');
    expect(Date.now() - started).toBeLessThan(700);
  });

  it('waitForQueryEvent ends near its own timeoutMs with PollTimeoutError', async () => {
    const channels = slowClient(hangingAnswer(), hangingAnswer(), hangingAnswer());
    const started = Date.now();
    const error = await waitForQueryEvent(channels, { channel_id: 'c', query_id: 'q' }, { timeoutMs: 200 }).catch((e) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(Date.now() - started).toBeLessThan(700);
  });
});

describe('concurrent calls on a server that never answers', () => {
  let server: Server;
  let baseUrl = '';
  beforeAll(async () => {
    server = createServer(() => undefined); // holds every request
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** Settles with the outcome and the ms it took from `start`. */
  const timed = (call: Promise<unknown>, start: number) =>
    call.then(
      () => ({ outcome: 'resolved', ms: performance.now() - start }),
      (error: Error) => ({ outcome: error.name, ms: performance.now() - start }),
    );

  it("a caller's abort ends its own call only; the others end at their own timeoutMs, not before", async () => {
    // Calls without a signal share their time limit's AbortSignal; a call with one must keep its own.
    const channels = createChannelsClient({ apiKey: 'k', baseUrl, timeoutMs: 400, retry: false });
    const controller = new AbortController();
    const start = performance.now();
    const first = timed(unwrap(channels.GET('/wallets')), start);
    const aborted = timed(unwrap(channels.GET('/wallets', { signal: controller.signal })), start);
    const last = timed(unwrap(channels.GET('/wallets')), start);
    setTimeout(() => controller.abort(), 50);
    expect(await within(first, 150)).toBe('still pending');
    const abortedAt = await aborted;
    expect(abortedAt.outcome).toBe('AbortError');
    expect(abortedAt.ms).toBeLessThan(300);
    for (const call of [await first, await last]) {
      expect(call.outcome).toBe('ApiTimeoutError');
      expect(call.ms).toBeGreaterThanOrEqual(400);
      expect(call.ms).toBeLessThan(1_500);
    }
  });

  it("a middleware's own Request keeps its signal", async () => {
    const channels = createChannelsClient({ apiKey: 'k', baseUrl, timeoutMs: 30_000, retry: false });
    const controller = new AbortController();
    channels.use({ onRequest: ({ request }) => new Request(request, { signal: controller.signal }) });
    const call = unwrap(channels.GET('/wallets'));
    setTimeout(() => controller.abort(), 50);
    expect(await within(call, 1_000)).toBe('rejected: AbortError');
  });
});
