// Issue 30, item 5: a failure of the caller's own `fetch` (a wrapper of
// `sandbox.fetch` that throws, reuses a consumed Request or forgets to return)
// says so in the error's own message, with the original message, and is not
// retried as if the service were silent. A network failure, even through a
// wrapper, is still an ApiConnectionError and still retried.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiConnectionError, createChannelsClient, FetchFunctionError, SdkError, unwrap } from '../../src/channels/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { rejection } from '../support/rejection.js';

let sandbox: Sandbox;

beforeEach(() => {
  sandbox = createSandbox({ pace: 0 });
});

afterEach(() => {
  sandbox.close();
});

type Fetch = typeof sandbox.fetch;

/** A channels client over `wrap(sandbox.fetch)` that counts the calls of the wrapper, with retries that do not wait. */
function clientOver(wrap: (inner: Fetch) => Fetch) {
  const wrapped = wrap(sandbox.fetch);
  let calls = 0;
  const fetch: Fetch = (input, init) => {
    calls++;
    return wrapped(input, init);
  };
  const client = createChannelsClient({
    apiKey: sandbox.credentials.channels.apiKey,
    fetch,
    retry: { retries: 2, baseDelayMs: 0 },
  });
  return { client, calls: () => calls };
}

const listNetworks = (client: ReturnType<typeof clientOver>['client']) => unwrap(client.GET('/networks'));

describe("the caller's own fetch failing is named as such, and not retried", () => {
  it('a logging wrapper that reads the body first: the TypeError of the consumed Request is in the message', async () => {
    const { client, calls } = clientOver((inner) => async (input, init) => {
      const request = input as Request;
      await request.text(); // "log" the body, leaving sandbox.fetch a consumed Request
      return inner(request, init);
    });
    const error = await rejection(unwrap(client.POST('/channels', { body: { name: 'payouts' } })));
    expect(error).toBeInstanceOf(FetchFunctionError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).not.toBeInstanceOf(ApiConnectionError);
    const { message, cause, operation } = error as FetchFunctionError;
    expect(cause).toBeInstanceOf(TypeError);
    // The runtime's own words about the used body, whatever they are, in the error's own message.
    expect(message).toBe(`POST /channels failed: your fetch threw TypeError: ${(cause as TypeError).message}`);
    expect((cause as TypeError).message).toMatch(/used|unusable|already been read/i);
    expect(operation).toEqual({ method: 'POST', path: '/channels', urlPath: '/v1/channels' });
    expect(calls()).toBe(1);
  });

  it('a wrapper that rejects with its own Error: one call, the message quoted', async () => {
    const { client, calls } = clientOver(() => async () => {
      throw new Error('request logger is not configured');
    });
    const error = await rejection(listNetworks(client));
    expect(error).toBeInstanceOf(FetchFunctionError);
    expect((error as Error).message).toBe('GET /networks failed: your fetch threw Error: request logger is not configured');
    expect(calls()).toBe(1);
  });

  it('a wrapper that throws synchronously: the same, not a bare exception', async () => {
    const { client, calls } = clientOver(() => () => {
      throw new RangeError('sample rate out of range');
    });
    const error = await rejection(listNetworks(client));
    expect(error).toBeInstanceOf(FetchFunctionError);
    expect((error as Error).message).toBe('GET /networks failed: your fetch threw RangeError: sample rate out of range');
    expect(calls()).toBe(1);
  });

  it('a wrapper that forgets to return the answer: named, not a TypeError about reading undefined', async () => {
    const { client, calls } = clientOver((inner) => ((input: Request, init?: RequestInit) => {
      void inner(input, init);
    }) as unknown as Fetch);
    const error = await rejection(listNetworks(client));
    expect(error).toBeInstanceOf(FetchFunctionError);
    expect((error as Error).message).toBe('GET /networks failed: your fetch resolved to undefined instead of a Response');
    expect(calls()).toBe(1);
  });

  it('a thrown value that is not an Error is quoted too', async () => {
    const { client } = clientOver(() => async () => {
      throw 'offline mode';
    });
    const error = await rejection(listNetworks(client));
    expect(error).toBeInstanceOf(FetchFunctionError);
    expect((error as Error).message).toBe('GET /networks failed: your fetch threw "offline mode"');
  });

  it("the API key a wrapper's message happens to quote is not repeated in the SDK's message", async () => {
    const { client } = clientOver(() => async (input) => {
      throw new Error(`refusing to log ${(input as Request).headers.get('authorization')}`);
    });
    const error = (await rejection(listNetworks(client))) as Error;
    expect(error).toBeInstanceOf(FetchFunctionError);
    expect(error.message).not.toContain(sandbox.credentials.channels.apiKey);
    expect(error.message).toContain('refusing to log [redacted]');
  });
});

describe('a network failure through a wrapper is still the service not answering', () => {
  it("a dropped connection passes through the wrapper: ApiConnectionError, retried", async () => {
    sandbox.inject({ route: 'GET /networks', drop: true, times: Infinity });
    const { client, calls } = clientOver((inner) => (input, init) => inner(input, init));
    const error = await rejection(listNetworks(client));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(calls()).toBe(3);
  });

  it('a retrying wrapper that gives up with its own Error around the network failure: ApiConnectionError', async () => {
    sandbox.inject({ route: 'GET /networks', drop: true, times: Infinity });
    const { client, calls } = clientOver((inner) => async (input, init) => {
      try {
        return await inner(input, init);
      } catch (failure) {
        throw new Error('gave up after one try', { cause: failure });
      }
    });
    const error = await rejection(listNetworks(client));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(calls()).toBe(3);
  });
});
