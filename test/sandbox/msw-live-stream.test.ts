// The live report stream under MSW: a streams client made without a `fetch`
// option, in an application tested with `setupServer(...sandboxHandlers(sandbox))`,
// streams from that sandbox in process: the stream's probe goes through the
// global `fetch` MSW intercepts, so the sandbox is found; no WebSocket is
// opened to the service's host. Every connection beyond the loopback is
// refused and recorded.
import { setupServer } from 'msw/node';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { sandboxHandlers } from '../../src/sandbox/msw/index.js';
import { findStream, reportAt } from '../../src/sandbox/streams/index.js';
import { createStreamsClient } from '../../src/streams/index.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { streamFromSandbox } from '../support/sandbox-stream.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const FAST = { reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, pingIntervalMs: 200, pongTimeoutMs: 400 };

let sandbox: Sandbox;
let network: RefusedNetwork;
let server: ReturnType<typeof setupServer>;
/** URLs MSW found no handler for. */
let unhandled: string[];

beforeEach(() => {
  network = refuseNonLoopback();
  sandbox = createSandbox({ pace: 0 });
  unhandled = [];
  server = setupServer(...sandboxHandlers(sandbox));
  server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) });
});

afterEach(() => {
  server.close();
  sandbox.close();
  network.restore();
});

it('a streams client without fetch streams the sandbox\'s reports, in process, nothing beyond the loopback', async () => {
  const client = createStreamsClient({ ...sandbox.credentials.streams });
  const { received, events } = await streamFromSandbox(sandbox, client, [ETH_USD], 3, FAST);
  for (const report of received) {
    expect(report.fullReport).toBe(reportAt(findStream(report.feedID)!, report.observationsTimestamp).fullReport);
  }
  expect(events.find((event) => event.type === 'origins')).toMatchObject({ discovered: true });
  expect(network.attempts).toEqual([]);
  expect(unhandled).toEqual([]);
});
