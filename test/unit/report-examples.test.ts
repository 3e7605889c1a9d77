import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { decodeReport, formatScaled, reportVersionOf } from '../../src/reports/index.js';

// The report examples of the streams spec, written by scripts/encode-report-examples.mjs:
// every one must be a real encoding that our decoder reads back.
const DIR = new URL('../../openapi/streams/components/examples/', import.meta.url);
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

interface ExampleReport {
  feedID: string;
  validFromTimestamp: number;
  observationsTimestamp: number;
  fullReport: string;
}

function load(name: string): { summary: string; value: { report?: ExampleReport; reports?: ExampleReport[] } } {
  return parse(readFileSync(fileURLToPath(new URL(name, DIR)), 'utf8')) as never;
}

function reportsOf(name: string): ExampleReport[] {
  const { summary, value } = load(name);
  expect(typeof summary).toBe('string');
  expect(summary.length).toBeGreaterThan(0);
  return value.report !== undefined ? [value.report] : (value.reports ?? []);
}

const EXPECTED: Record<string, { feedID: string; observationsTimestamp: number }[]> = {
  'LatestReport.yaml': [{ feedID: ETH_USD, observationsTimestamp: 1_700_000_300 }],
  'ReportAtTimestamp.yaml': [{ feedID: ETH_USD, observationsTimestamp: 1_700_000_000 }],
  'BulkReports.yaml': [
    { feedID: ETH_USD, observationsTimestamp: 1_700_000_000 },
    { feedID: BTC_USD, observationsTimestamp: 1_700_000_000 },
  ],
  'BulkReportsPartial.yaml': [{ feedID: ETH_USD, observationsTimestamp: 1_700_000_000 }],
  'ReportsPage.yaml': [
    { feedID: ETH_USD, observationsTimestamp: 1_700_000_000 },
    { feedID: ETH_USD, observationsTimestamp: 1_700_000_001 },
    { feedID: ETH_USD, observationsTimestamp: 1_700_000_002 },
  ],
};

describe('streams spec report examples', () => {
  for (const [file, wanted] of Object.entries(EXPECTED)) {
    it(`${file}: every report decodes and matches its outer fields`, () => {
      const reports = reportsOf(file);
      expect(reports.map((r) => ({ feedID: r.feedID, observationsTimestamp: r.observationsTimestamp }))).toStrictEqual(wanted);
      for (const example of reports) {
        expect(Number.isInteger(example.validFromTimestamp)).toBe(true);
        expect(Number.isInteger(example.observationsTimestamp)).toBe(true);
        expect(example.feedID).toMatch(/^0x[0-9a-f]{64}$/);
        expect(example.fullReport).toMatch(/^0x([0-9a-f]{2})+$/);

        const report = decodeReport(example.fullReport, example.feedID);
        expect(report.version).toBe(reportVersionOf(example.feedID));
        expect(report.version).toBe('V3');
        expect(report.feedId).toBe(example.feedID);
        expect(report.validFromTimestamp).toBe(example.validFromTimestamp);
        expect(report.observationsTimestamp).toBe(example.observationsTimestamp);
        expect(report.validFromTimestamp).toBeLessThanOrEqual(report.observationsTimestamp);
        expect(report.expiresAt).toBeGreaterThan(report.observationsTimestamp);
        expect(report.rawRs).toHaveLength(1);
        expect(report.rawSs).toHaveLength(1);
        if (report.version !== 'V3') continue;
        expect(report.bid).toBeLessThanOrEqual(report.price);
        expect(report.ask).toBeGreaterThanOrEqual(report.price);
        const usd = Number(formatScaled(report.price));
        if (example.feedID === ETH_USD) {
          expect(usd).toBeGreaterThan(2_500);
          expect(usd).toBeLessThan(3_500);
        } else {
          expect(usd).toBeGreaterThan(10_000);
        }
      }
    });
  }

  it('the 206 example lacks exactly the BTC/USD report of the 200 one', () => {
    const full = reportsOf('BulkReports.yaml');
    const partial = reportsOf('BulkReportsPartial.yaml');
    expect(partial).toStrictEqual(full.filter((r) => r.feedID !== BTC_USD));
  });
});
