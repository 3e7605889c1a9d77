// The REST helpers' `verify` option: a report the trust does not vouch for
// throws ReportVerificationError; genuine ones come back as they came.
import type { Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createStreamsClient,
  getBulkReports,
  getLatestReport,
  getReportAtTimestamp,
  getReportsPage,
  paginateReports,
  ConfigurationError,
  ReportVerificationError,
} from '../../src/streams/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';
import { readmeClaim } from '../support/readme-claim.js';
import { rejection } from '../support/rejection.js';
import { signedReport, testBlob, testDon, testSigner, type TestDon } from '../support/signed-reports.js';

const KEY = 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11';
const SECRET = 'test-secret-please-ignore';

/** testBlob(7)'s signed times (validFromTimestamp and observationsTimestamp). */
const T = 1_700_000_007;
/** A report as the API returns it, around a signed fullReport, its envelope saying what testBlob(7) says. */
const apiReport = (fullReport: Hex, feedID: Hex) => ({ feedID, validFromTimestamp: T, observationsTimestamp: T, fullReport });

function client(...answers: Parameters<typeof fakeFetch>) {
  return createStreamsClient({ apiKey: KEY, apiSecret: SECRET, fetch: fakeFetch(...answers).fetch, retry: { baseDelayMs: 0 } });
}

describe('REST helpers with { verify: trust }', () => {
  let don: TestDon;
  let feedID: Hex;
  let genuine: ReturnType<typeof apiReport>;
  let forged: ReturnType<typeof apiReport>;
  beforeAll(async () => {
    don = testDon(1);
    const blob = testBlob(7);
    feedID = `0x${blob.slice(2, 66)}`;
    genuine = apiReport((await signedReport(don, { blob })).fullReport, feedID);
    // Same blob, one signature a stranger's: the shape of a forged report.
    forged = apiReport((await signedReport(don, { blob, signers: [don.signers[0]!, testSigner(4242)] })).fullReport, feedID);
  });

  it('getLatestReport returns a genuine report (decoded too when asked) and throws for a forged one', async () => {
    await expect(getLatestReport(client(json(200, { report: genuine })), feedID, { verify: don.trust })).resolves.toEqual(genuine);
    const decoded = await getLatestReport(client(json(200, { report: genuine })), feedID, { verify: don.trust, decode: true });
    expect(decoded.decoded.feedId).toBe(feedID);
    const error = await rejection(getLatestReport(client(json(200, { report: forged })), feedID, { verify: don.trust }));
    expect(error).toBeInstanceOf(ReportVerificationError);
    expect((error as ReportVerificationError).reason).toBe('not_a_signer');
    // Without verify, the forged report is returned as it came: nothing checks signatures.
    await expect(getLatestReport(client(json(200, { report: forged })), feedID)).resolves.toEqual(forged);
  });

  it('getReportAtTimestamp throws for a report of a configuration the trust does not hold', async () => {
    const stranger = testDon(1, 4, 90);
    const error = await rejection(getReportAtTimestamp(client(json(200, { report: genuine })), feedID, T, { verify: stranger.trust }));
    expect((error as ReportVerificationError).reason).toBe('unknown_config');
  });

  it('getBulkReports and getReportsPage throw when any report is forged', async () => {
    const bulk = await getBulkReports(client(json(200, { reports: [genuine] })), [feedID], T, { verify: don.trust });
    expect(bulk.reports).toEqual([genuine]);
    await expect(getBulkReports(client(json(200, { reports: [genuine, forged] })), [feedID], T, { verify: don.trust })).rejects.toThrow(ReportVerificationError);
    await expect(getReportsPage(client(json(200, { reports: [genuine] })), { feedID, startTimestamp: 1 }, { verify: don.trust })).resolves.toEqual([genuine]);
    await expect(getReportsPage(client(json(200, { reports: [forged] })), { feedID, startTimestamp: 1 }, { verify: don.trust })).rejects.toThrow(ReportVerificationError);
  });

  it(readmeClaim('A malformed trust is a `ConfigurationError` before any request.'), async () => {
    const trust = { [don.configDigest]: { f: 1, signers: ['0xnot-an-address'] } };
    const calls = [
      (c: ReturnType<typeof createStreamsClient>) => getLatestReport(c, feedID, { verify: trust }),
      (c: ReturnType<typeof createStreamsClient>) => getReportAtTimestamp(c, feedID, T, { verify: trust }),
      (c: ReturnType<typeof createStreamsClient>) => getBulkReports(c, [feedID], T, { verify: trust }),
      (c: ReturnType<typeof createStreamsClient>) => getReportsPage(c, { feedID, startTimestamp: T }, { verify: trust }),
      (c: ReturnType<typeof createStreamsClient>) => paginateReports(c, { feedID, from: T, verify: trust }).next(),
    ];
    for (const call of calls) {
      const fake = fakeFetch(json(200, { report: genuine, reports: [] }));
      const error = await rejection(call(createStreamsClient({ apiKey: KEY, apiSecret: SECRET, fetch: fake.fetch })));
      expect(fake.sent).toHaveLength(0);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/verify\[0x0006[0-9a-f]{60}\]\.signers/);
    }
  });

  it('paginateReports yields genuine reports and throws at a forged one', async () => {
    const walk = paginateReports(client(json(200, { reports: [genuine] }), json(200, { reports: [forged] })), { feedID, from: 1, verify: don.trust });
    await expect(walk.next()).resolves.toEqual({ done: false, value: genuine });
    await expect(walk.next()).rejects.toThrow(ReportVerificationError);
  });
});
