import { decodeReport as vendorDecodeReport } from '@chainlink/data-streams-sdk';
import fc from 'fast-check';
import { decodeAbiParameters, encodeAbiParameters, formatUnits, type AbiParameter, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  decodeReport,
  FULL_REPORT_ABI,
  formatScaled,
  isReportExpired,
  MarketStatus,
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  reportBlobAbi,
  ReportDecodeError,
  reportVersionId,
  reportVersionOf,
  Ripcord,
  type DecodedReport,
  type ReportDecodeErrorReason,
  type ReportField,
  type ReportVersion,
} from '../../src/reports/index.js';
import { useScanEngine } from '../../src/reports/scan.js';

// ---------------------------------------------------------------------------
// Random valid reports, encoded by viem (the reference ABI library)
// ---------------------------------------------------------------------------

const hex32 = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;
const bytes32 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(hex32);

/** A field value as the test writes it into viem and expects it back from us. */
type FieldValue = Hex | number | bigint;

function fieldArbitrary(field: ReportField): fc.Arbitrary<FieldValue> {
  if (field.domain === 'marketStatus') return fc.constantFrom(0, 1, 2);
  if (field.domain === 'ripcord') return fc.constantFrom(0, 1);
  switch (field.type) {
    case 'bytes32':
      return bytes32;
    case 'uint8':
      return fc.integer({ min: 0, max: 255 });
    case 'uint32':
      return fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 1, 2 ** 31, 2 ** 32 - 1));
    case 'uint64':
      return fc.oneof(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.constantFrom(0n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n));
    case 'uint192':
      return fc.oneof(fc.bigInt({ min: 0n, max: (1n << 192n) - 1n }), fc.bigInt({ min: 0n, max: 10n ** 18n }));
    case 'int192':
      return fc.oneof(
        fc.bigInt({ min: -(1n << 191n), max: (1n << 191n) - 1n }),
        fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }),
        fc.constantFrom(-(1n << 191n), (1n << 191n) - 1n, -1n, 0n, 1n),
      );
  }
}

interface Sample {
  version: ReportVersion;
  /** Blob field values, in schema order (feedId first). */
  values: FieldValue[];
  reportContext: [Hex, Hex, Hex];
  rawRs: Hex[];
  rawSs: Hex[];
  rawVs: Hex;
  fullReport: Hex;
}

const feedIdOf = (version: ReportVersion): fc.Arbitrary<Hex> =>
  fc.bigInt({ min: 0n, max: (1n << 240n) - 1n }).map((rest) => hex32((BigInt(reportVersionId(version)) << 240n) | rest));

function encodeBlob(version: ReportVersion, values: readonly FieldValue[]): Hex {
  return encodeAbiParameters(reportBlobAbi(version) as readonly AbiParameter[], values as readonly unknown[]);
}

function encodeFull(reportContext: readonly Hex[], blob: Hex, rawRs: readonly Hex[], rawSs: readonly Hex[], rawVs: Hex): Hex {
  return encodeAbiParameters(FULL_REPORT_ABI, [reportContext as [Hex, Hex, Hex], blob, rawRs, rawSs, rawVs]);
}

function sampleOf(version: ReportVersion, maxSignatures = 4): fc.Arbitrary<Sample> {
  const [, ...rest] = REPORT_SCHEMAS[version];
  return fc
    .record({
      feedId: feedIdOf(version),
      values: fc.tuple(...rest.map((field) => fieldArbitrary(field))),
      reportContext: fc.tuple(bytes32, bytes32, bytes32),
      rawRs: fc.array(bytes32, { maxLength: maxSignatures }),
      rawSs: fc.array(bytes32, { maxLength: maxSignatures }),
      rawVs: bytes32,
    })
    .map(({ feedId, values, reportContext, rawRs, rawSs, rawVs }) => {
      const all: FieldValue[] = [feedId, ...values];
      return {
        version,
        values: all,
        reportContext,
        rawRs,
        rawSs,
        rawVs,
        fullReport: encodeFull(reportContext, encodeBlob(version, all), rawRs, rawSs, rawVs),
      };
    });
}

