import { afterEach, describe, expect, it } from 'vitest';
import { v3FeedID } from '../../src/sandbox/streams-websocket.js';
import {
  ConfigurationError,
  createStreamsClient,
  ReportStreamAuthError,
  ReportStreamMessageError,
  ReportStreamOverflowError,
  ReportStreamUnsupportedError,
  streamReports,
  type Report,
  type ReportStreamEvent,
} from '../../src/streams/index.js';
import { resolveSocketFactory } from '../../src/streams/report-stream/websocket.js';
import {
  activeTimers,
  consume,
  expectExactlyHistory,
  expectNothingOpen,
  expectSameAsPublished,
  openStream,
  publishEvery,
  QUICK_LIVENESS,
  sleep,
  StandardWebSocket,
  startHarness,
  waitFor,
  type Harness,
} from '../support/report-stream.js';

// Every case runs against a local report service with real HMAC checks,
// real WebSockets and real V3 reports, and ends by checking that nothing of
// the stream is left: no connection on the server, no timer in the process.

let harness: Harness | undefined;
let stopPublishing: (() => void) | undefined;

afterEach(async () => {
  stopPublishing?.();
  stopPublishing = undefined;
  await harness?.close();
  harness = undefined;
});

const ofType = <T extends ReportStreamEvent['type']>(events: ReportStreamEvent[], type: T) =>
  events.filter((e): e is Extract<ReportStreamEvent, { type: T }> => e.type === type);

const total = (h: Harness) => h.server.feeds.reduce((sum, feedID) => sum + h.server.history(feedID).length, 0);

