// The README's "Live report stream" defaults that no other test pinned down
// (the other stream tests set their own limits to run fast): how far ahead a
// report may be dated, how large a message may be, how many reports wait for
// a slow consumer, and how a lost connection is reopened. The sandbox serves
// only genuine, timely reports, so these run against the local report
// service that can send anything (test/support/report-server.ts). Each
// test's title is the sentence it backs (test/support/readme-claim.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReportStreamOverflowError, streamReports, type Report, type ReportStreamEvent } from '../../src/streams/index.js';
import { makeV3Report } from '../support/report-server.js';
import { consume, FAST, openStream, startHarness, waitFor, type Harness } from '../support/report-stream.js';
import { readmeClaim } from '../support/readme-claim.js';

let harness: Harness | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await harness?.close();
  harness = undefined;
});

const ofType = <T extends ReportStreamEvent['type']>(events: ReportStreamEvent[], type: T) =>
  events.filter((e): e is Extract<ReportStreamEvent, { type: T }> => e.type === type);
const problems = (events: ReportStreamEvent[]) => ofType(events, 'message-skipped').map((e) => e.error.problem);
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A live message carrying `report`, as the service sends it, with `padding` bytes of an extra field. */
const message = (report: object, padding = 0) => JSON.stringify({ report, ...(padding > 0 ? { padding: 'x'.repeat(padding) } : {}) });

type PageAnswer = (query: { feedID: string; startTimestamp: number }) => Report[];

/**
 * An outage of origin 001 during which `seconds` of reports are published
 * (to the REST history only), the backfill's pages answered by `pages`:
 * resolves, once both streams' backfills ended, to the pages they read.
 */
async function outageOf(server: Harness['server'], events: ReportStreamEvent[], seconds: number, pages: PageAnswer): Promise<number> {
  server.killOrigin('001');
  await waitFor(() => ofType(events, 'origin-lost').length === ofType(events, 'connected').length, 'the origin to be lost');
  for (let i = 0; i < seconds; i++) server.publish(undefined, { origins: [] });
  server.answerPages(pages);
  const ended = ofType(events, 'gap-filled').length + ofType(events, 'gap-unfilled').length;
  const before = server.requests.page;
  server.restoreOrigin('001');
  await waitFor(() => ofType(events, 'gap-filled').length + ofType(events, 'gap-unfilled').length === ended + 2, 'both backfills to end');
  return server.requests.page - before;
}

/** The harness's fast timings, with the README's default for what each test is about (`undefined`: the default). */
const DEFAULT = undefined;

describe('README claims: the live stream checks each report', () => {
  it(readmeClaim("must not be observed later than this machine's clock plus `maxFutureMs` (default 60 s)"), async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream, events } = openStream(harness, { maxFutureMs: DEFAULT });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    // 50 s ahead is within the minute: delivered. 70 s ahead is not: skipped, and the stream goes on.
    const now = nowSeconds();
    server.sendRaw('001', message(makeV3Report(feed, now + 50)));
    server.sendRaw('001', message(makeV3Report(feed, now + 70)));
    await waitFor(() => received.length === 1 && problems(events).length === 1, 'the two reports to be judged');
    await stream.close();
    await done;

    expect(received.map((r) => r.observationsTimestamp)).toEqual([now + 50]);
    expect(problems(events)).toEqual(['from_the_future']);
  });

  it(readmeClaim('`too_large` (a message over `maxMessageBytes`, default 64 KiB: the connection is dropped, reopened and its gap filled)'), async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 60 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream, events } = openStream(harness, { maxMessageBytes: DEFAULT, backfill: false });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    const t = nowSeconds() - 30;
    const fits = message(makeV3Report(feed, t), 0);
    // One message of exactly 64 KiB is taken; one byte more is refused, and the connection reopened.
    const exact = message(makeV3Report(feed, t), 65_536 - fits.length - ',"padding":""'.length);
    expect(Buffer.byteLength(exact)).toBe(65_536);
    server.sendRaw('001', exact);
    await waitFor(() => received.length === 1, 'the 64 KiB message');
    server.sendRaw('001', message(makeV3Report(feed, t + 1), 65_537 - fits.length - ',"padding":""'.length));
    await waitFor(() => ofType(events, 'connected').length === 2, 'the connection to be reopened');
    await stream.close();
    await done;

    expect(received.map((r) => r.observationsTimestamp)).toEqual([t]);
    expect(problems(events)).toEqual(['too_large']);
    expect(ofType(events, 'origin-lost')[0]).toMatchObject({ origin: '001', code: 1009 });
  });
});

describe('README claims: what is checked of a backfilled report', () => {
  it(readmeClaim('Every report, live or backfilled, decoded or not, must carry the same three values in both places'), async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 60 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    server.publish();
    await waitFor(() => received.length === 2, 'the first reports');
    const t = received[0]!.observationsTimestamp;

    // The REST answer for ETH/USD's second t + 2 says another validFromTimestamp than its signed report.
    const lying = (report: Report) => (report.feedID === feed && report.observationsTimestamp === t + 2 ? { ...report, validFromTimestamp: report.validFromTimestamp - 1 } : report);
    await outageOf(server, events, 3, ({ feedID, startTimestamp }) => server.history(feedID).filter((r) => r.observationsTimestamp >= startTimestamp).map(lying));
    await stream.close();
    await done;

    expect(received.filter((r) => r.feedID === feed).map((r) => r.observationsTimestamp)).toEqual([t, t + 1, t + 3]);
    const [skipped] = ofType(events, 'message-skipped');
    expect(skipped?.error).toMatchObject({ problem: 'envelope_mismatch', source: 'rest' });
    expect(ofType(events, 'message-skipped')).toHaveLength(1);
  });
});

