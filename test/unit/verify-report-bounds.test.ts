// A hostile report service: every report it serves is genuine (signed by the
// sandbox's made-up oracle network, which the trust holds), but not the one
// asked for: a report of another stream, of another time, or under an
// envelope that says something else than the signed report. With `verify`,
// every REST helper refuses each of them (`unexpected_report`) and accepts
// the genuine answer; `decode: true` alone compares the blob with the
// stream asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportDecodeError } from '../../src/reports/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  createStreamsClient,
  getBulkReports,
  getLatestReport,
  getReportAtTimestamp,
  getReportsPage,
  paginateReports,
  ReportVerificationError,
  type Report,
  type StreamsClient,
} from '../../src/streams/index.js';
import { sendJson, startLocalServer, type LocalServer } from '../support/local-server.js';
import { readmeClaim } from '../support/readme-claim.js';
import { rejection } from '../support/rejection.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

let sandbox: Sandbox;
let server: LocalServer;
/** What the hostile server answers next (a JSON body, status 200). */
let answer: unknown;
let client: StreamsClient;
/** The time asked for, and genuine reports around it. */
let t: number;
let eth: Report;
let ethEarlier: Report;
let btc: Report;

beforeAll(async () => {
  sandbox = createSandbox();
  const genuineSource = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
  t = Math.floor(sandbox.clock.now() / 1000) - 10;
  const at = (feedID: string, time: number) => getReportAtTimestamp(genuineSource, feedID, time, { verify: sandbox.reportTrust });
  [eth, ethEarlier, btc] = await Promise.all([at(ETH_USD, t), at(ETH_USD, t - 100), at(BTC_USD, t)]);
  server = await startLocalServer((_request, response) => sendJson(response, 200, answer));
  client = createStreamsClient({ apiKey: '123e4567-e89b-12d3-a456-426614174000', apiSecret: 'hostile-test-secret', baseUrl: server.origin, retry: false });
});
afterAll(async () => {
  await server.close();
  sandbox.close();
});

/** The helper's error once the server answered `body`: a ReportVerificationError `unexpected_report`, its message checked. */
async function refused(body: unknown, call: () => Promise<unknown>, message: RegExp): Promise<void> {
  answer = body;
  const error = await rejection(call());
  expect(error).toBeInstanceOf(ReportVerificationError);
  expect((error as ReportVerificationError).reason).toBe('unexpected_report');
  expect((error as Error).message).toMatch(message);
}

describe(readmeClaim('A genuine report that is not the one asked for (another stream, signed times that do not cover the time asked for, an envelope that disagrees with the signed report) throws with `reason` `unexpected_report`.'), () => {
  const verify = () => ({ verify: sandbox.reportTrust });

  it('getLatestReport: another stream, or an envelope naming the stream asked for over another stream\'s report', async () => {
    answer = { report: eth };
    await expect(getLatestReport(client, ETH_USD, verify())).resolves.toEqual(eth);
    await refused({ report: btc }, () => getLatestReport(client, ETH_USD, verify()), new RegExp(`${BTC_USD}.*asked for ${ETH_USD}`));
    await refused({ report: { ...btc, feedID: ETH_USD } }, () => getLatestReport(client, ETH_USD, verify()), /envelope says stream/);
  });

  it('getReportAtTimestamp: another time, another stream, or an envelope that moves a report to the time asked for', async () => {
    answer = { report: eth };
    await expect(getReportAtTimestamp(client, ETH_USD, t, verify())).resolves.toEqual(eth);
    await refused({ report: ethEarlier }, () => getReportAtTimestamp(client, ETH_USD, t, verify()), new RegExp(`${t - 101}.*${t - 100}.*not ${t}`));
    await refused({ report: btc }, () => getReportAtTimestamp(client, ETH_USD, t, verify()), /asked for/);
    const moved = { ...ethEarlier, validFromTimestamp: t - 1, observationsTimestamp: t };
    await refused({ report: moved }, () => getReportAtTimestamp(client, ETH_USD, t, verify()), /envelope says observationsTimestamp/);
  });

  it('getBulkReports: a stream not asked for, or another time', async () => {
    answer = { reports: [eth, btc] };
    await expect(getBulkReports(client, [ETH_USD, BTC_USD], t, verify())).resolves.toMatchObject({ reports: [eth, btc], complete: true });
    await refused({ reports: [eth, btc] }, () => getBulkReports(client, [ETH_USD], t, verify()), new RegExp(`${BTC_USD}, asked for ${ETH_USD}`));
    await refused({ reports: [ethEarlier, btc] }, () => getBulkReports(client, [ETH_USD, BTC_USD], t, verify()), new RegExp(`not ${t}`));
  });

  it('getReportsPage and paginateReports: another stream, a report before the start, or a disagreeing envelope', async () => {
    answer = { reports: [eth] };
    await expect(getReportsPage(client, { feedID: ETH_USD, startTimestamp: t }, verify())).resolves.toEqual([eth]);
    await refused({ reports: [btc] }, () => getReportsPage(client, { feedID: ETH_USD, startTimestamp: t }, verify()), /asked for/);
    await refused({ reports: [ethEarlier] }, () => getReportsPage(client, { feedID: ETH_USD, startTimestamp: t }, verify()), new RegExp(`before ${t}`));
    await refused(
      { reports: [{ ...ethEarlier, observationsTimestamp: t }] },
      () => getReportsPage(client, { feedID: ETH_USD, startTimestamp: t }, verify()),
      /envelope says observationsTimestamp/,
    );
    await refused({ reports: [ethEarlier] }, () => paginateReports(client, { feedID: ETH_USD, from: t, verify: sandbox.reportTrust }).next(), new RegExp(`before ${t}`));
  });
});

describe('without verify, decode: true compares the blob with the stream asked for', () => {
  it('getLatestReport({ decode: true }) of ETH/USD answered with a BTC/USD report throws ReportDecodeError', async () => {
    answer = { report: eth };
    await expect(getLatestReport(client, ETH_USD, { decode: true })).resolves.toMatchObject({ decoded: { feedId: ETH_USD } });
    answer = { report: btc };
    const error = await rejection(getLatestReport(client, ETH_USD, { decode: true }));
    expect(error).toBeInstanceOf(ReportDecodeError);
    expect((error as Error).message).toContain(ETH_USD);
  });
});
