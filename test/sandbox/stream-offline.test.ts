// A report stream on a client made with `fetch: sandbox.fetch` streams from
// that sandbox, in process, with no URL given, while every connection to a
// host other than the loopback is refused: nothing leaves the machine. The
// combinations that cannot work say so at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { decodeReport } from '../../src/reports/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { findStream, reportAt } from '../../src/sandbox/streams/index.js';
import {
  createStreamsClient,
  ReportStreamAuthError,
  streamReports,
  type Report,
  type ReportStreamEvent,
  type ReportWithDecoded,
} from '../../src/streams/index.js';
import { thrownOption } from '../support/configuration-error.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { waitFor } from '../support/report-stream.js';
import { STREAM_WAIT_MS } from '../support/sandbox-stream.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
const FAST = { reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, pingIntervalMs: 200, pongTimeoutMs: 400 };

let sandbox: Sandbox;
let network: RefusedNetwork;

beforeEach(() => {
  network = refuseNonLoopback();
  // Ten sandbox seconds per real one: a report every 100 ms.
  sandbox = createSandbox({ pace: 10 });
});

afterEach(() => {
  sandbox.close();
  network.restore();
});

describe('a stream on a sandbox-backed client', () => {
  it('the test itself: connections beyond the loopback are refused and recorded', async () => {
    await expect(fetch('https://api.testnet-dataengine.chain.link/')).rejects.toThrow();
    const socket = new WsWebSocket('wss://ws.testnet-dataengine.chain.link/api/v1/ws');
    await new Promise((resolve) => socket.on('error', resolve));
    expect(network.attempts).toEqual(['api.testnet-dataengine.chain.link:443', 'ws.testnet-dataengine.chain.link:443']);
  });

  it('streams from the sandbox in process with no URL given: both origins, decoded, exactly the REST reports', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const events: ReportStreamEvent[] = [];
    const stream = streamReports(client, [ETH_USD, BTC_USD], { decode: true, onStatus: (e) => events.push(e), ...FAST });
    const received: ReportWithDecoded[] = [];
    const done = (async () => {
      for await (const report of stream) received.push(report);
    })();
    await waitFor(() => received.length >= 6, 'six reports', STREAM_WAIT_MS);
    await stream.close();
    await done;

    expect(network.attempts).toEqual([]);
    expect(events.find((e) => e.type === 'origins')).toMatchObject({ origins: ['001', '002'], discovered: true });
    expect(events.filter((e) => e.type === 'connected').map((e) => (e as { origin: string }).origin).sort()).toEqual(['001', '002']);
    for (const report of received) {
      expect(report.fullReport).toBe(reportAt(findStream(report.feedID)!, report.observationsTimestamp).fullReport);
      expect(report.decoded).toEqual(decodeReport(report.fullReport, report.feedID));
    }
    for (const feedID of [ETH_USD, BTC_USD]) {
      const times = received.filter((r) => r.feedID === feedID).map((r) => r.observationsTimestamp);
      expect(times.length).toBeGreaterThan(1);
      // Each second once, in order, none missing: the second origin's copies were dropped.
      expect(times).toEqual(Array.from({ length: times.length }, (_, i) => times[0]! + i));
    }
    expect(stream.stats.duplicates).toBeGreaterThan(0);
    expect(stream.stats.skipped).toBe(0);
  });

  it('an origin dropped and restored is reconnected in process and its gap filled through sandbox.fetch', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const events: ReportStreamEvent[] = [];
    const stream = streamReports(client, [ETH_USD], { onStatus: (e) => events.push(e), ...FAST });
    const received: Report[] = [];
    const done = (async () => {
      for await (const report of stream) received.push(report);
    })();
    await waitFor(() => events.filter((e) => e.type === 'connected').length === 2, 'both origins', STREAM_WAIT_MS);
    sandbox.streamOrigins.drop('001');
    sandbox.streamOrigins.drop('002');
    await waitFor(() => events.filter((e) => e.type === 'origin-lost').length === 2, 'both origins lost', STREAM_WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    sandbox.streamOrigins.restore('001');
    sandbox.streamOrigins.restore('002');
    await waitFor(() => events.some((e) => e.type === 'gap-filled'), 'the gap to be filled', STREAM_WAIT_MS);
    const count = received.length;
    await waitFor(() => received.length > count + 2, 'live reports after the gap', STREAM_WAIT_MS);
    await stream.close();
    await done;

    expect(network.attempts).toEqual([]);
    const times = received.map((r) => r.observationsTimestamp);
    expect(times).toEqual(Array.from({ length: times.length }, (_, i) => times[0]! + i));
    expect(stream.stats.backfilled).toBeGreaterThan(0);
  });

  it("refuses the sandbox's made-up secret's impostor as the service would (ReportStreamAuthError)", async () => {
    const client = createStreamsClient({ apiKey: sandbox.credentials.streams.apiKey, apiSecret: 'not the secret', fetch: sandbox.fetch });
    const stream = streamReports(client, [ETH_USD], { origins: ['001'], ...FAST });
    await expect(stream.next()).rejects.toBeInstanceOf(ReportStreamAuthError);
    expect(network.attempts).toEqual([]);
  });

  it('says at once when a combination cannot work', () => {
    const onSandbox = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    // A WebSocket of its own but no URL: it would connect to the public host.
    expect(thrownOption(() => streamReports(onSandbox, [ETH_USD], { webSocket: WsWebSocket as never }))).toBe('webSocket');
    // Sandbox REST with another service's live stream.
    expect(thrownOption(() => streamReports(onSandbox, [ETH_USD], { wsUrl: 'wss://ws.testnet-dataengine.chain.link' }))).toBe('wsUrl');
    // A service of its own (a proxy, a local one) and no wsUrl: the public host is not that service.
    const proxied = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: 'http://127.0.0.1:9/streams' });
    expect(thrownOption(() => streamReports(proxied, [ETH_USD]))).toBe('wsUrl');
    expect(network.attempts).toEqual([]);
  });
});
