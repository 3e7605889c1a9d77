// Which failures of a `fetch` function are the network's (retried, an
// ApiConnectionError) and which are the function's own (a FetchFunctionError
// at once): the forms each runtime uses, real where Node can produce them.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isNetworkFailure } from '../../src/core/network-failure.js';

/** A port on the loopback that nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function withCode(error: Error, code: string): Error {
  return Object.assign(error, { code });
}

describe('network failures, as runtimes report them', () => {
  it("Node's fetch to a port nobody listens on (undici: TypeError 'fetch failed', cause ECONNREFUSED)", async () => {
    const error = await fetch(`http://127.0.0.1:${await closedPort()}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(isNetworkFailure(error)).toBe(true);
  });

  it.each([
    ['Chromium', new TypeError('Failed to fetch')],
    ['Firefox', new TypeError('NetworkError when attempting to fetch resource.')],
    ['Safari', new TypeError('Load failed')],
    ['Safari, a dropped connection', new TypeError('The network connection was lost.')],
    ['Deno', new TypeError('error sending request for url (https://api.example.com/v1/networks): client error (Connect)')],
    ['workerd', new Error('Network connection lost.')],
    ['undici, a body cut off', new TypeError('terminated', { cause: withCode(new Error('other side closed'), 'UND_ERR_SOCKET') })],
    ['Bun, refused', withCode(new Error('Unable to connect. Is the computer able to access the url?'), 'ConnectionRefused')],
    ['Bun, no socket', withCode(new Error('Was there a typo in the url or port?'), 'FailedToOpenSocket')],
    ['a system error', withCode(new Error('read ECONNRESET'), 'ECONNRESET')],
    ['a DNS failure', withCode(new Error('getaddrinfo EAI_AGAIN api.example.com'), 'EAI_AGAIN')],
    ['a refused certificate', withCode(new Error('certificate has expired'), 'CERT_HAS_EXPIRED')],
    ["a wrapper's own timeout", new DOMException('The operation was aborted due to timeout', 'TimeoutError')],
    ['a wrapper giving up around a network failure', new Error('gave up after 3 tries', { cause: new TypeError('fetch failed') })],
  ])('%s', (_runtime, error) => {
    expect(isNetworkFailure(error)).toBe(true);
  });
});

describe("failures of the fetch function itself", () => {
  it('a Request whose body was already read, as Node reports it', async () => {
    const request = new Request('http://127.0.0.1/', { method: 'POST', body: '{}' });
    await request.text();
    const error = await Promise.resolve()
      .then(() => fetch(request))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(isNetworkFailure(error)).toBe(false);
  });

  it.each([
    ["Chromium's unbound fetch", new TypeError("Failed to execute 'fetch' on 'Window': Illegal invocation")],
    ['a bad argument in Node', withCode(new TypeError('The "url" argument must be of type string'), 'ERR_INVALID_ARG_TYPE')],
    ["undici's argument check", withCode(new Error('invalid method'), 'UND_ERR_INVALID_ARG')],
    ["a wrapper's own Error", new Error('request logger is not configured')],
    ['a RangeError', new RangeError('sample rate out of range')],
    ['a string', 'offline mode'],
    ['undefined', undefined],
    ['an error whose cause points back at itself', (() => {
      const error = new Error('loop') as Error & { cause?: unknown };
      error.cause = error;
      return error;
    })()],
  ])('%s', (_what, error) => {
    expect(isNetworkFailure(error)).toBe(false);
  });
});
