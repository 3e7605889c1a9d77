import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStreamsClient,
  ReportStreamAuthError,
  ReportStreamMessageError,
  ReportStreamOverflowError,
  ReportStreamUnsupportedError,
  streamReports,
  STREAMS_WS_URLS,
  type Report,
  type ReportStreamEvent,
} from '../../src/streams/index.js';
import { FeedState, RECENT_WINDOW_SECONDS } from '../../src/streams/report-stream/watermarks.js';
import { resolveSocketFactory } from '../../src/streams/report-stream/websocket.js';
import { runtimeSocket } from '#stream-socket';
import { WebSocket as WsWebSocket } from 'ws';
import * as browserSocket from '../../src/platform/stream-socket.browser.js';
import * as defaultSocket from '../../src/platform/stream-socket.default.js';
import * as edgeSocket from '../../src/platform/stream-socket.edge-light.js';
import * as nodeSocket from '../../src/platform/stream-socket.node.js';
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
import { thrownOption } from '../support/configuration-error.js';
import { makeV3Report, v3FeedID } from '../support/report-server.js';

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

/** Whether `events` hold a gap-filled event of every stream of `feeds`. */
const filledEvery = (feeds: readonly string[], events: readonly ReportStreamEvent[]) =>
  feeds.every((feedID) => events.some((e) => e.type === 'gap-filled' && e.feedID === feedID));

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
    // The reconnect's backfill of every stream, which the checks below count on (not a guess of how long it takes).
    await waitFor(() => filledEvery(server.feeds, events), "the reconnect's backfill of every stream");
    stopPublishing();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    expect(ofType(events, 'origin-lost')).toEqual([{ type: 'origin-lost', origin: '001', reason: 'closed', code: 1006 }]);
    expect(ofType(events, 'reconnecting').every((e) => e.origin === '001' && e.delayMs >= 0 && e.delayMs < 40)).toBe(true);
    expect(ofType(events, 'connected').map((e) => e.origin).sort()).toEqual(['001', '001', '002']);
    // The reconnect of 001 alone started a backfill of every stream (here it finds nothing 002 did not deliver).
    expect(ofType(events, 'gap-filled').map((e) => e.feedID).sort()).toEqual([...server.feeds].sort());
    expect(ofType(events, 'gap-unfilled')).toEqual([]);
    expect(stream.stats.late).toBe(0);
    await expectNothingOpen(server, timers);
  });

  it('backfills after the reconnect of one origin: a report only that origin carried, while it was down, comes from the REST API', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    for (let i = 0; i < 3; i++) server.publish();
    await waitFor(() => received.length === total(harness!), 'the first reports');

    server.killOrigin('001');
    await waitFor(() => ofType(events, 'origin-lost').length === 1, 'the lost origin to be noticed');
    // Origin 002 stays up all along, but this report goes out on 001 only, which is down: no socket delivers it.
    const missed = server.publish(undefined, { origins: ['001'] });
    server.restoreOrigin('001');
    await waitFor(() => ofType(events, 'connected').length === 3, 'origin 001 to be reconnected');
    const last = server.publish();
    await waitFor(() => last.every((r) => received.some((got) => got.feedID === r.feedID && got.observationsTimestamp === r.observationsTimestamp)), 'the next live reports');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    // Each stream was read back from the report after the last one delivered: the missed one.
    const filled = ofType(events, 'gap-filled');
    expect(filled.map((e) => [e.feedID, e.from]).sort()).toEqual(missed.map((r) => [r.feedID, r.observationsTimestamp]).sort());
    // The missed reports, and maybe the next ones too when the REST read came before their live copies.
    expect(stream.stats.backfilled).toBe(filled.reduce((sum, e) => sum + e.reports, 0));
    expect(stream.stats.backfilled).toBeGreaterThanOrEqual(missed.length);
    expect(stream.stats).toMatchObject({ late: 0, dropped: 0 });
    await expectNothingOpen(server, timers);
  });

  it('concurrent backfills (origins lost and back, overlapping, while reports flow) deliver each report once, in order', async () => {
    harness = await startHarness();
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { backfill: { pageSize: 3 } });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    stopPublishing = publishEvery(server, 2);
    await waitFor(() => received.length >= 10, 'the first reports');
    const connected = (origin: string) => ofType(events, 'connected').filter((e) => e.origin === origin).length;
    const lost = (origin: string) => ofType(events, 'origin-lost').filter((e) => e.origin === origin).length;
    const cycle = async (origin: string) => {
      const before = connected(origin);
      const lostBefore = lost(origin);
      server.killOrigin(origin);
      // Down until the stream has seen it go, however slow the machine: then the restore is a reconnect.
      await waitFor(() => lost(origin) > lostBefore, `origin ${origin} to be lost`);
      server.restoreOrigin(origin);
      await waitFor(() => connected(origin) > before, `origin ${origin} to be reconnected`);
    };
    for (let round = 0; round < 3; round++) {
      // Overlapping outages (both down for a while), then one right after the other: each reconnect
      // starts a backfill, often while the previous one still runs and the other origin delivers live.
      await Promise.all([cycle('001'), sleep(5).then(() => cycle('002'))]);
      await cycle('002');
      await cycle('001');
    }
    // Each stream's backfill after the last reconnect, then the stream is closed (not a fill cut off by close()).
    const lastConnected = events.map((e) => e.type).lastIndexOf('connected');
    await waitFor(() => filledEvery(server.feeds, events.slice(lastConnected)), 'the backfill after the last reconnect');
    stopPublishing();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    const filled = ofType(events, 'gap-filled');
    expect(new Set(filled.map((e) => e.feedID))).toEqual(new Set(server.feeds));
    expect(stream.stats.backfilled).toBe(filled.reduce((sum, e) => sum + e.reports, 0));
    expect(stream.stats.backfilled).toBeGreaterThan(0);
    expect(ofType(events, 'gap-unfilled')).toEqual([]);
    expect(stream.stats).toMatchObject({ late: 0, dropped: 0 });
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
    // Each stream filled at least once (twice when the second reconnect came after the first fill ended): not
    // a count of exactly 2, which a loaded machine's poll can step over.
    await waitFor(() => filledEvery(server.feeds, events), 'the gap of both streams to be filled');
    const afterFill = received.length;
    await waitFor(() => received.length > afterFill, 'live reports after the gap');
    stopPublishing();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    const filled = ofType(events, 'gap-filled');
    // Each stream filled once, or twice when the second reconnect came after the first backfill ended.
    expect(new Set(filled.map((e) => e.feedID))).toEqual(new Set(server.feeds));
    for (const feedID of server.feeds) {
      const reports = filled.filter((e) => e.feedID === feedID).reduce((sum, e) => sum + e.reports, 0);
      expect(reports).toBeGreaterThanOrEqual(20);
    }
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
    const afterFill = received.length;
    await waitFor(() => received.length > afterFill, 'live reports after the gap');
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

  it('a report older than the last one delivered, never delivered itself, is late: not delivered, counted and reported', async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const timers = activeTimers();
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    const first = server.publish();
    const skipped = server.publish(undefined, { origins: [] }); // into the history only: no socket gets it now
    const third = server.publish();
    await waitFor(() => received.length === 4, 'the reports sent live');
    server.resend('001', skipped); // arrives after a newer report of its stream
    server.resend('001', first); // a copy of a report delivered: a duplicate
    const fourth = server.publish();
    await waitFor(() => received.length === 6, 'the next live reports');
    await stream.close();
    await done;

    const times = (reports: readonly Report[], feedID: string) =>
      reports.filter((r) => r.feedID === feedID).map((r) => r.observationsTimestamp);
    for (const feedID of server.feeds) {
      // In order: the late report is not slipped in after a newer one.
      expect(times(received, feedID)).toEqual(times([...first, ...third, ...fourth], feedID));
    }
    expect(ofType(events, 'late-report')).toEqual(
      skipped.map((r) => ({
        type: 'late-report',
        feedID: r.feedID,
        observationsTimestamp: r.observationsTimestamp,
        lastDelivered: r.observationsTimestamp + 1,
      })),
    );
    expect(stream.stats).toMatchObject({ received: 10, accepted: 6, late: 2, duplicates: 2, dropped: 0 });
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
    // An envelope its blob does not back (the blob is too short to say anything).
    server.sendRaw('001', JSON.stringify({ report: { ...server.history(feed)[0], observationsTimestamp: 4_000_000_000, fullReport: '0x00ff' } }));
    // A report whose envelope agrees with its signed head but whose blob does not decode, at a time no real report has.
    const unpublished = makeV3Report(feed, server.history(feed)[0]!.observationsTimestamp + 86_400);
    server.sendRaw('001', JSON.stringify({ report: { ...unpublished, fullReport: `${unpublished.fullReport.slice(0, -1)}g` } }));
    server.publish();
    server.publish();
    await waitFor(() => received.length === total(harness!), 'every report');
    await stream.close();
    await done;

    expectExactlyHistory(server, received);
    const skipped = ofType(events, 'message-skipped').map((e) => e.error);
    expect(skipped.map((e) => e.problem)).toEqual(['not_json', 'not_a_report', 'unexpected_feed', 'envelope_mismatch', 'undecodable']);
    for (const error of skipped) {
      expect(error).toBeInstanceOf(ReportStreamMessageError);
      expect(error.source).toBe('001');
    }
    expect(stream.stats.skipped).toBe(5);
    await expectNothingOpen(server, timers);
  });
});

