import { decodeReport as vendorDecodeReport } from '@chainlink/data-streams-sdk';
import fc from 'fast-check';
import { decodeAbiParameters, encodeAbiParameters, type AbiParameter, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { SdkError } from '../../src/core/errors.js';
import { decodeReport, FULL_REPORT_ABI, REPORT_SCHEMAS, REPORT_VERSIONS, reportBlobAbi, reportVersionId, type ReportField, type ReportVersion } from '../../src/reports/index.js';
import { encodeFullReport, encodeReport, encodeReportBlob, ReportEncodeError, type ReportFieldValue } from '../../src/reports/encode.js';

// The encoder against the references: viem's ABI encoder must produce the
// same bytes, viem's decoder must read the values back, and both our decoder
// and the vendor's must accept the report.

const hex32 = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;
const bytes32 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(hex32);

function fieldArbitrary(field: ReportField): fc.Arbitrary<ReportFieldValue> {
  if (field.domain === 'marketStatus') return fc.constantFrom(0, 1, 2);
  if (field.domain === 'ripcord') return fc.constantFrom(0, 1);
  switch (field.type) {
    case 'bytes32':
      return bytes32;
    case 'uint8':
      return fc.integer({ min: 0, max: 255 });
    case 'uint32':
      return fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 2 ** 32 - 1));
    case 'uint64':
      return fc.oneof(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.constantFrom(0n, 2n ** 64n - 1n));
    case 'uint192':
      return fc.oneof(fc.bigInt({ min: 0n, max: (1n << 192n) - 1n }), fc.constantFrom(0n, (1n << 192n) - 1n));
    case 'int192':
      return fc.oneof(
        fc.bigInt({ min: -(1n << 191n), max: (1n << 191n) - 1n }),
        fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }),
        fc.constantFrom(-(1n << 191n), (1n << 191n) - 1n, -1n, 0n),
      );
  }
}

interface Sample {
  version: ReportVersion;
  fields: Record<string, ReportFieldValue>;
  values: ReportFieldValue[];
  reportContext: [Hex, Hex, Hex];
  rawRs: Hex[];
  rawSs: Hex[];
  rawVs: Hex;
}

function sampleOf(version: ReportVersion): fc.Arbitrary<Sample> {
  const [, ...rest] = REPORT_SCHEMAS[version];
  const feedId = fc.bigInt({ min: 0n, max: (1n << 240n) - 1n }).map((low) => hex32((BigInt(reportVersionId(version)) << 240n) | low));
  return fc
    .record({
      feedId,
      values: fc.tuple(...rest.map((field) => fieldArbitrary(field))),
      reportContext: fc.tuple(bytes32, bytes32, bytes32),
      rawRs: fc.array(bytes32, { maxLength: 5 }),
      rawSs: fc.array(bytes32, { maxLength: 5 }),
      rawVs: bytes32,
    })
    .map(({ feedId, values, reportContext, rawRs, rawSs, rawVs }) => {
      const all: ReportFieldValue[] = [feedId, ...values];
      const fields = Object.fromEntries(REPORT_SCHEMAS[version].map((field, i) => [field.name, all[i]!]));
      return { version, fields, values: all, reportContext, rawRs, rawSs, rawVs };
    });
}

function viemEncode(sample: Sample): Hex {
  const blob = encodeAbiParameters(reportBlobAbi(sample.version) as readonly AbiParameter[], sample.values as readonly unknown[]);
  return encodeAbiParameters(FULL_REPORT_ABI, [sample.reportContext, blob, sample.rawRs, sample.rawSs, sample.rawVs]);
}

/** A value as viem's decoder returns it: numbers up to 48 bits, bigints above, lowercase hex. */
function asViem(field: ReportField, value: ReportFieldValue): unknown {
  if (field.type === 'bytes32') return String(value).toLowerCase();
  return field.type === 'uint8' || field.type === 'uint32' ? Number(value) : BigInt(value);
}

/** uint64 fields the vendor's decoder returns as JavaScript numbers (see report-decoder.test.ts). */
const VENDOR_NUMBERS = new Set(['V8.lastUpdateTimestamp', 'V9.navDate', 'V10.lastUpdateTimestamp', 'V12.navDate', 'V13.askVolume', 'V13.bidVolume']);

