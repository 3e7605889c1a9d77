/**
 * The streams walk: the catalog, the latest report decoded, a bulk read at
 * one time, and a walk over a minute of reports, page by page.
 */
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  collect,
  createStreamsClient,
  getBulkReports,
  getLatestReport,
  listStreams,
  paginateReports,
  streamReports,
  type Report,
  type ReportStreamEvent,
  type StreamsClient,
} from '../../src/streams/index.js';
import { formatScaled } from '../../src/reports/format.js';
import { grouped, isoSeconds, step } from './output.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

export async function streamsTour(streams: StreamsClient): Promise<void> {
  const catalog = await step('streams', 'discover crypto streams', () => listStreams(streams, { asset_class: 'crypto' }), (s) =>
    `${s.length} streams: ${s.slice(0, 4).map((f) => `${f.base_asset}/${f.quote_asset}`).join(', ')}, …`,
  );
  const eth = catalog.find((s) => s.feedID === ETH_USD) ?? catalog[0];
  const feedID = eth?.feedID ?? ETH_USD;
  const pair = eth ? `${eth.base_asset}/${eth.quote_asset}` : 'ETH/USD';
  const latest = await step('streams', `latest ${pair} report, decoded (HMAC signed)`, () => getLatestReport(streams, feedID, { decode: true }), (r) =>
    'price' in r.decoded
      ? `${pair} ${grouped(formatScaled(r.decoded.price, 18))} ${eth?.quote_asset ?? ''} (${r.decoded.version}) at ${isoSeconds(r.observationsTimestamp)}`
      : `${r.decoded.version} at ${isoSeconds(r.observationsTimestamp)}`,
  );
  await step('streams', 'bulk: ETH/USD and BTC/USD at that time', () => getBulkReports(streams, [ETH_USD, BTC_USD], latest.observationsTimestamp), (b) =>
    b.complete ? `${b.reports.length} reports, complete` : `${b.reports.length} reports, missing ${b.missingFeedIDs.join(', ')}`,
  );
  const from = latest.observationsTimestamp - 59;
  await step(
    'streams',
    'the last minute of reports, 20 per page',
    () => collect(paginateReports(streams, { feedID, from, to: latest.observationsTimestamp, pageSize: 20 })),
    (reports) =>
      `${reports.length} reports over ${Math.ceil(reports.length / 20)} pages, ${isoSeconds(reports[0]!.observationsTimestamp)} to ${isoSeconds(reports.at(-1)!.observationsTimestamp)}`,
  );
}

/**
 * Three seconds of live ETH/USD and BTC/USD reports from both origins of the
 * sandbox's WebSocket host; origin 001 is dropped after one second and
 * restored after two. At least one report must arrive, and each stream's
 * must come once each, second after second, with no gap.
 */
export async function liveTour(sandbox: Sandbox): Promise<void> {
  const listener = await sandbox.listen();
  try {
    const client = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: listener.baseUrls.streams });
    const events: ReportStreamEvent[] = [];
    const stream = streamReports(client, [ETH_USD, BTC_USD], {
      wsUrl: listener.url.replace(/^http/, 'ws'),
      onStatus: (event) => events.push(event),
      reconnect: { baseDelayMs: 100, maxDelayMs: 300 },
    });
    await step(
      'streams',
      'live over WebSocket for 3 s, origin 001 dropped',
      async () => {
        const received: Report[] = [];
        const timers = [
          setTimeout(() => sandbox.streamOrigins.drop('001'), 1_000),
          setTimeout(() => sandbox.streamOrigins.restore('001'), 2_000),
          setTimeout(() => void stream.close(), 3_000),
        ];
        try {
          for await (const report of stream) received.push(report);
        } finally {
          timers.forEach(clearTimeout);
        }
        // An empty run has no gap and no duplicate either: it must fail, not pass as "no gap".
        if (received.length === 0) throw new Error('no live report arrived in 3 s');
        return received;
      },
      (received) => {
        const gaps = [ETH_USD, BTC_USD].filter((feedID) => {
          const seconds = received.filter((r) => r.feedID === feedID).map((r) => r.observationsTimestamp);
          return seconds.some((t, i) => i > 0 && t !== seconds[i - 1]! + 1);
        });
        const lost = events.filter((e) => e.type === 'origin-lost').length;
        const reconnected = events.filter((e) => e.type === 'connected').length - 2;
        return `${received.length} reports, ${stream.stats.duplicates} duplicates dropped, ${gaps.length === 0 ? 'no gap' : `gaps in ${gaps.length} streams`}; origin lost ${lost}×, reconnected ${Math.max(0, reconnected)}×`;
      },
    );
  } finally {
    await listener.close();
  }
}