const anySample = fc.constantFrom(...REPORT_VERSIONS).chain((version) => sampleOf(version));

/** What our decoder must return for the given blob values and outer parts. */
function expected(
  version: ReportVersion,
  values: readonly unknown[],
  outer: { reportContext: readonly string[]; rawRs: readonly string[]; rawSs: readonly string[]; rawVs: string },
): Record<string, unknown> {
  const out: Record<string, unknown> = { version };
  REPORT_SCHEMAS[version].forEach((field, i) => {
    const value = values[i];
    out[field.name] =
      field.type === 'bytes32'
        ? String(value).toLowerCase()
        : field.type === 'uint8' || field.type === 'uint32'
          ? Number(value)
          : BigInt(value as bigint);
  });
  out.reportContext = outer.reportContext.map((h) => h.toLowerCase());
  out.rawRs = outer.rawRs.map((h) => h.toLowerCase());
  out.rawSs = outer.rawSs.map((h) => h.toLowerCase());
  out.rawVs = outer.rawVs.toLowerCase();
  return out;
}

/** viem's generic decoding of the same report, in our shape. */
function viemDecode(version: ReportVersion, fullReport: Hex): Record<string, unknown> {
  const [reportContext, blob, rawRs, rawSs, rawVs] = decodeAbiParameters(FULL_REPORT_ABI, fullReport);
  const values = decodeAbiParameters(reportBlobAbi(version) as readonly AbiParameter[], blob);
  return expected(version, values, { reportContext, rawRs, rawSs, rawVs });
}

/** Run `decodeReport`, returning the error when it throws: it must be a ReportDecodeError. */
function attempt(fullReport: unknown, feedID?: unknown): DecodedReport | ReportDecodeError {
  try {
    return decodeReport(fullReport as string, feedID as string | undefined);
  } catch (error) {
    expect(error).toBeInstanceOf(ReportDecodeError);
    return error as ReportDecodeError;
  }
}

function reasonOf(fullReport: unknown, feedID?: unknown): ReportDecodeErrorReason | 'decoded' {
  const result = attempt(fullReport, feedID);
  return result instanceof ReportDecodeError ? result.reason : 'decoded';
}

/** String index of the hex digits of blob field `i`. */
const fieldAt = (i: number): number => 2 + 2 * (256 + 32 * i);
const replaceAt = (s: string, index: number, text: string): string => s.slice(0, index) + text + s.slice(index + text.length);

/**
 * Runs a block once per scan engine: WebAssembly SIMD (the default)
 * and the JavaScript scan used where WebAssembly cannot run.
 */
function describeEachEngine(name: string, body: () => void): void {
  for (const engine of ['wasm', 'js'] as const) {
    describe(`${name} [${engine} scan]`, () => {
      beforeAll(() => {
        expect(useScanEngine(engine)).toBe(engine);
      });
      afterAll(() => {
        useScanEngine('wasm');
      });
      body();
    });
  }
}

// ---------------------------------------------------------------------------
// Property tests against the two references
// ---------------------------------------------------------------------------