describe('encodeReport: random reports of every version', () => {
  for (const version of REPORT_VERSIONS) {
    it(`${version}: the bytes viem encodes, read back by viem, ours and the vendor's decoder`, () => {
      fc.assert(
        fc.property(sampleOf(version), (sample) => {
          const fullReport = encodeReport(sample.fields, sample);
          expect(fullReport).toBe(viemEncode(sample));

          const [reportContext, blob, rawRs, rawSs, rawVs] = decodeAbiParameters(FULL_REPORT_ABI, fullReport as Hex);
          expect([...reportContext]).toStrictEqual(sample.reportContext.map((h) => h.toLowerCase()));
          expect([rawRs, rawSs, rawVs]).toStrictEqual([sample.rawRs, sample.rawSs, sample.rawVs]);
          const values = decodeAbiParameters(reportBlobAbi(version) as readonly AbiParameter[], blob);
          expect([...values]).toStrictEqual(REPORT_SCHEMAS[version].map((field, i) => asViem(field, sample.values[i]!)));

          const ours = decodeReport(fullReport, sample.fields.feedId as string);
          expect(ours.version).toBe(version);
          for (const field of REPORT_SCHEMAS[version]) {
            const got = (ours as unknown as Record<string, unknown>)[field.name];
            expect(field.type === 'bytes32' ? got : BigInt(got as number | bigint)).toStrictEqual(
              field.type === 'bytes32' ? String(sample.fields[field.name]).toLowerCase() : BigInt(sample.fields[field.name]!),
            );
          }
          // The vendor returns the blob's fields but feedId and the two timestamps.
          const theirs: Record<string, unknown> = { ...vendorDecodeReport(fullReport, sample.fields.feedId as string) };
          expect(theirs.version).toBe(version);
          const vendorFields = REPORT_SCHEMAS[version].filter((f) => !['feedId', 'validFromTimestamp', 'observationsTimestamp'].includes(f.name));
          expect(Object.keys(theirs).sort()).toStrictEqual(['version', ...vendorFields.map((f) => f.name)].sort());
          for (const field of vendorFields) {
            const want = sample.fields[field.name]!;
            expect(theirs[field.name]).toStrictEqual(
              VENDOR_NUMBERS.has(`${version}.${field.name}`) || field.type === 'uint8' || field.type === 'uint32' ? Number(want) : BigInt(want),
            );
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it('pads a blob that is not whole words, as the ABI does for `bytes`', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), bytes32, (bytes, word) => {
        const blob = `0x${Buffer.from(bytes).toString('hex')}` as Hex;
        const parts = { reportContext: [word, word, word] as [Hex, Hex, Hex], rawRs: [word], rawSs: [], rawVs: word };
        expect(encodeFullReport(blob, parts)).toBe(encodeAbiParameters(FULL_REPORT_ABI, [parts.reportContext, blob, parts.rawRs, parts.rawSs, word]));
      }),
      { numRuns: 200 },
    );
  });

  it('writes lowercase hex whatever the case of its input', () => {
    const sample = fc.sample(sampleOf('V3'), { numRuns: 1, seed: 3 })[0]!;
    const upper = (h: string) => `0x${h.slice(2).toUpperCase()}`;
    const shouting = {
      ...sample,
      fields: { ...sample.fields, feedId: upper(sample.fields.feedId as string) },
      reportContext: sample.reportContext.map(upper) as [Hex, Hex, Hex],
      rawVs: upper(sample.rawVs) as Hex,
    };
    expect(encodeReport(shouting.fields, shouting)).toBe(encodeReport(sample.fields, sample));
  });
});

describe('encodeReport: values it cannot encode', () => {
  const base = fc.sample(sampleOf('V4'), { numRuns: 1, seed: 11 })[0]!;
  const parts = { reportContext: base.reportContext, rawRs: base.rawRs, rawSs: base.rawSs, rawVs: base.rawVs };

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a missing field', { ...base.fields, price: undefined }, 'price', /missing/],
    ['an unknown field', { ...base.fields, bid: 1n }, 'bid', /not a field of the V4 layout/],
    ['a uint32 above its range', { ...base.fields, expiresAt: 2 ** 32 }, 'expiresAt', /outside the uint32 range/],
    ['a negative uint', { ...base.fields, nativeFee: -1n }, 'nativeFee', /outside the uint192 range/],
    ['an int192 above its range', { ...base.fields, price: 1n << 191n }, 'price', /outside the int192 range/],
    ['an int192 below its range', { ...base.fields, price: -(1n << 191n) - 1n }, 'price', /outside the int192 range/],
    ['an unsafe number', { ...base.fields, linkFee: 2 ** 60 }, 'linkFee', /safe integer/],
    ['a fraction', { ...base.fields, expiresAt: 1.5 }, 'expiresAt', /safe integer/],
    ['a decimal string for a number', { ...base.fields, price: '3000' }, 'price', /bigint or a safe integer/],
    ['a short feed ID', { ...base.fields, feedId: '0x0004' }, 'feedId', /32 bytes of 0x-hex/],
    ['a feed ID of version 1', { ...base.fields, feedId: hex32(1n << 240n) }, 'feedId', /no schema version/],
    ['a feed ID of version 14', { ...base.fields, feedId: hex32(14n << 240n) }, 'feedId', /no schema version/],
  ];
  for (const [name, fields, field, message] of cases) {
    it(`${name}: ReportEncodeError naming \`${field}\``, () => {
      const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      let caught: unknown;
      try {
        encodeReport(defined as Record<string, ReportFieldValue>, parts);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ReportEncodeError);
      expect(caught).toBeInstanceOf(SdkError);
      expect((caught as ReportEncodeError).field).toBe(field);
      expect((caught as Error).message).toMatch(message);
    });
  }

  it('refuses malformed outer parts, naming them', () => {
    const blob = encodeReportBlob(base.fields);
    expect(() => encodeFullReport('0x123', parts)).toThrow(/reportBlob/);
    expect(() => encodeFullReport(blob, { ...parts, rawRs: [...parts.rawRs, '0x12'] })).toThrow(`rawRs[${parts.rawRs.length}]`);
    expect(() => encodeFullReport(blob, { ...parts, rawVs: 'nope' })).toThrow(/rawVs/);
    expect(() => encodeFullReport(blob, { ...parts, reportContext: [parts.reportContext[0], parts.reportContext[1]] as never })).toThrow(/reportContext/);
    expect(() => encodeFullReport(blob, null as never)).toThrow(ReportEncodeError);
    expect(() => encodeReportBlob(null as never)).toThrow(ReportEncodeError);
  });
});
