import { describe, expect, it } from 'vitest';
import {
  ApiError,
  collect,
  createStreamsClient,
  getBulkReports,
  getLatestReport,
  getReportAtTimestamp,
  getReportsPage,
  listStreams,
  paginateReports,
  PaginationCycleError,
} from '../../src/streams/index.js';
import { prismUrl, streamsClient, TEST_HMAC_KEY, TEST_HMAC_SECRET } from './support/clients.js';
import { describeEveryOperation } from './support/every-operation.js';

const ETH = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

describeEveryOperation('streams', streamsClient);

describe('streams helpers against Prism', () => {
  it('latest, at-time, page and discovery answer documented data', async () => {
    const streams = streamsClient();
    expect((await getLatestReport(streams, ETH)).feedID).toBe(ETH);
    expect((await getReportAtTimestamp(streams, ETH, 1700000000)).observationsTimestamp).toBeTypeOf('number');
    expect((await getReportsPage(streams, { feedID: ETH, startTimestamp: 1700000000, limit: 3 })).length).toBeGreaterThan(0);
    expect((await listStreams(streams, { base_asset: 'ETH', hidden: true })).length).toBeGreaterThan(0);
  });

  it('a complete bulk answer (200) names no missing feed', async () => {
    const result = await getBulkReports(streamsClient(), [ETH, BTC], 1700000000);
    expect(result).toMatchObject({ complete: true, missingFeedIDs: [] });
  });

  it('a 206 bulk answer returns the reports and names the missing feed IDs', async () => {
    const streams = createStreamsClient({
      apiKey: TEST_HMAC_KEY,
      apiSecret: TEST_HMAC_SECRET,
      baseUrl: prismUrl('streams'),
      retry: false,
      headers: { Prefer: 'code=206' },
    });
    const result = await getBulkReports(streams, [ETH, BTC], 1700000000);
    expect(result.complete).toBe(false);
    expect(result.missingFeedIDs).toEqual([BTC]);
    expect(result.reports.map((r) => r.feedID)).toEqual([ETH]);
  });

  it('the paged iterator runs end to end', async () => {
    // The stateless mock answers the same example page whatever startTimestamp asks: the
    // iterator yields it once, then refuses a next page that does not move forward.
    const reports: { feedID: string }[] = [];
    const error = await (async () => {
      for await (const report of paginateReports(streamsClient(), { feedID: ETH, from: 1700000000, maxItems: 50 })) reports.push(report);
    })().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) expect(report.feedID).toBe(ETH);
  });

  it('an unsigned request is refused with 401, thrown as an ApiError', async () => {
    const anonymous = createStreamsClient({ baseUrl: prismUrl('streams'), retry: false });
    const error = await getLatestReport(anonymous, ETH).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
  });

  it('discovery answers without authentication', async () => {
    const anonymous = createStreamsClient({ baseUrl: prismUrl('streams'), retry: false });
    expect((await listStreams(anonymous)).length).toBeGreaterThan(0);
  });

  it('an invalid feed ID is rejected by request validation', async () => {
    const error = await getLatestReport(streamsClient(), '0x1234').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
  });
});
