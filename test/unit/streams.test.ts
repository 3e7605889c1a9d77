import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConfigurationError,
  collect,
  createStreamsClient,
  getBulkReports,
  getLatestReport,
  getReportsPage,
  paginateReports,
} from '../../src/streams/index.js';
import { ReportDecodeError } from '../../src/reports/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';

const KEY = 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11';
const SECRET = 'test-secret-please-ignore';
const ETH = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
const report = (feedID: string, t: number) => ({ feedID, validFromTimestamp: t - 1, observationsTimestamp: t, fullReport: '0x00' });

function client(...answers: Parameters<typeof fakeFetch>) {
  const fake = fakeFetch(...answers);
  return { fake, streams: createStreamsClient({ apiKey: KEY, apiSecret: SECRET, fetch: fake.fetch, retry: { baseDelayMs: 0 } }) };
}

describe('createStreamsClient', () => {
  it.each([
    [{ apiKey: 'not-a-uuid', apiSecret: SECRET }, 'apiKey'],
    [{ apiKey: KEY, apiSecret: '' }, 'apiSecret'],
    [{ apiKey: KEY }, 'apiSecret'],
    [{ apiSecret: SECRET }, 'apiKey'],
    [{ apiKey: KEY, apiSecret: SECRET, network: 'devnet' as never }, 'network'],
    [{ apiKey: KEY, apiSecret: SECRET, baseUrl: 'not a url' }, 'baseUrl'],
  ])('rejects %j naming the option, never echoing the secret', (options, option) => {
    const error = (() => {
      try {
        createStreamsClient(options);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe(option);
    expect((error as Error).message).not.toContain(SECRET);
  });

  it('uses the testnet host by default and mainnet on request', async () => {
    const a = client(json(200, { report: report(ETH, 1) }));
    await getLatestReport(a.streams, ETH);
    expect(a.fake.sent[0]!.url.startsWith('https://api.testnet-dataengine.chain.link/api/v1/reports/latest?')).toBe(true);
    const fake = fakeFetch(json(200, { report: report(ETH, 1) }));
    const main = createStreamsClient({ apiKey: KEY, apiSecret: SECRET, network: 'mainnet', fetch: fake.fetch });
    await getLatestReport(main, ETH);
    expect(fake.sent[0]!.url.startsWith('https://api.dataengine.chain.link/')).toBe(true);
  });

  it('never exposes the secret through JSON, inspect or toString', () => {
    const { streams } = client();
    for (const text of [JSON.stringify(streams), inspect(streams, { depth: 10, showHidden: true }), String(streams)]) {
      expect(text).not.toContain(SECRET);
    }
  });
});

describe('signing through the client', () => {
  it('signs the exact path and query sent, with the three headers', async () => {
    const { fake, streams } = client(json(200, { report: report(ETH, 1) }));
    await getLatestReport(streams, ETH);
    const sent = fake.sent[0]!;
    const url = new URL(sent.url);
    const timestamp = sent.headers.get('x-authorization-timestamp')!;
    const expected = createHmac('sha256', SECRET)
      .update(`GET ${url.pathname}${url.search} e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ${KEY} ${timestamp}`)
      .digest('hex');
    expect(sent.headers.get('authorization')).toBe(KEY);
    expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(5_000);
    expect(sent.headers.get('x-authorization-signature-sha256')).toBe(expected);
  });

  it('an anonymous client sends no auth headers', async () => {
    const fake = fakeFetch(json(200, { feeds: [] }));
    const anon = createStreamsClient({ fetch: fake.fetch });
    await anon.GET('/api/v1/discovery', {});
    expect(fake.sent[0]!.headers.has('authorization')).toBe(false);
  });

  it('turns a 401 into an ApiError naming the operation', async () => {
    const { streams } = client(json(401, { type: 'UNAUTHORIZED', message: 'authentication failed' }));
    const error = await getLatestReport(streams, ETH).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, type: 'UNAUTHORIZED', operation: { method: 'GET', path: '/api/v1/reports/latest' } });
    expect(error.message).not.toContain(SECRET);
  });
});

describe('bulk', () => {
  it('sends feedIDs comma-separated and reports a complete 200', async () => {
    const { fake, streams } = client(json(200, { reports: [report(ETH, 5), report(BTC, 5)] }));
    const result = await getBulkReports(streams, [ETH, BTC], 5);
    expect(new URL(fake.sent[0]!.url).searchParams.get('feedIDs')).toBe(`${ETH},${BTC}`);
    expect(result).toMatchObject({ complete: true, missingFeedIDs: [] });
    expect(result.reports).toHaveLength(2);
  });

  it('names the missing feed IDs of a 206', async () => {
    const { streams } = client(json(206, { reports: [report(ETH, 5)] }));
    const result = await getBulkReports(streams, [ETH, BTC], 5);
    expect(result.complete).toBe(false);
    expect(result.missingFeedIDs).toEqual([BTC]);
    expect(result.reports.map((r) => r.feedID)).toEqual([ETH]);
  });
});

describe('paginateReports', () => {
  it('advances past the last report of each page and stops at `to`', async () => {
    const pages = [
      [report(ETH, 100), report(ETH, 101)],
      [report(ETH, 102), report(ETH, 103)],
      [report(ETH, 104), report(ETH, 105)],
    ];
    const { fake, streams } = client(...pages.map((reports) => json(200, { reports })));
    const seen = await collect(paginateReports(streams, { feedID: ETH, from: 100, to: 104, pageSize: 2 }));
    expect(seen.map((r) => r.observationsTimestamp)).toEqual([100, 101, 102, 103, 104]);
    expect(fake.sent.map((s) => new URL(s.url).searchParams.get('startTimestamp'))).toEqual(['100', '102', '104']);
    expect(new URL(fake.sent[0]!.url).searchParams.get('limit')).toBe('2');
  });

  it('stops on an empty page', async () => {
    const { fake, streams } = client(json(200, { reports: [report(ETH, 7)] }), json(200, { reports: [] }));
    expect(await collect(paginateReports(streams, { feedID: ETH, from: 7 }))).toHaveLength(1);
    expect(fake.sent).toHaveLength(2);
  });

  it('stops at maxItems', async () => {
    const { fake, streams } = client(json(200, { reports: [report(ETH, 1), report(ETH, 2), report(ETH, 3)] }));
    expect(await collect(paginateReports(streams, { feedID: ETH, from: 1, maxItems: 2 }))).toHaveLength(2);
    expect(fake.sent).toHaveLength(1);
  });
});

describe('decoded reports', () => {
  const example = parse(readFileSync(new URL('../../openapi/streams/components/examples/LatestReport.yaml', import.meta.url), 'utf8'))
    .value.report as { feedID: string; validFromTimestamp: number; observationsTimestamp: number; fullReport: string };

  it('getLatestReport({ decode: true }) adds the typed decoded report', async () => {
    const { streams } = client(json(200, { report: example }));
    const report = await getLatestReport(streams, example.feedID, { decode: true });
    expect(report.decoded.version).toBe('V3');
    expect(report.decoded.feedId).toBe(example.feedID);
    expect(report.decoded.observationsTimestamp).toBe(example.observationsTimestamp);
    if (report.decoded.version === 'V3') expect(typeof report.decoded.price).toBe('bigint');
  });

  it('without decode the report is returned as sent', async () => {
    const { streams } = client(json(200, { report: example }));
    expect(await getLatestReport(streams, example.feedID)).toEqual(example);
  });

  it('a blob whose feed ID disagrees with the report is refused with ReportDecodeError', async () => {
    const { streams } = client(json(200, { report: { ...example, feedID: BTC } }));
    const error = await getLatestReport(streams, BTC, { decode: true }).catch((e) => e);
    expect(error).toBeInstanceOf(ReportDecodeError);
    expect(error.reason).toBe('feed_id_mismatch');
  });

  it('bulk, page and the paged iterator decode every report', async () => {
    const { streams } = client(
      json(206, { reports: [example] }),
      json(200, { reports: [example] }),
      json(200, { reports: [example] }),
      json(200, { reports: [] }),
    );
    const bulk = await getBulkReports(streams, [example.feedID, BTC], 1, { decode: true });
    expect(bulk.reports[0]!.decoded.version).toBe('V3');
    expect(bulk.missingFeedIDs).toEqual([BTC]);
    const page = await getReportsPage(streams, { feedID: example.feedID, startTimestamp: 1 }, { decode: true });
    expect(page[0]!.decoded.version).toBe('V3');
    const iterated = await collect(paginateReports(streams, { feedID: example.feedID, from: 1, decode: true }));
    expect(iterated.map((r) => r.decoded.version)).toEqual(['V3']);
  });
});