describe('streamReports: two origins', () => {
  it('delivers every report once, in order per stream, decoded, whatever origin sent it first', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { decode: true });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    for (let i = 0; i < 20; i++) {
      server.publish();
      await sleep(2);
    }
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    expectSameAsPublished(server, received);
    for (const report of received) {
      expect(report.decoded.version).toBe('V3');
      expect(report.decoded.feedId).toBe(report.feedID);
      expect(report.decoded.observationsTimestamp).toBe(report.observationsTimestamp);
    }
    expect(ofType(events, 'origins')).toEqual([{ type: 'origins', origins: ['001', '002'], discovered: true }]);
    expect(ofType(events, 'connected').map((e) => e.origin).sort()).toEqual(['001', '002']);
    expect(events.at(-1)).toEqual({ type: 'closed' });
    // The second origin's copies were dropped, not delivered.
    const stats = stream.stats;
    expect(stats.accepted).toBe(received.length);
    expect(stats.duplicates).toBe(stats.received - stats.accepted);
    expect(stats.duplicates).toBeGreaterThan(0);
    await expectNothingOpen(server, timers);
  });

  it('keeps streaming when one origin is killed mid-stream, and takes it back when it returns', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    stopPublishing = publishEvery(server, 3);
    await waitFor(() => received.length >= 10, 'the first reports');

    server.killOrigin('001');
    await waitFor(() => ofType(events, 'origin-lost').length === 1, 'the lost origin to be noticed');
    await waitFor(() => ofType(events, 'reconnecting').length >= 2, 'reconnect attempts');
    const duringOutage = received.length;
    await waitFor(() => received.length >= duringOutage + 10, 'reports from the other origin meanwhile');
    server.restoreOrigin('001');
    await waitFor(() => server.connectionCount('001') === 1, 'origin 001 to be reconnected');
    await sleep(20);
    stopPublishing();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    expect(ofType(events, 'origin-lost')).toEqual([{ type: 'origin-lost', origin: '001', reason: 'closed', code: 1006 }]);
    expect(ofType(events, 'reconnecting').every((e) => e.origin === '001' && e.delayMs >= 0 && e.delayMs < 40)).toBe(true);
    expect(ofType(events, 'connected').map((e) => e.origin).sort()).toEqual(['001', '001', '002']);
    // Origin 002 never dropped: nothing was missed, so nothing was read back.
    expect(ofType(events, 'gap-filled')).toEqual([]);
    await expectNothingOpen(server, timers);
  });

  it('fills the gap from the REST API when every origin was down while reports were published', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { backfill: { pageSize: 7 } });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    stopPublishing = publishEvery(server, 3);
    await waitFor(() => received.length >= 10, 'the first reports');

    server.killOrigin('001');
    server.killOrigin('002');
    await waitFor(() => ofType(events, 'origin-lost').length === 2, 'both origins to be lost');
    const before = received.length;
    const published = total(harness);
    await waitFor(() => total(harness!) >= published + 40, 'reports published during the outage');
    expect(received.length).toBe(before);
    server.restoreOrigin('002');
    server.restoreOrigin('001');
    await waitFor(() => ofType(events, 'gap-filled').length === 2, 'the gap of both streams to be filled');
    await sleep(20);
    stopPublishing();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    const filled = ofType(events, 'gap-filled');
    expect(filled.map((e) => e.feedID).sort()).toEqual([...server.feeds].sort());
    for (const event of filled) expect(event.reports).toBeGreaterThanOrEqual(20);
    expect(stream.stats.backfilled).toBe(filled.reduce((sum, e) => sum + e.reports, 0));
    expect(server.requests.page).toBeGreaterThanOrEqual(2 * 3); // pages of 7 over 20+ reports, per stream
    await expectNothingOpen(server, timers);
  });

  it('fills the gap of a connection that went silent (no pong), then goes on live', async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, QUICK_LIVENESS);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    stopPublishing = publishEvery(server, 3);
    await waitFor(() => received.length >= 6, 'the first reports');

    server.silence('001');
    const before = received.length;
    await waitFor(() => ofType(events, 'origin-lost').length >= 1, 'the silent connection to be dropped');
    expect(ofType(events, 'origin-lost')[0]).toEqual({ type: 'origin-lost', origin: '001', reason: 'pong-timeout' });
    await waitFor(() => ofType(events, 'gap-filled').length >= 2, 'the gap to be filled');
    expect(received.length).toBeGreaterThan(before);
    await sleep(20);
    stopPublishing();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    expect(stream.stats.backfilled).toBeGreaterThan(0);
    await expectNothingOpen(server, timers);
  });

  it('drops duplicates: resends on one connection and copies from the other origin', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const { stream } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    for (let i = 0; i < 5; i++) server.publish();
    const firstFive = server.feeds.flatMap((feedID) => server.history(feedID));
    server.resend('001', firstFive);
    server.resend('002', firstFive.slice(-3));
    server.resend('002', firstFive);
    for (let i = 0; i < 5; i++) server.publish();
    // 20 reports from each origin, then 10 resent by 001 and 13 by 002.
    await waitFor(() => stream.stats.received === 2 * 20 + 10 + 13, 'every copy to arrive');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    expect(received).toHaveLength(20);
    expect(stream.stats.duplicates).toBe(stream.stats.received - 20);
    await expectNothingOpen(server, timers);
  });

  it('reports and skips malformed messages, and goes on', async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { decode: true });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    server.publish();
    const [feed] = server.feeds as [string];
    server.sendRaw('001', 'not json {');
    server.sendRaw('001', JSON.stringify({ report: { feedID: '0x12', observationsTimestamp: 1 } }));
    server.sendRaw('001', JSON.stringify({ report: { ...server.history(feed)[0], feedID: v3FeedID('not subscribed') } }));
    // A well-formed message whose blob does not decode, at a time no real report has.
    server.sendRaw('001', JSON.stringify({ report: { ...server.history(feed)[0], observationsTimestamp: 4_000_000_000, fullReport: '0x00ff' } }));
    server.publish();
    server.publish();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    const skipped = ofType(events, 'message-skipped').map((e) => e.error);
    expect(skipped.map((e) => e.problem)).toEqual(['not_json', 'not_a_report', 'unexpected_feed', 'undecodable']);
    for (const error of skipped) {
      expect(error).toBeInstanceOf(ReportStreamMessageError);
      expect(error.source).toBe('001');
    }
    expect(stream.stats.skipped).toBe(4);
    await expectNothingOpen(server, timers);
  });
});

