import { describe, expect, expectTypeOf, it } from 'vitest';
import { SdkError } from '../../src/core/errors.js';
import { encodeReport, type ReportFieldValue } from '../../src/reports/encode.js';
import {
  decodeReport,
  headlineValues,
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  ReportValueError,
  reportVersionId,
  type DecodedReport,
  type DecodedReportOf,
  type ReportField,
  type ReportVersion,
} from '../../src/reports/index.js';
import * as streamsEntry from '../../src/streams/index.js';

// A known report of every version, built with the encoder and read back by
// the decoder: its headline values, as a reader would write them, in the
// order headlineValues must give them (the main one first).
const KNOWN: { readonly [V in ReportVersion]: Readonly<Record<string, string>> } = {
  V2: { price: '3000.123456789012345678' },
  V3: { price: '3000.5', bid: '2999.75', ask: '3001.25' },
  V4: { price: '187.42' },
  V5: { rate: '0.0525' },
  V6: { price: '1.01', price2: '1.02', price3: '1.03', price4: '1.04', price5: '-1.05' },
  V7: { exchangeRate: '1.0874' },
  V8: { midPrice: '412.5' },
  V9: { navPerShare: '1.000284', aum: '25000000.5' },
  V10: { price: '250.1', tokenizedPrice: '250.35' },
  V11: { mid: '5012.25', bid: '5012', ask: '5012.5', lastTradedPrice: '5012.75' },
  V12: { navPerShare: '10.25', nextNavPerShare: '10.26' },
  V13: { bestBid: '99.98', bestAsk: '100.02', lastTradedPrice: '100' },
};

/** A decimal string as an integer scaled by 10^decimals, exactly (the test's own, independent of the SDK's). */
function toScaled(decimal: string, decimals: number): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const value = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  return negative ? -value : value;
}

const WORD = (byte: string): string => `0x${byte.repeat(32)}`;
const PARTS = { reportContext: [WORD('01'), WORD('02'), WORD('03')], rawRs: [WORD('04')], rawSs: [WORD('05')], rawVs: WORD('06') } as const;

/**
 * A decoded report of `version` whose headline fields hold `headline`
 * (scaled by 10^decimals) and whose other fields hold values that must not
 * show up among the headline values (field i: 7,777,000 + i at the same
 * scale, or a time ending in i).
 */
function knownReport(version: ReportVersion, headline: Readonly<Record<string, string>>, decimals = 18): DecodedReport {
  const feedId = `0x${reportVersionId(version).toString(16).padStart(4, '0')}${'ab'.repeat(30)}`;
  const fields: Record<string, ReportFieldValue> = {};
  (REPORT_SCHEMAS[version] as readonly ReportField[]).forEach((field, i) => {
    if (field.name === 'feedId') fields.feedId = feedId;
    else if (field.name in headline) fields[field.name] = toScaled(headline[field.name]!, decimals);
    else if (field.domain !== undefined || field.type === 'uint8') fields[field.name] = 1;
    else if (field.type === 'uint32') fields[field.name] = 1_700_000_000 + i;
    else if (field.type === 'uint64') fields[field.name] = 1_700_000_000_000_000_000n + BigInt(i);
    else fields[field.name] = (7_777_000n + BigInt(i)) * 10n ** BigInt(decimals);
  });
  return decodeReport(encodeReport(fields, PARTS), feedId);
}

describe('headlineValues', () => {
  it('covers every schema version', () => {
    expect(Object.keys(KNOWN)).toEqual([...REPORT_VERSIONS]);
  });

  for (const version of REPORT_VERSIONS) {
    it(`${version}: gives ${Object.keys(KNOWN[version]).join(', ')} by name, scaled from 18 decimals`, () => {
      const report = knownReport(version, KNOWN[version]);
      const values = headlineValues(report);
      expect(values.map(({ name, value }) => [name, value])).toEqual(Object.entries(KNOWN[version]));
      for (const { name, raw, decimals } of values) {
        expect(decimals).toBe(18);
        expect(raw).toBe((report as unknown as Record<string, bigint>)[name]);
      }
    });
  }

  it('scales by the decimals a stream publishes at, when told', () => {
    const report = knownReport('V4', { price: '187.42' }, 8);
    expect(headlineValues(report, { decimals: 8 })).toEqual([{ name: 'price', value: '187.42', raw: 18_742_000_000n, decimals: 8 }]);
    // At the default scale the same integer is a tiny number: the report does not carry its scale.
    expect(headlineValues(report)[0].value).toBe('0.000000018742');
  });

  it('keeps every digit of an int192, and its sign', () => {
    const extreme = knownReport('V7', { exchangeRate: '-3138550867693340381917894711603833208051.177722232017256448' });
    expect(headlineValues(extreme)[0]).toEqual({
      name: 'exchangeRate',
      value: '-3138550867693340381917894711603833208051.177722232017256448',
      raw: -(1n << 191n),
      decimals: 18,
    });
  });

  it('refuses decimals that are not a non-negative integer, naming the option', () => {
    const report = knownReport('V3', KNOWN.V3);
    for (const decimals of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '18' as unknown as number]) {
      const call = () => headlineValues(report, { decimals });
      expect(call).toThrow(ReportValueError);
      expect(call).toThrow(SdkError);
      expect(call).toThrow(/decimals/);
    }
  });

  it('refuses what is not a decoded report, saying what was wrong', () => {
    const notDecoded = { version: 'V99', price: 1n } as unknown as DecodedReport;
    expect(() => headlineValues(notDecoded)).toThrow(ReportValueError);
    expect(() => headlineValues(notDecoded)).toThrow(/"V99"/);
    // A report still in its REST form: `fullReport` not decoded yet.
    const raw = { feedID: WORD('00'), fullReport: '0x00' } as unknown as DecodedReport;
    expect(() => headlineValues(raw)).toThrow(/decodeReport/);
    const missing = { version: 'V3', price: 1n, bid: 1n } as unknown as DecodedReport;
    expect(() => headlineValues(missing)).toThrow(/^ask: .*V3 report, but it is missing$/);
    expect(() => headlineValues(null as unknown as DecodedReport)).toThrow(ReportValueError);
  });

  it('types each version\'s names, and always has a first (main) value', () => {
    const v3 = knownReport('V3', KNOWN.V3) as DecodedReportOf<'V3'>;
    expectTypeOf(headlineValues(v3)[0].name).toEqualTypeOf<'price' | 'bid' | 'ask'>();
    const v13 = knownReport('V13', KNOWN.V13) as DecodedReportOf<'V13'>;
    expectTypeOf(headlineValues(v13)[0].name).toEqualTypeOf<'bestBid' | 'bestAsk' | 'lastTradedPrice'>();
    const any = knownReport('V8', KNOWN.V8);
    expectTypeOf(headlineValues(any)[0].value).toEqualTypeOf<string>();
  });

  it('ships in ./streams as in ./report-decoder', () => {
    expect(typeof headlineValues).toBe('function');
    expect(streamsEntry.headlineValues).toBe(headlineValues);
    expect(streamsEntry.ReportValueError).toBe(ReportValueError);
  });
});