describe('README claims: the backfill', () => {
  it(readmeClaim('each page must move forward, so a backfill makes at most one request per second of its gap'), async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 60 });
    const { server } = harness;
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    server.publish();
    await waitFor(() => received.length === 2, 'the first reports');
    const outage = (seconds: number, pages: PageAnswer) => outageOf(server, events, seconds, pages);

    // Pages of one report each: the walk moves a second a page, and ends on the empty page after the gap.
    const oneSecondAPage = await outage(10, ({ feedID, startTimestamp }) => server.history(feedID).filter((r) => r.observationsTimestamp === startTimestamp));
    expect(oneSecondAPage).toBe(2 * (10 + 1));
    expect(received).toHaveLength(2 + 2 * 10);
    // Pages that do not move forward (a report the stream already has, again and again): one read per stream, and it ends.
    const stuck = await outage(10, ({ feedID, startTimestamp }) => server.history(feedID).filter((r) => r.observationsTimestamp === startTimestamp - 1));
    expect(stuck).toBe(2);
    expect(problems(events).filter((problem) => problem === 'outside_gap')).toHaveLength(2);
    await stream.close();
    await done;
  });
});

describe('README claims: a slow consumer', () => {
  it(readmeClaim('A consumer slower than the stream holds at most `bufferSize` reports (default 1,000)'), async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    // Nobody reads: with overflow 'error', the stream says when the buffer would pass its size.
    const { stream, events } = openStream(harness, { bufferSize: DEFAULT, overflow: 'error' });
    const first = stream.next();
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    // The first report goes to the waiting next(); 1,000 more wait in the buffer (two streams: 500 rounds).
    for (let i = 0; i < 500; i++) server.publish();
    server.publish(server.feeds.slice(0, 1));
    await waitFor(() => stream.stats.accepted === 1_001, 'every report to reach the stream');
    await first;
    expect(stream.stats.buffered).toBe(1_000);
    expect(stream.stats.dropped).toBe(0);
    expect(ofType(events, 'closed')).toEqual([]);

    // One more is one too many.
    server.publish(server.feeds.slice(0, 1));
    await waitFor(() => ofType(events, 'closed').length === 1, 'the stream to end');
    const [closed] = ofType(events, 'closed');
    expect(closed?.error).toBeInstanceOf(ReportStreamOverflowError);
    expect(closed?.error).toMatchObject({ bufferSize: 1_000 });
    await stream.close();
  });
});

describe('README claims: reconnecting', () => {
  it(readmeClaim('A lost connection is reopened (random back-off of 1 s doubling up to 10 s; `reconnect` changes it).'), async () => {
    // The draw of each delay, pinned near 0.1 %: each delay is then a thousandth of its cap (2 ms for 2 s).
    vi.spyOn(Math, 'random').mockReturnValue(0.001);
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    server.closeOnOpen(true);
    const { stream, events } = openStream(harness, { reconnect: { maxAttempts: 6 } });
    const { done } = consume(stream);
    await done.catch(() => undefined);

    // A connection closed at once is a failure in a row: caps of 2 s, 4 s, 8 s, then 10 s at most.
    expect(ofType(events, 'reconnecting').map((e) => [e.attempt, e.delayMs])).toEqual([
      [2, 2],
      [3, 4],
      [4, 8],
      [5, 10],
      [6, 10],
    ]);
  });

  it(readmeClaim('The back-off starts again from the bottom only after a connection stayed up for `reconnect.stableAfterMs` (30 s)'), async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.001);
    harness = await startHarness({ origins: ['001'] });
    const { server, client } = harness;
    const events: ReportStreamEvent[] = [];
    const stream = streamReports(client, server.feeds, {
      ...FAST,
      wsUrl: server.wsUrl,
      reconnect: DEFAULT,
      onStatus: (event) => {
        events.push(event);
        // The clock was moved on only for the stream to judge how long the lost connection stayed up: the
        // reconnect signs its upgrade with the true time again, as the service checks it.
        if (event.type === 'reconnecting') vi.useRealTimers();
      },
    });
    const { done } = consume(stream);
    /** Drops the connection after it was up for `upMs` by this machine's clock (only `Date` is the test's), and returns the reconnect. */
    const dropAfter = async (upMs: number) => {
      const connected = ofType(events, 'connected').length;
      await waitFor(() => server.connectionCount() === 1, 'the origin to be up');
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + upMs, shouldAdvanceTime: true });
      server.killOrigin('001');
      server.restoreOrigin('001');
      await waitFor(() => ofType(events, 'connected').length === connected + 1, 'the reconnect');
      return ofType(events, 'reconnecting').at(-1)!;
    };
    await waitFor(() => ofType(events, 'connected').length === 1, 'the first connection');

    // Up 29.9 s: not stable, a failure in a row (cap 2 s). Up 30 s: stable, the back-off starts again (cap 1 s).
    expect(await dropAfter(29_900)).toMatchObject({ attempt: 2, delayMs: 2 });
    expect(await dropAfter(30_000)).toMatchObject({ attempt: 1, delayMs: 1 });
    await stream.close();
    await done;
  });
});