describe('streamReports: refused credentials', () => {
  it('a wrong secret: the signed HEAD / is refused with 401, thrown as ReportStreamAuthError, no upgrade tried', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const client = createStreamsClient({ apiKey: server.credentials.apiKey, apiSecret: 'not-the-secret', baseUrl: server.url, retry: false });
    const events: ReportStreamEvent[] = [];
    const stream = streamReports(client, server.feeds, { wsUrl: server.wsUrl, onStatus: (e) => events.push(e) });
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportStreamAuthError);
    expect(error).toMatchObject({ status: 401, origin: undefined });
    expect(String((error as Error).message)).not.toContain('not-the-secret');
    expect(server.requests).toMatchObject({ head: 1, upgrade: 0 });
    expect(events.at(-1)).toEqual({ type: 'closed', error });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    await expectNothingOpen(server, timers);
  });

  it('an upgrade refused with 403 is thrown as ReportStreamAuthError and never retried', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    server.refuseUpgrades(403);
    const { stream, events } = openStream(harness);
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportStreamAuthError);
    expect(error).toMatchObject({ status: 403 });
    expect(['001', '002']).toContain((error as ReportStreamAuthError).origin);
    await sleep(100); // many reconnect delays (10–40 ms): a retry would show
    expect(server.requests.upgrade).toBeLessThanOrEqual(2);
    expect(ofType(events, 'reconnecting')).toEqual([]);
    await expectNothingOpen(server, timers);
  });

  it('an upgrade refused with 401 through a standard (Deno-style) WebSocket is an auth error too', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    server.refuseUpgrades(401);
    const { stream } = openStream(harness, { origins: ['002'], webSocket: StandardWebSocket });
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportStreamAuthError);
    expect(error).toMatchObject({ status: 401, origin: '002' });
    expect(server.requests).toMatchObject({ head: 0, upgrade: 1 });
    await expectNothingOpen(server, timers);
  });
});

describe('streamReports: a consumer slower than the stream', () => {
  it("'latest-per-feed' keeps the newest report of each stream and counts what it dropped", async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const timers = activeTimers();
    const { stream } = openStream(harness, { bufferSize: 4 });
    const first = stream.next();
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    for (let i = 0; i < 30; i++) server.publish();
    await waitFor(() => stream.stats.accepted === 60, 'every report to reach the stream');
    const waiting = stream.stats.buffered;
    // Each time the buffer filled, it kept only the newest report of each stream.
    expect(waiting).toBeGreaterThanOrEqual(2);
    expect(waiting).toBeLessThanOrEqual(4);
    // The first report went straight to the waiting consumer; the rest that is not waiting was dropped.
    expect(stream.stats.dropped).toBe(60 - 1 - waiting);
    const received: Report[] = [(await first).value as Report];
    for (let i = 0; i < waiting; i++) received.push((await stream.next()).value as Report);
    expect(stream.stats.buffered).toBe(0);
    server.publish();
    received.push((await stream.next()).value as Report, (await stream.next()).value as Report);
    await stream.close();

    expect(received).toHaveLength(1 + waiting + 2);
    for (const feedID of server.feeds) {
      const times = received.filter((r) => r.feedID === feedID).map((r) => r.observationsTimestamp);
      const history = server.history(feedID).map((r) => r.observationsTimestamp);
      expect(times, 'in order').toEqual([...times].sort((a, b) => a - b));
      // The newest of the 30 rounds was still waiting, then the 31st came live.
      expect(times.slice(-2)).toEqual(history.slice(-2));
    }
    expectSameAsPublished(server, received);
    await expectNothingOpen(server, timers);
  });

  it("'error' fails with ReportStreamOverflowError once the buffer is full, after the waiting reports", async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { bufferSize: 4, overflow: 'error' });
    const first = stream.next();
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    for (let i = 0; i < 5; i++) server.publish();
    await first;
    const values: Report[] = [];
    const error = await (async () => {
      for (;;) {
        const result = await stream.next();
        if (result.done) return undefined;
        values.push(result.value);
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportStreamOverflowError);
    expect(error).toMatchObject({ bufferSize: 4 });
    expect(values).toHaveLength(4);
    expect(ofType(events, 'closed')).toEqual([{ type: 'closed', error }]);
    await expectNothingOpen(server, timers);
  });
});

