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
