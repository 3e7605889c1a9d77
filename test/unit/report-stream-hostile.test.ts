import { afterEach, describe, expect, it } from 'vitest';
import { ReportStreamConnectionError, type Report, type ReportStreamEvent } from '../../src/streams/index.js';
import { makeV3Report, v3FeedID } from '../support/report-server.js';
import { activeTimers, consume, expectNothingOpen, openStream, sleep, startHarness, waitFor, type Harness } from '../support/report-stream.js';

// The report stream against a service that lies: messages whose envelope
// disagrees with the signed report, reports from the future, a backfill that
// pages on forever or serves another stream, connections that close as soon
// as they open, huge messages, a thousand origins, a discovery that never
// answers, and two origins that disagree. In every case the stream delivers
// only genuine reports, in order, says what it skipped and why, and stays
// bounded. Each case runs against a local service (test/support/report-server.ts).

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const ofType = <T extends ReportStreamEvent['type']>(events: ReportStreamEvent[], type: T) =>
  events.filter((e): e is Extract<ReportStreamEvent, { type: T }> => e.type === type);
const problems = (events: ReportStreamEvent[]) => ofType(events, 'message-skipped').map((e) => e.error.problem);
const timesOf = (reports: readonly Report[], feedID: string) =>
  reports.filter((r) => r.feedID.toLowerCase() === feedID.toLowerCase()).map((r) => r.observationsTimestamp);
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The stream's own default: reports may be observed up to a minute ahead of this clock. */
const REAL_CLOCK = { maxFutureMs: 60_000 };

describe('the signed report decides, not the envelope', () => {
  it('a message whose envelope says t+4 while its blob says t+1 is skipped; the genuine t+1…t+4 are delivered', async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 600 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const timers = activeTimers();
    const { stream, events } = openStream(harness, REAL_CLOCK);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    const [first] = server.publish([feed]) as [Report];
    await waitFor(() => received.length === 1, 'the first report');
    const t = first.observationsTimestamp;
    server.sendRaw('001', JSON.stringify({ report: { ...makeV3Report(feed, t + 1), observationsTimestamp: t + 4 } }));
    for (let i = 0; i < 4; i++) server.publish([feed]);
    await waitFor(() => received.length === 5, 'the genuine reports');
    await stream.close();
    await done;

    expect(timesOf(received, feed)).toEqual([t, t + 1, t + 2, t + 3, t + 4]);
    expect(received.map((r) => r.fullReport)).toEqual(server.history(feed).map((r) => r.fullReport));
    expect(problems(events)).toEqual(['envelope_mismatch']);
    expect(ofType(events, 'message-skipped')[0]?.error.message).toContain(`the envelope says observationsTimestamp ${t + 4}, the signed report ${t + 1}`);
    expect(stream.stats).toMatchObject({ late: 0, skipped: 1, accepted: 5 });
    await expectNothingOpen(server, timers);
  });

  it('without decoding, a blob of another stream under this stream\'s envelope is skipped', async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 600 });
    const { server } = harness;
    const [feedA, feedB] = server.feeds as [string, string];
    const { stream, events } = openStream(harness, REAL_CLOCK);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    const [a] = server.publish([feedA]) as [Report];
    await waitFor(() => received.length === 1, 'the first report');
    server.sendRaw('001', JSON.stringify({ report: { ...makeV3Report(feedB, a.observationsTimestamp + 1), feedID: feedA } }));
    server.publish([feedA]);
    await waitFor(() => received.length === 2, 'the next genuine report');
    await stream.close();
    await done;

    expect(received.map((r) => r.fullReport)).toEqual(server.history(feedA).map((r) => r.fullReport));
    expect(problems(events)).toEqual(['envelope_mismatch']);
    expect(ofType(events, 'message-skipped')[0]?.error.message).toContain(`the envelope says stream ${feedA}`);
  });
});