describe('streamReports: telling duplicates from late reports', () => {
  it('remembers which of the last 1,024 s of a stream were delivered, reusing the slot of a second that left the window', () => {
    expect(RECENT_WINDOW_SECONDS).toBe(1024);
    const feed = new FeedState('0x01', '0x01');
    expect(feed.classify(0)).toBe('new');
    for (let t = 0; t <= 4000; t += 2) feed.delivered(t);
    expect([4001, 4000, 3998, 3999].map((t) => feed.classify(t))).toEqual(['new', 'duplicate', 'duplicate', 'late']);
    // 2978 is the oldest delivered second still in the window; beyond it nothing is remembered.
    expect([2978, 2977, 2976, 0].map((t) => feed.classify(t))).toEqual(['duplicate', 'late', 'late', 'late']);

    const ring = new FeedState('0x02', '0x02');
    ring.delivered(100);
    ring.delivered(100 + 1023);
    expect(ring.classify(100)).toBe('duplicate');
    ring.delivered(100 + 1025);
    // 1124 shares the slot of 100, which left the window: it was never delivered.
    expect([100, 1124, 1123, 1125].map((t) => ring.classify(t))).toEqual(['late', 'late', 'duplicate', 'duplicate']);
    ring.delivered(50_000); // a jump past the window forgets it all
    expect([1125, 49_999, 50_000].map((t) => ring.classify(t))).toEqual(['late', 'late', 'duplicate']);
  });

  it('agrees with a record of every delivered report, within the window', () => {
    fc.assert(
      // Each arrival some seconds after the newest delivered report, or up to past the window before it.
      fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: -1100, max: 0 })), { minLength: 100, maxLength: 500, size: 'max' }), (steps) => {
        const feed = new FeedState('0x01', '0x01');
        const delivered = new Set<number>();
        let newest = -1;
        for (const step of steps) {
          const t = Math.max(0, newest + step);
          const expected = t > newest ? 'new' : delivered.has(t) && t > newest - RECENT_WINDOW_SECONDS ? 'duplicate' : 'late';
          expect(feed.classify(t)).toBe(expected);
          if (expected === 'new') {
            feed.delivered(t);
            delivered.add(t);
            newest = t;
          }
        }
      }),
    );
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
    // No timer left means no reconnect scheduled: a retry cannot come later, however slow the machine.
    await expectNothingOpen(server, timers);
    expect(server.requests.upgrade).toBeLessThanOrEqual(2);
    expect(ofType(events, 'reconnecting')).toEqual([]);
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

  it("takes the socket of the runtime's `#stream-socket` module: in Node the `ws` package", async () => {
    // vitest resolves package imports with the `node` condition, as Node does.
    expect(runtimeSocket).toBe(nodeSocket.runtimeSocket);
    expect(await runtimeSocket()).toEqual({ kind: 'ws', WebSocket: WsWebSocket });
  });

  it('in a browser, a web worker, the edge or an unknown runtime (no way to send headers) it fails with ReportStreamUnsupportedError, saying why', async () => {
    const cases = [
      [browserSocket.runtimeSocket, /^cannot open a report stream here: a browser's or web worker's WebSocket cannot send request headers.*`workerd` condition/],
      [edgeSocket.runtimeSocket, /^cannot open a report stream here: Vercel's Edge Runtime has no WebSocket that sends request headers/],
      // This process is Node, without Bun's or Deno's globals: the default module knows no socket here.
      [defaultSocket.runtimeSocket, /^cannot open a report stream here: this runtime's WebSocket is not known to send request headers/],
    ] as const;
    for (const [runtime, message] of cases) {
      const refused = resolveSocketFactory(undefined, runtime);
      await expect(refused).rejects.toBeInstanceOf(ReportStreamUnsupportedError);
      await expect(refused).rejects.toThrow(message);
    }
    const cause = new Error('not installed');
    const noWs = resolveSocketFactory(undefined, async () => ({ kind: 'unsupported', reason: 'the `ws` package could not be loaded', cause }));
    await expect(noWs).rejects.toMatchObject({ name: 'ReportStreamUnsupportedError', message: expect.stringMatching(/`ws` package could not be loaded/), cause });
  });

  it("connects by default to the WebSocket host of the client's network (no connection leaves the process)", async () => {
    const feed = v3FeedID('ETH/USD');
    for (const [network, host] of [
      ['testnet', 'ws.testnet-dataengine.chain.link'],
      ['mainnet', 'ws.dataengine.chain.link'],
    ] as const) {
      const timers = activeTimers();
      const requests: string[] = [];
      const sockets: { url: string; headers: Record<string, string> }[] = [];
      // `HEAD /` answered here, as the host would: one origin.
      const fetch = async (request: Request) => {
        requests.push(`${request.method} ${request.url}`);
        return new Response(null, { status: 200, headers: { 'X-Cll-Available-Origins': '{001}' } });
      };
      // Records the URL it is handed and never opens.
      class RecordingWebSocket {
        binaryType = 'blob';
        constructor(url: string, options: { headers: Record<string, string> }) {
          sockets.push({ url, headers: options.headers });
        }
        addEventListener(): void {}
        close(): void {}
      }
      const client = createStreamsClient({ apiKey: '3fa85f64-5717-4562-b3fc-2c963f66afa6', apiSecret: 's', network, retry: false, fetch });
      const stream = streamReports(client, [feed], { webSocket: RecordingWebSocket });
      const next = stream.next();
      await waitFor(() => sockets.length === 1, `the ${network} socket to be created`);
      await stream.close();
      expect(await next).toEqual({ value: undefined, done: true });

      expect(STREAMS_WS_URLS[network]).toBe(`wss://${host}`);
      expect(requests).toEqual([`HEAD https://${host}/`]);
      expect(sockets.map((s) => s.url)).toEqual([`wss://${host}/api/v1/ws?feedIDs=${feed}`]);
      expect(sockets[0]?.headers).toMatchObject({ 'X-Cll-Origin': '001', authorization: expect.any(String) });
      await waitFor(() => activeTimers() <= timers, 'the connect timer to be cleared');
    }
  });

  it('refuses bad input with ConfigurationError naming the option, before opening anything', () => {
    const client = createStreamsClient({ apiKey: '3fa85f64-5717-4562-b3fc-2c963f66afa6', apiSecret: 's' });
    const feed = v3FeedID('ETH/USD');
    expect(thrownOption(() => streamReports(createStreamsClient(), [feed]))).toBe('apiKey');
    expect(thrownOption(() => streamReports({} as never, [feed]))).toBe('client');
    expect(thrownOption(() => streamReports(client, []))).toBe('feedIDs');
    expect(thrownOption(() => streamReports(client, ['0x1234']))).toBe('feedIDs');
    expect(thrownOption(() => streamReports(client, [feed, v3FeedID('BTC/USD')], { bufferSize: 1 }))).toBe('bufferSize');
    expect(thrownOption(() => streamReports(client, [feed], { overflow: 'drop-oldest' as never }))).toBe('overflow');
    expect(thrownOption(() => streamReports(client, [feed], { wsUrl: 'https://ws.example.test' }))).toBe('wsUrl');
    expect(thrownOption(() => streamReports(client, [feed], { origins: [] }))).toBe('origins');
    expect(thrownOption(() => streamReports(client, [feed], { pingIntervalMs: 0 }))).toBe('pingIntervalMs');
    expect(thrownOption(() => streamReports(client, [feed], { reconnect: { maxDelayMs: -1 } }))).toBe('reconnect.maxDelayMs');
    expect(thrownOption(() => streamReports(client, [feed]))).toBe('nothing thrown');
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
