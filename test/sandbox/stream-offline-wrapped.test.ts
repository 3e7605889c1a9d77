// Issue 30, item 3: a report stream on a client whose `fetch` wraps
// `sandbox.fetch` (the README's counting wrapper, a logging wrapper) still
// streams from that sandbox, in process, while every connection beyond the
// loopback is refused. Where the SDK cannot tell where the client's `fetch`
// leads, the stream refuses at once with a ConfigurationError naming the
// option to pass; it never connects off the machine.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { ConfigurationError } from '../../src/core/errors.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { findStream, reportAt } from '../../src/sandbox/streams/index.js';
import { createStreamsClient, streamReports, type Report, type ReportStreamOptions } from '../../src/streams/index.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { rejection } from '../support/rejection.js';
import { streamFromSandbox } from '../support/sandbox-stream.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const FAST = { reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, pingIntervalMs: 200, pongTimeoutMs: 400 };

let sandbox: Sandbox;
let network: RefusedNetwork;

beforeEach(() => {
  network = refuseNonLoopback();
  sandbox = createSandbox({ pace: 0 });
});

afterEach(() => {
  sandbox.close();
  network.restore();
});

type Fetch = typeof sandbox.fetch;

/**
 * Streams ETH/USD on a client over `fetch` until three reports arrived,
 * moving the sandbox's clock a second at a time; returns them and the
 * stream's events.
 */
async function threeReports(fetch: Fetch, options: ReportStreamOptions = {}) {
  const client = createStreamsClient({ ...sandbox.credentials.streams, fetch });
  return streamFromSandbox(sandbox, client, [ETH_USD], 3, { ...FAST, ...options });
}

function expectSandboxReports(received: readonly Report[]): void {
  expect(received.length).toBeGreaterThanOrEqual(3);
  for (const report of received) {
    expect(report.fullReport).toBe(reportAt(findStream(report.feedID)!, report.observationsTimestamp).fullReport);
  }
}

describe('a client whose fetch wraps sandbox.fetch streams from that sandbox, in process', () => {
  it("the README's counting wrapper: sandbox reports, both origins, nothing beyond the loopback", async () => {
    let requests = 0;
    const counting: Fetch = (input, init) => {
      requests++;
      return sandbox.fetch(input, init);
    };
    const { received, events } = await threeReports(counting);
    expectSandboxReports(received);
    expect(events.find((event) => event.type === 'origins')).toMatchObject({ origins: ['001', '002'], discovered: true });
    expect(requests).toBeGreaterThan(0);
    expect(network.attempts).toEqual([]);
  });

  it('a logging wrapper, (input, init) => sandbox.fetch(input, init): the same', async () => {
    const logged: string[] = [];
    const logging: Fetch = async (input, init) => {
      const response = await sandbox.fetch(input, init);
      logged.push(`${(input as Request).method} ${new URL((input as Request).url).pathname} ${response.status}`);
      return response;
    };
    const { received } = await threeReports(logging);
    expectSandboxReports(received);
    expect(logged.some((line) => line.startsWith('HEAD / '))).toBe(true);
    expect(network.attempts).toEqual([]);
  });

  it('with the origins given (no discovery to ask), still in process', async () => {
    const wrapped: Fetch = (input, init) => sandbox.fetch(input, init);
    const { received, events } = await threeReports(wrapped, { origins: ['001'] });
    expectSandboxReports(received);
    expect(events.filter((event) => event.type === 'connected').map((event) => (event as { origin: string }).origin)).toEqual(['001']);
    expect(network.attempts).toEqual([]);
  });
});

describe('what cannot work through a wrapper is refused before any connection', () => {
  const wrapped: Fetch = (input, init) => sandbox.fetch(input, init);

  it('a WebSocket of its own and no URL: ConfigurationError naming webSocket', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: wrapped });
    const error = await rejection(streamReports(client, [ETH_USD], { webSocket: WsWebSocket as never, ...FAST }).next());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('webSocket');
    expect(network.attempts).toEqual([]);
  });

  it("another service's WebSocket host for the sandbox's REST: ConfigurationError naming wsUrl", async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: wrapped });
    const stream = streamReports(client, [ETH_USD], { wsUrl: 'wss://ws.testnet-dataengine.chain.link', ...FAST });
    const error = await rejection(stream.next());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('wsUrl');
    expect(network.attempts).toEqual([]);
  });

  it('a wrapper that fails every request but its own REST host: the stream cannot tell where it leads, and names wsUrl', async () => {
    const onlyRest: Fetch = (input, init) => {
      if (new URL((input as Request).url).host !== 'api.testnet-dataengine.chain.link') throw new Error('unexpected host');
      return sandbox.fetch(input, init);
    };
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: onlyRest });
    const error = await rejection(streamReports(client, [ETH_USD], FAST).next());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('wsUrl');
    expect((error as Error).message).toContain('sandbox.listen()');
    expect(network.attempts).toEqual([]);
  });
});