describe('time sanity', () => {
  it('a report dated ten years ahead, or at 1e308, is skipped and never stops the stream', async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 600 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream, events } = openStream(harness, REAL_CLOCK);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    server.publish([feed]);
    await waitFor(() => received.length === 1, 'the first report');
    const tenYears = nowSeconds() + 10 * 365 * 86_400;
    server.sendRaw('001', JSON.stringify({ report: makeV3Report(feed, tenYears) }));
    server.sendRaw('001', JSON.stringify({ report: { ...makeV3Report(feed, tenYears), observationsTimestamp: 1e308 } }));
    for (let i = 0; i < 3; i++) server.publish([feed]);
    await waitFor(() => received.length === 4, 'the genuine reports after them');
    await stream.close();
    await done;

    expect(timesOf(received, feed)).toEqual(server.history(feed).map((r) => r.observationsTimestamp));
    expect(problems(events)).toEqual(['from_the_future', 'not_a_report']);
    expect(stream.stats).toMatchObject({ late: 0, skipped: 2 });
  });
});

describe('a bounded, checked backfill', () => {
  it('a service that serves pages into the future forever: the backfill stops at the gap\'s end, nothing past it is delivered', async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 30 });
    const { server } = harness;
    const { stream, events } = openStream(harness, { maxFutureMs: 2_000 });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    server.publish();
    await waitFor(() => received.length === 2, 'the first reports');
    // From now on every page is full, of consecutive genuine-looking reports, however far ahead it is asked.
    server.answerPages(({ feedID, startTimestamp, limit }) => Array.from({ length: limit }, (_, i) => makeV3Report(feedID, startTimestamp + i)));
    const pagesBefore = server.requests.page;
    server.killOrigin('001');
    server.restoreOrigin('001');
    await waitFor(() => ofType(events, 'gap-filled').length + ofType(events, 'gap-unfilled').length === 2, 'both backfills to end');
    const bound = nowSeconds() + 2;
    await stream.close();
    await done;

    expect(server.requests.page - pagesBefore).toBeLessThanOrEqual(4);
    expect(Math.max(...received.map((r) => r.observationsTimestamp))).toBeLessThanOrEqual(bound);
    expect(problems(events)).toContain('outside_gap');
    expect(ofType(events, 'gap-unfilled')).toEqual([]);
  });

  it('reports of another stream in the backfill are skipped; the real stream goes on live', async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: nowSeconds() - 600 });
    const { server } = harness;
    const stranger = v3FeedID('never asked for');
    const { stream, events } = openStream(harness, REAL_CLOCK);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    const first = server.publish();
    await waitFor(() => received.length === 2, 'the first reports');
    server.answerPages(({ startTimestamp, limit }) => Array.from({ length: Math.min(limit, 5) }, (_, i) => makeV3Report(stranger, startTimestamp + i)));
    server.killOrigin('001');
    server.restoreOrigin('001');
    await waitFor(() => ofType(events, 'gap-filled').length === 2, 'both backfills to end');
    server.answerPages(undefined);
    const after = server.publish();
    await waitFor(() => received.length === 4, 'the live reports after the backfill');
    await stream.close();
    await done;

    expect(received.filter((r) => r.feedID.toLowerCase() === stranger.toLowerCase())).toEqual([]);
    expect(received.map((r) => r.fullReport).sort()).toEqual([...first, ...after].map((r) => r.fullReport).sort());
    const skipped = ofType(events, 'message-skipped').map((e) => e.error);
    expect(skipped.length).toBe(10);
    for (const error of skipped) {
      expect(error.problem).toBe('unexpected_feed');
      expect(error.source).toBe('rest');
    }
    expect(stream.stats.late).toBe(0);
  });
});