describe('streamReports: stopping', () => {
  it('the signal ends the loop quietly and closes everything', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const controller = new AbortController();
    const { stream } = openStream(harness, { signal: controller.signal });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    server.publish();
    await waitFor(() => received.length === 2, 'the first reports');
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    await expectNothingOpen(server, timers);
  });

  it('an aborted signal opens nothing; breaking out of the loop closes everything', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const aborted = openStream(harness, { signal: AbortSignal.abort() });
    expect(await aborted.stream.next()).toEqual({ value: undefined, done: true });
    expect(server.requests).toMatchObject({ head: 0, upgrade: 0 });

    const { stream } = openStream(harness);
    const publisher = waitFor(() => server.connectionCount() === 2, 'both origins').then(() => server.publish());
    for await (const report of stream) {
      expect(server.feeds).toContain(report.feedID);
      break;
    }
    await publisher;
    await expectNothingOpen(server, timers);
  });
});

describe('streamReports: runtimes and options', () => {
  it('streams through a standard WebSocket without ping, dropping a connection that goes silent', async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { webSocket: StandardWebSocket, ...QUICK_LIVENESS });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    stopPublishing = publishEvery(server, 3);
    await waitFor(() => received.length >= 4, 'the first reports');
    stopPublishing();
    // No traffic for longer than ping interval + pong timeout: taken as dead, reopened.
    await waitFor(() => ofType(events, 'origin-lost').length >= 1, 'the quiet connection to be dropped');
    expect(ofType(events, 'origin-lost')[0]).toMatchObject({ origin: '001', reason: 'silent' });
    await waitFor(() => server.connectionCount() === 1, 'the reconnect');
    server.publish();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;
    expectExactlyHistory(server, received);
    await expectNothingOpen(server, timers);
  });

  it('in a browser (no way to send headers) it fails with ReportStreamUnsupportedError', async () => {
    class BrowserWebSocket {}
    await expect(resolveSocketFactory(undefined, { WebSocket: BrowserWebSocket })).rejects.toBeInstanceOf(ReportStreamUnsupportedError);
    const noWs = resolveSocketFactory(undefined, { process: { versions: { node: '20.19.0' } } }, () => Promise.reject(new Error('not installed')));
    await expect(noWs).rejects.toThrow(/`ws` package could not be loaded/);
    await expect(noWs).rejects.toBeInstanceOf(ReportStreamUnsupportedError);
  });

  it('refuses bad input with ConfigurationError naming the option, before opening anything', () => {
    const client = createStreamsClient({ apiKey: '3fa85f64-5717-4562-b3fc-2c963f66afa6', apiSecret: 's' });
    const feed = v3FeedID('ETH/USD');
    const option = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        return (error as ConfigurationError).option;
      }
      return 'nothing thrown';
    };
    expect(option(() => streamReports(createStreamsClient(), [feed]))).toBe('apiKey');
    expect(option(() => streamReports({} as never, [feed]))).toBe('client');
    expect(option(() => streamReports(client, []))).toBe('feedIDs');
    expect(option(() => streamReports(client, ['0x1234']))).toBe('feedIDs');
    expect(option(() => streamReports(client, [feed, v3FeedID('BTC/USD')], { bufferSize: 1 }))).toBe('bufferSize');
    expect(option(() => streamReports(client, [feed], { overflow: 'drop-oldest' as never }))).toBe('overflow');
    expect(option(() => streamReports(client, [feed], { wsUrl: 'https://ws.example.test' }))).toBe('wsUrl');
    expect(option(() => streamReports(client, [feed], { origins: [] }))).toBe('origins');
    expect(option(() => streamReports(client, [feed], { pingIntervalMs: 0 }))).toBe('pingIntervalMs');
    expect(option(() => streamReports(client, [feed], { reconnect: { maxDelayMs: -1 } }))).toBe('reconnect.maxDelayMs');
    expect(option(() => streamReports(client, [feed]))).toBe('nothing thrown');
  });

  it('with no origin listed by HEAD /, opens one connection and lets the host pick', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    server.killOrigin('001');
    server.killOrigin('002');
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => ofType(events, 'reconnecting').length >= 1, 'a refused attempt (every origin down)');
    expect(ofType(events, 'origins')).toEqual([{ type: 'origins', origins: [new URL(server.wsUrl).host], discovered: false }]);
    server.restoreOrigin('002');
    await waitFor(() => server.connectionCount('002') === 1, 'the connection, on the origin the host picked');
    server.publish();
    await waitFor(() => received.length === 2, 'the reports');
    await stream.close();
    await done;
    expectExactlyHistory(server, received);
    await expectNothingOpen(server, timers);
  });
});
