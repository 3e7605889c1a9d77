/**
 * The streams walk: the catalog, the latest report decoded, a bulk read at
 * one time, and a walk over a minute of reports, page by page.
 */
import { collect, getBulkReports, getLatestReport, listStreams, paginateReports, type StreamsClient } from '../../src/streams/index.js';
import { formatScaled } from '../../src/streams/report-decoder.js';
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