describe('conflicts', () => {
  it('a report of a delivered second with other content (from the other origin) is not delivered, but counted and reported', async () => {
    harness = await startHarness({ firstTimestamp: nowSeconds() - 600 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream, events } = openStream(harness, REAL_CLOCK);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    const [genuine] = server.publish([feed], { origins: ['001'] }) as [Report];
    await waitFor(() => received.length === 1, 'the report');
    // The last digit of the price word (blob field 6): the signed head is the same, the content is not.
    const at = 2 + 2 * (256 + 6 * 32) + 63;
    const digit = genuine.fullReport[at] === '0' ? '1' : '0';
    const other = `${genuine.fullReport.slice(0, at)}${digit}${genuine.fullReport.slice(at + 1)}`;
    server.sendRaw('002', JSON.stringify({ report: { ...genuine, fullReport: other } }));
    server.resend('002', [genuine]);
    server.publish([feed]);
    await waitFor(() => received.length === 2, 'the next report');
    await stream.close();
    await done;

    expect(received[0]?.fullReport).toBe(genuine.fullReport);
    expect(ofType(events, 'conflicting-report')).toEqual([
      { type: 'conflicting-report', feedID: feed, observationsTimestamp: genuine.observationsTimestamp, source: '002' },
    ]);
    expect(stream.stats).toMatchObject({ conflicts: 1, duplicates: 2 });
  });
});

describe('connections', () => {
  it('a service that accepts and closes at once: the back-off grows and maxAttempts ends the stream', async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    server.closeOnOpen(true);
    const timers = activeTimers();
    const { stream, events } = openStream(harness, { reconnect: { baseDelayMs: 20, maxDelayMs: 5_000, maxAttempts: 4, stableAfterMs: 1_000 } });
    const { done } = consume(stream);
    const error = await done.then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(ReportStreamConnectionError);
    expect(ofType(events, 'reconnecting').map((e) => e.attempt)).toEqual([2, 3, 4]);
    expect(server.requests.upgrade).toBe(4);
    await expectNothingOpen(server, timers);
  });

  it('a 64 MiB message is refused before it is read, reported, and the stream goes on', async () => {
    harness = await startHarness({ origins: ['001'] });
    const { server } = harness;
    const { stream, events } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    server.sendRaw('001', `{"report":"${'x'.repeat(64 * 1024 * 1024)}"}`);
    await waitFor(() => ofType(events, 'connected').length === 2, 'the connection to be reopened');
    server.publish();
    await waitFor(() => received.length === 2, 'the reports after it');
    await stream.close();
    await done;

    expect(problems(events)).toEqual(['too_large']);
    expect(ofType(events, 'origin-lost')[0]).toMatchObject({ origin: '001', code: 1009 });
  });

  it('a HEAD / listing 1,000 origins opens maxOrigins connections (default 4) and says how many it left', async () => {
    const origins = Array.from({ length: 1000 }, (_, i) => String(i + 1).padStart(4, '0'));
    harness = await startHarness({ origins });
    const { server } = harness;
    const { stream, events } = openStream(harness);
    const { done } = consume(stream);
    await waitFor(() => ofType(events, 'connected').length === 4, 'four connections');
    await sleep(100);
    expect(server.connectionCount()).toBe(4);
    expect(ofType(events, 'origins')).toEqual([{ type: 'origins', origins: origins.slice(0, 4), discovered: true, ignored: 996 }]);
    await stream.close();
    await done;
  });

  it('a HEAD / that never answers is given up after discoveryTimeoutMs: one connection, the host picks the origin', async () => {
    harness = await startHarness({ origins: ['001', '002'] });
    const { server } = harness;
    server.hangHead(true);
    const started = Date.now();
    const { stream, events } = openStream(harness, { discoveryTimeoutMs: 300 });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'one connection', 3_000);
    server.publish();
    await waitFor(() => received.length === 2, 'the first reports', 3_000);
    const elapsed = Date.now() - started;
    await stream.close();
    await done;

    expect(elapsed).toBeLessThan(3_000);
    const [origins] = ofType(events, 'origins');
    expect(origins).toMatchObject({ discovered: false, origins: [new URL(server.url).host] });
    expect(origins?.error?.name).toBe('ApiTimeoutError');
  });
});
