// The streams API's live WebSocket as the sandbox serves it through
// `listen()`: the SDK's own `streamReports` against it, across dropped
// origins, with REST backfill, and the same reports the REST API serves.
import { describe, expect, it } from 'vitest';
import { findStream, reportAt } from '../../src/sandbox/streams/index.js';
import { createStreamsClient, ReportStreamAuthError, streamReports, type Report, type ReportStreamEvent } from '../../src/streams/index.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { waitFor } from '../support/report-stream.js';
import { STREAM_WAIT_MS } from '../support/sandbox-stream.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
const FAST_RECONNECT = { reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, pingIntervalMs: 200, pongTimeoutMs: 400 };

const live = useListeningSandbox({ pace: 0 });

function open(feedIDs: string[], secret = live.sandbox.credentials.streams.apiSecret) {
  const client = createStreamsClient({ apiKey: live.sandbox.credentials.streams.apiKey, apiSecret: secret, baseUrl: live.listener.baseUrls.streams });
  const events: ReportStreamEvent[] = [];
  const stream = streamReports(client, feedIDs, {
    wsUrl: live.listener.url.replace(/^http/, 'ws'),
    onStatus: (event) => events.push(event),
    ...FAST_RECONNECT,
  });
  const received: Report[] = [];
  const done = (async () => {
    for await (const report of stream) received.push(report);
  })();
  return { stream, events, received, done };
}

/** Every report of `feedID` from `from` to `to` seconds, as the REST API serves them. */
const expected = (feedID: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => reportAt(findStream(feedID)!, from + i));

const nowSeconds = () => Math.floor(live.sandbox.clock.now() / 1000);

describe('the sandbox WebSocket', () => {
  it('HEAD / lists the origins that are up', async () => {
    const client = createStreamsClient({ ...live.sandbox.credentials.streams, baseUrl: live.listener.baseUrls.streams });
    const head = async () => (await client.HEAD('/')).response.headers.get('x-cll-available-origins');
    expect(await head()).toBe('{001,002}');
    live.sandbox.streamOrigins.drop('001');
    expect(await head()).toBe('{002}');
    live.sandbox.streamOrigins.restore('001');
    expect(await head()).toBe('{001,002}');
  });

  it('streams each new second of every stream from both origins, once, exactly the REST reports', async () => {
    const { stream, events, received, done } = open([ETH_USD, BTC_USD]);
    await waitFor(() => events.filter((e) => e.type === 'connected').length === 2, 'both origins to connect', STREAM_WAIT_MS);
    const start = nowSeconds();
    for (let i = 1; i <= 5; i++) {
      live.sandbox.advance(1_000);
      // That second's reports delivered before the next one is due: the feed's own pace, not a guess of it.
      await waitFor(() => received.filter((r) => r.observationsTimestamp === start + i).length === 2, `the reports of second ${i}`, STREAM_WAIT_MS);
    }
    await waitFor(() => received.length >= 10, '10 reports', STREAM_WAIT_MS);
    await stream.close();
    await done;
    const eth = received.filter((r) => r.feedID === ETH_USD);
    expect(eth).toEqual(expected(ETH_USD, start + 1, start + 5));
    expect(received.filter((r) => r.feedID === BTC_USD)).toEqual(expected(BTC_USD, start + 1, start + 5));
    expect(stream.stats.duplicates).toBeGreaterThan(0);
  });

  it('a dropped origin loses nothing; with both dropped, the REST backfill fills the gap exactly', async () => {
    const { stream, events, received, done } = open([ETH_USD]);
    await waitFor(() => events.filter((e) => e.type === 'connected').length === 2, 'both origins to connect', STREAM_WAIT_MS);
    const start = nowSeconds();
    const delivered = (second: number) => received.some((r) => r.observationsTimestamp === second);
    live.sandbox.advance(1_000);
    await waitFor(() => delivered(start + 1), 'the report of the first second', STREAM_WAIT_MS);
    live.sandbox.streamOrigins.drop('001');
    live.sandbox.advance(1_000);
    await waitFor(() => delivered(start + 2), 'the report of the second second, from origin 002 alone', STREAM_WAIT_MS);
    live.sandbox.streamOrigins.drop('002');
    await waitFor(() => events.some((e) => e.type === 'origin-lost' && e.origin.includes('002')), 'the second origin to be lost', STREAM_WAIT_MS);
    // Published while no origin is up: only the REST API has these.
    live.sandbox.advance(3_000);
    live.sandbox.streamOrigins.restore('001');
    live.sandbox.streamOrigins.restore('002');
    await waitFor(() => events.some((e) => e.type === 'gap-filled'), 'the backfill', STREAM_WAIT_MS);
    live.sandbox.advance(1_000);
    await waitFor(() => received.length >= 6, 'six reports', STREAM_WAIT_MS);
    await stream.close();
    await done;
    expect(received).toEqual(expected(ETH_USD, start + 1, start + 6));
    expect(stream.stats.backfilled).toBeGreaterThanOrEqual(3);
  });

  it('refuses a wrong secret on the upgrade with a typed error', async () => {
    const { events, done } = open([ETH_USD], 'not-the-secret');
    await expect(done).rejects.toBeInstanceOf(ReportStreamAuthError);
    expect(events.at(-1)).toMatchObject({ type: 'closed' });
  });
});
