// Streams in a few lines: the latest report of a stream, decoded; several
// streams at one time (206 = partial); a range of reports page by page.
//
//   STREAMS_API_KEY=<key uuid> STREAMS_API_SECRET=... npx tsx examples/streams.ts
//   (add STREAMS_BASE_URL=... to point at another deployment than testnet)
//   npm run example -- streams     (the same against the offline sandbox)
//
// In your project, import from '@ourteam/service-sdk/streams'.
import { createStreamsClient, formatScaled, getBulkReports, getLatestReport, paginateReports } from '../src/streams/index.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

const streams = createStreamsClient({
  apiKey: process.env.STREAMS_API_KEY ?? '',
  apiSecret: process.env.STREAMS_API_SECRET ?? '',
  network: 'testnet',
  baseUrl: process.env.STREAMS_BASE_URL,
});

const latest = await getLatestReport(streams, ETH_USD, { decode: true });
if (latest.decoded.version === 'V3') {
  const observed = new Date(latest.decoded.observationsTimestamp * 1000).toISOString();
  console.log(`ETH/USD ${formatScaled(latest.decoded.price, 18)} USD at ${observed}`);
}

const bulk = await getBulkReports(streams, [ETH_USD, BTC_USD], latest.observationsTimestamp);
console.log(bulk.complete ? `${bulk.reports.length} reports` : `partial: missing ${bulk.missingFeedIDs.join(', ')}`);

for await (const report of paginateReports(streams, { feedID: ETH_USD, from: latest.observationsTimestamp - 60, maxItems: 3 })) {
  console.log('report observed at', new Date(report.observationsTimestamp * 1000).toISOString());
}