describeEachEngine('decodeReport: random valid reports of every version', () => {
  for (const version of REPORT_VERSIONS) {
    it(`${version}: equals the values viem encoded, and viem's own decoding`, () => {
      fc.assert(
        fc.property(sampleOf(version), (sample) => {
          const want = expected(version, sample.values, sample);
          const got = decodeReport(sample.fullReport);
          expect(got).toStrictEqual(want);
          expect(got).toStrictEqual(viemDecode(version, sample.fullReport));
          // With the feed ID the API returns next to it, in either case.
          expect(decodeReport(sample.fullReport, sample.values[0] as string)).toStrictEqual(want);
          expect(decodeReport(sample.fullReport, (sample.values[0] as string).toUpperCase().replace('0X', '0x'))).toStrictEqual(want);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('accepts hex digits of either case, and returns lowercase hex', () => {
    fc.assert(
      fc.property(anySample, fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (sample, mask) => {
        const mixed = sample.fullReport.replace(/[a-f]/g, (c, i: number) => (mask[i % 64] ? c.toUpperCase() : c));
        expect(decodeReport(mixed)).toStrictEqual(decodeReport(sample.fullReport));
      }),
      { numRuns: 200 },
    );
  });

  it('decodes signature arrays of any shape (unequal counts, more than 32 entries, thousands)', () => {
    const ctx: [Hex, Hex, Hex] = [hex32(1n), hex32(2n), hex32(3n)];
    const values: FieldValue[] = [hex32(3n << 240n), 1, 2, 3n, 4n, 5, 6n, -7n, 8n];
    const blob = encodeBlob('V3', values);
    for (const [rs, ss] of [
      [0, 0],
      [1, 3],
      [3, 1],
      [32, 32],
      [33, 33],
      [40, 2],
      [1100, 1100], // longer than the decoder's retained buffer (64 kB)
    ] as const) {
      const rawRs = Array.from({ length: rs }, (_, i) => hex32(BigInt(i + 100)));
      const rawSs = Array.from({ length: ss }, (_, i) => hex32(BigInt(i + 200)));
      const full = encodeFull(ctx, blob, rawRs, rawSs, hex32(9n));
      expect(decodeReport(full)).toStrictEqual(expected('V3', values, { reportContext: ctx, rawRs, rawSs, rawVs: hex32(9n) }));
    }
  });

  it('sign-extends int192 and reads the extremes of every width', () => {
    const values: FieldValue[] = [hex32(11n << 240n), 2 ** 32 - 1, 0, (1n << 192n) - 1n, 0n, 2 ** 32 - 1];
    values.push(-(1n << 191n), 2n ** 64n - 1n, (1n << 191n) - 1n, -1n, 1n, -(10n ** 18n), 0n, 2 ** 32 - 1);
    const full = encodeFull([hex32(0n), hex32(0n), hex32(0n)], encodeBlob('V11', values), [], [], hex32(0n));
    const report = decodeReport(full);
    expect(report.version).toBe('V11');
    if (report.version !== 'V11') return;
    expect(report.nativeFee).toBe((1n << 192n) - 1n);
    expect(report.mid).toBe(-(1n << 191n));
    expect(report.lastSeenTimestampNs).toBe(2n ** 64n - 1n);
    expect(report.bid).toBe((1n << 191n) - 1n);
    expect(report.bidVolume).toBe(-1n);
    expect(report.askVolume).toBe(-(10n ** 18n));
    expect(report.marketStatus).toBe(2 ** 32 - 1); // V11: any uint32, as the vendor
  });
});

/**
 * The vendor's decoder (`decodeReport` of @chainlink/data-streams-sdk 1.2.1)
 * supports every version V2 to V13, so all twelve are cross-checked. It
 * returns `version`, `nativeFee`, `linkFee`, `expiresAt` and the version's own
 * fields, under the same names as ours, but not `feedId`, the two
 * timestamps nor the outer parts; and it returns the uint64 fields of V8 and
 * V10 (`lastUpdateTimestamp`), V9 and V12 (`navDate`) and V13 (`askVolume`,
 * `bidVolume`) as JavaScript numbers (rounded above 2^53), where ours are
 * bigints, so those are compared through `Number()`.
 */
const VENDOR_NUMBER_FIELDS = new Set(['V8.lastUpdateTimestamp', 'V9.navDate', 'V10.lastUpdateTimestamp', 'V12.navDate', 'V13.askVolume', 'V13.bidVolume']);
const NOT_FROM_VENDOR = new Set(['feedId', 'validFromTimestamp', 'observationsTimestamp', 'reportContext', 'rawRs', 'rawSs', 'rawVs']);

function asVendor(report: DecodedReport): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(report)) {
    if (NOT_FROM_VENDOR.has(key)) continue;
    out[key] = VENDOR_NUMBER_FIELDS.has(`${report.version}.${key}`) ? Number(value as bigint) : value;
  }
  return out;
}

describeEachEngine("decodeReport agrees with the vendor's decodeReport", () => {
  for (const version of REPORT_VERSIONS) {
    it(`${version}`, () => {
      fc.assert(
        fc.property(sampleOf(version), (sample) => {
          const ours = decodeReport(sample.fullReport, sample.values[0] as string);
          const theirs = vendorDecodeReport(sample.fullReport, sample.values[0] as string);
          expect({ ...theirs }).toStrictEqual(asVendor(ours));
        }),
        { numRuns: 60 },
      );
    });
  }

  it('refuses the marketStatus and ripcord values the vendor refuses', () => {
    const cases: [ReportVersion, string, number, ReportDecodeErrorReason][] = [
      ['V4', 'marketStatus', 3, 'invalid_market_status'],
      ['V8', 'marketStatus', 7, 'invalid_market_status'],
      ['V10', 'marketStatus', 2 ** 32 - 1, 'invalid_market_status'],
      ['V9', 'ripcord', 2, 'invalid_ripcord'],
      ['V12', 'ripcord', 255, 'invalid_ripcord'],
    ];
    for (const [version, name, bad, reason] of cases) {
      const sample = fc.sample(sampleOf(version), { numRuns: 1, seed: 7 })[0]!;
      const i = REPORT_SCHEMAS[version].findIndex((f) => f.name === name);
      const values = [...sample.values];
      values[i] = bad;
      const full = encodeFull(sample.reportContext, encodeBlob(version, values), sample.rawRs, sample.rawSs, sample.rawVs);
      expect(() => vendorDecodeReport(full, sample.values[0] as string)).toThrow();
      const error = attempt(full);
      expect(error).toBeInstanceOf(ReportDecodeError);
      expect((error as ReportDecodeError).reason).toBe(reason);
      expect((error as ReportDecodeError).field).toBe(name);
      expect((error as ReportDecodeError).offset).toBe(256 + 32 * i);
    }
  });
});

// ---------------------------------------------------------------------------
// Malformed input: only ReportDecodeError, with the right reason
// ---------------------------------------------------------------------------

describeEachEngine('decodeReport: malformed input', () => {
  it('throws only ReportDecodeError on arbitrary input', () => {
    const hexish = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFx g'), maxLength: 2000 });
    fc.assert(
      fc.property(fc.oneof(fc.string(), hexish, hexish.map((s) => '0x' + s), fc.anything()), fc.option(fc.anything()), (input, feedID) => {
        attempt(input, feedID ?? undefined);
        attempt(input);
      }),
      { numRuns: 1000 },
    );
  });

  it('a random change to a valid report either decodes to what viem decodes, or throws ReportDecodeError', () => {
    fc.assert(
      fc.property(anySample, fc.nat(), fc.constantFrom(...'0123456789abcdef0f'), (sample, where, digit) => {
        const index = 2 + (where % (sample.fullReport.length - 2));
        const mutated = replaceAt(sample.fullReport, index, digit) as Hex;
        const result = attempt(mutated);
        if (!(result instanceof ReportDecodeError)) {
          const version = reportVersionOf(result.feedId);
          expect(result).toStrictEqual(viemDecode(version, mutated));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('truncated: any even-length prefix', () => {
    fc.assert(
      fc.property(anySample, fc.nat(), (sample, cut) => {
        const length = 2 + 2 * (cut % ((sample.fullReport.length - 2) / 2));
        const error = attempt(sample.fullReport.slice(0, length));
        expect(error).toBeInstanceOf(ReportDecodeError);
        expect((error as ReportDecodeError).reason).toBe('truncated');
      }),
      { numRuns: 500 },
    );
  });

  it('bad_hex: a non-hex character anywhere, odd length, no 0x prefix, not a string', () => {
    const notHex = fc.constantFrom('g', 'x', 'X', ' ', '\n', '-', 'z', 'G', 'é', '\u00a0', '\u212a', '_', '0x');
    fc.assert(
      fc.property(anySample, fc.nat(), notHex, (sample, where, c) => {
        const index = 2 + (where % (sample.fullReport.length - 2));
        expect(reasonOf(replaceAt(sample.fullReport, index, c))).toBe('bad_hex');
        expect(reasonOf(sample.fullReport.slice(0, index) + c + sample.fullReport.slice(index))).toBe('bad_hex');
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(anySample, fc.constantFrom('0', 'a', 'F'), (sample, digit) => {
        expect(reasonOf(sample.fullReport + digit)).toBe('bad_hex');
        expect(reasonOf(sample.fullReport.slice(0, -1))).toBe('bad_hex');
        expect(reasonOf(sample.fullReport.slice(2))).toBe('bad_hex');
        expect(reasonOf('0X' + sample.fullReport.slice(2))).toBe('bad_hex');
        expect(reasonOf(' ' + sample.fullReport)).toBe('bad_hex');
        expect(reasonOf(sample.fullReport + ' ')).toBe('bad_hex');
      }),
      { numRuns: 50 },
    );
    for (const input of [undefined, null, 42, 42n, {}, [], '', '0', 'x', '0x0']) expect(reasonOf(input)).toBe('bad_hex');
  });

  it('unknown_version: a feed ID whose first two bytes are not 0x0002..0x000d', () => {
    const unknownId = fc.oneof(fc.constantFrom(0, 1, 14, 15, 0x0100, 0x0103, 0xffff), fc.integer({ min: 14, max: 0xffff }));
    fc.assert(
      fc.property(anySample, unknownId, (sample, id) => {
        const changed = replaceAt(sample.fullReport, fieldAt(0), id.toString(16).padStart(4, '0'));
        expect(reasonOf(changed)).toBe('unknown_version');
      }),
      { numRuns: 300 },
    );
    expect(() => reportVersionOf(hex32(14n << 240n))).toThrow(ReportDecodeError);
  });

  it('feed_id_mismatch and invalid_feed_id: the feedID argument', () => {
    fc.assert(
      fc.property(anySample, bytes32, (sample, other) => {
        fc.pre(other !== sample.values[0]);
        expect(reasonOf(sample.fullReport, other)).toBe('feed_id_mismatch');
        expect(reasonOf(sample.fullReport, (sample.values[0] as string).slice(0, 64))).toBe('invalid_feed_id');
        expect(reasonOf(sample.fullReport, (sample.values[0] as string).slice(2))).toBe('invalid_feed_id');
        expect(reasonOf(sample.fullReport, (sample.values[0] as string) + '00')).toBe('invalid_feed_id');
      }),
      { numRuns: 200 },
    );
    for (const feedID of [null, 1, '', '0x', 'ETH/USD']) expect(reasonOf(fc.sample(anySample, 1)[0]!.fullReport, feedID)).toBe('invalid_feed_id');
  });

  it('out_of_range: non-zero padding bits of a uintN, an int192 that is not sign-extended', () => {
    fc.assert(
      fc.property(anySample, fc.nat(), fc.nat(), fc.constantFrom(...'123456789abcdef'), (sample, pick, where, digit) => {
        const fields = REPORT_SCHEMAS[sample.version];
        const i = 1 + (pick % (fields.length - 1)); // any field but feedId
        const field = fields[i]!;
        const p = fieldAt(i);
        let changed: string;
        if (field.type === 'int192') {
          // Break the sign extension: an upper digit that differs from the sign, or a flipped sign digit.
          const sign = sample.fullReport.charAt(p);
          if (where % 2 === 0) {
            changed = replaceAt(sample.fullReport, p + (where % 16), sign === '0' ? digit : digit === 'f' ? '0' : digit);
          } else {
            const top = Number.parseInt(sample.fullReport.charAt(p + 16), 16) ^ 8;
            changed = replaceAt(sample.fullReport, p + 16, top.toString(16));
          }
        } else {
          const padding = { uint8: 62, uint32: 56, uint64: 48, uint192: 16 }[field.type as 'uint8' | 'uint32' | 'uint64' | 'uint192'];
          changed = replaceAt(sample.fullReport, p + (where % padding), digit);
        }
        const error = attempt(changed);
        expect(error).toBeInstanceOf(ReportDecodeError);
        expect((error as ReportDecodeError).reason).toBe('out_of_range');
        expect((error as ReportDecodeError).field).toBe(field.name);
        expect((error as ReportDecodeError).offset).toBe(256 + 32 * i);
        expect((error as ReportDecodeError).message).toContain(field.name);
      }),
      { numRuns: 800 },
    );
  });

  it('bad_layout: non-canonical offsets, lengths, trailing data', () => {
    fc.assert(
      fc.property(anySample, fc.integer({ min: 1, max: 64 }), (sample, extra) => {
        const s = sample.fullReport;
        const word = (n: number): string => n.toString(16).padStart(64, '0');
        const size = (s.length - 2) / 2;
        expect(reasonOf(s + '00'.repeat(extra))).toBe('bad_layout');
        expect(reasonOf(replaceAt(s, 2 + 64 * 3, word(224 + 32)))).toBe('bad_layout'); // reportBlob offset
        expect(reasonOf(replaceAt(s, 2 + 64 * 4, word(size)))).toBe('bad_layout'); // rawRs offset
        expect(reasonOf(replaceAt(s, 2 + 64 * 5, word(0)))).toBe('bad_layout'); // rawSs offset
        const blobLength = 32 * REPORT_SCHEMAS[sample.version].length;
        expect(reasonOf(replaceAt(s, 2 + 64 * 7, word(blobLength + 32)))).toBe('bad_layout'); // blob longer than the schema
        expect(reasonOf(replaceAt(s, 2 + 64 * 7, word(blobLength - 32)))).toBe('truncated'); // shorter
      }),
      { numRuns: 100 },
    );
  });

  it('errors say which field and where', () => {
    const sample = fc.sample(sampleOf('V3'), { numRuns: 1, seed: 1 })[0]!;
    const changed = replaceAt(sample.fullReport, fieldAt(1), '1');
    const error = attempt(changed) as ReportDecodeError;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ReportDecodeError');
    expect(error.reason).toBe('out_of_range');
    expect(error.field).toBe('validFromTimestamp');
    expect(error.offset).toBe(288);
    expect(error.message).toMatch(/^validFromTimestamp \(byte 288\): .*uint32/);
  });
});

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

describe('reportVersionOf', () => {
  it('reads the version from the first two bytes of the feed ID', () => {
    for (const version of REPORT_VERSIONS) {
      const id = hex32((BigInt(reportVersionId(version)) << 240n) | 0xabcdefn);
      expect(reportVersionOf(id)).toBe(version);
      expect(reportVersionOf(id.toUpperCase().replace('0X', '0x'))).toBe(version);
    }
    expect(reportVersionOf('0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782')).toBe('V3');
  });

  it('refuses malformed and unknown feed IDs', () => {
    expect(() => reportVersionOf('0x0003')).toThrow(expect.objectContaining({ reason: 'invalid_feed_id' }));
    expect(() => reportVersionOf(hex32(1n << 240n))).toThrow(expect.objectContaining({ reason: 'unknown_version' }));
    expect(() => reportVersionOf(hex32(0xffffn << 240n))).toThrow(expect.objectContaining({ reason: 'unknown_version' }));
  });
});

describe('formatScaled', () => {
  it('formats exactly, without floating point', () => {
    expect(formatScaled(0n)).toBe('0');
    expect(formatScaled(0n, 0)).toBe('0');
    expect(formatScaled(123n, 0)).toBe('123');
    expect(formatScaled(-123n, 0)).toBe('-123');
    expect(formatScaled(3000n * 10n ** 18n)).toBe('3000');
    expect(formatScaled(3000123400000000000000n)).toBe('3000.1234');
    expect(formatScaled(5n)).toBe('0.000000000000000005');
    expect(formatScaled(-5n)).toBe('-0.000000000000000005');
    expect(formatScaled(-1500000000000000000n)).toBe('-1.5');
    expect(formatScaled(123456n, 3)).toBe('123.456');
    expect(formatScaled(100n, 2)).toBe('1');
    expect(formatScaled(1n, 1)).toBe('0.1');
    expect(formatScaled(12n, 4)).toBe('0.0012');
    expect(formatScaled(-(1n << 191n))).toBe('-3138550867693340381917894711603833208051.177722232017256448');
    expect(formatScaled(2n ** 53n + 1n, 0)).toBe('9007199254740993');
  });

  it("equals viem's formatUnits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 200n), max: 1n << 200n }), fc.integer({ min: 0, max: 40 }), (value, decimals) => {
        expect(formatScaled(value, decimals)).toBe(formatUnits(value, decimals));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a decimals count that is not a non-negative integer', () => {
    for (const decimals of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => formatScaled(1n, decimals)).toThrow(RangeError);
  });
});

describe('isReportExpired', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is true only after expiresAt', () => {
    expect(isReportExpired({ expiresAt: 1_700_000_000 }, 1_699_999_999)).toBe(false);
    expect(isReportExpired({ expiresAt: 1_700_000_000 }, 1_700_000_000)).toBe(false);
    expect(isReportExpired({ expiresAt: 1_700_000_000 }, 1_700_000_001)).toBe(true);
  });

  it('defaults to the current time', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(1_700_000_000_500));
    expect(isReportExpired({ expiresAt: 1_700_000_000 })).toBe(false);
    vi.setSystemTime(new Date(1_700_000_001_000));
    expect(isReportExpired({ expiresAt: 1_700_000_000 })).toBe(true);
  });

  it('takes a decoded report', () => {
    const sample = fc.sample(sampleOf('V3'), { numRuns: 1, seed: 3 })[0]!;
    const report = decodeReport(sample.fullReport);
    expect(isReportExpired(report, report.expiresAt + 1)).toBe(true);
  });
});

describe('types', () => {
  it('MarketStatus and Ripcord are typed constants', () => {
    expect(MarketStatus).toStrictEqual({ Unknown: 0, Closed: 1, Open: 2 });
    expect(Ripcord).toStrictEqual({ Normal: 0, Paused: 1 });
    expectTypeOf<MarketStatus>().toEqualTypeOf<0 | 1 | 2>();
    expectTypeOf<Ripcord>().toEqualTypeOf<0 | 1>();
  });

  it('DecodedReport narrows on version', () => {
    const sample = fc.sample(sampleOf('V4'), { numRuns: 1, seed: 5 })[0]!;
    const report: DecodedReport = decodeReport(sample.fullReport);
    switch (report.version) {
      case 'V4':
        expectTypeOf(report.marketStatus).toEqualTypeOf<MarketStatus>();
        expectTypeOf(report.price).toEqualTypeOf<bigint>();
        expect([MarketStatus.Unknown, MarketStatus.Closed, MarketStatus.Open]).toContain(report.marketStatus);
        break;
      case 'V9':
        expectTypeOf(report.ripcord).toEqualTypeOf<Ripcord>();
        expectTypeOf(report.navDate).toEqualTypeOf<bigint>();
        break;
      case 'V3':
        expectTypeOf(report.bid).toEqualTypeOf<bigint>();
        break;
      default:
        break;
    }
    expect(report.version).toBe('V4');
    expectTypeOf(report.expiresAt).toEqualTypeOf<number>();
    expectTypeOf(report.reportContext).toEqualTypeOf<[string, string, string]>();
  });
});
