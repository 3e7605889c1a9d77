// The command line's fetch over node:http (src/cli/node-fetch.ts), answer
// for answer beside the platform's fetch: what the SDK's transport reads of
// an answer (status, headers, body, a redirect left to it), how a refused
// connection and an abort fail, and what a server sees of the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../src/cli/node-fetch.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

describe('the command line fetch on Node', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      if (request.url === '/empty') return response.writeHead(204, { 'x-request-id': 'r-1' }).end();
      if (request.url === '/moved') return response.writeHead(302, { location: '/elsewhere' }).end('moved');
      if (request.url === '/stall') return response.writeHead(200).write('{');
      response.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-multi': ['a', 'b'] }).end(JSON.stringify({ method: request.method, body: request.body, auth: request.headers.authorization }));
    });
  });
  afterAll(() => server.close());

  /** What the transport reads of an answer (its `type` only to tell an opaque redirect, which manual mode never gives on Node). */
  const seen = async (response: Response) => ({
    status: response.status,
    statusText: response.statusText,
    opaqueRedirect: response.type === 'opaqueredirect',
    contentType: response.headers.get('content-type'),
    multi: response.headers.get('x-multi'),
    requestId: response.headers.get('x-request-id'),
    location: response.headers.get('location'),
    body: response.body === null ? null : await response.text(),
  });

  it('answers as fetch does: status, headers, body, a 204 without a body, a redirect not followed', async () => {
    for (const [path, init] of [
      ['/things', { method: 'POST', body: '{"name":"x"}', headers: { authorization: 'Apikey k', 'content-type': 'application/json' } }],
      ['/empty', { method: 'DELETE' }],
      ['/moved', { method: 'GET' }],
    ] as const) {
      const request = () => new Request(`${server.origin}${path}`, { ...init, redirect: 'manual' });
      expect(await seen(await nodeFetch(request()))).toEqual(await seen(await fetch(request())));
    }
    expect(server.requests.filter((recorded) => recorded.url === '/things').map((recorded) => recorded.body)).toEqual(['{"name":"x"}', '{"name":"x"}']);
  });

  it('a refused connection fails as fetch fails (a TypeError whose cause has the errno code); an abort with the signal reason', async () => {
    const closed = await startLocalServer(() => undefined);
    await closed.close();
    const refused = await nodeFetch(new Request(`${closed.origin}/x`, { redirect: 'manual' })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError & { cause: { code: string } }).cause.code).toBe('ECONNREFUSED');
    const controller = new AbortController();
    const reason = new Error('deadline');
    const stalled = nodeFetch(new Request(`${server.origin}/stall`, { redirect: 'manual', signal: controller.signal }));
    await expect.poll(() => server.requests.some((recorded) => recorded.url === '/stall')).toBe(true);
    controller.abort(reason);
    await expect(stalled).rejects.toBe(reason);
  });
});
