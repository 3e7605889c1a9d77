// One report of every schema version (V2–V13), encoded and decoded by viem,
// the reference ABI library, here in Node: the runtimes get the reports and
// viem's decodings as JSON and need no viem of their own.
//
// Values come from a fixed seed and cover each type's edges: negative and
// two-limb int192s, uint64s above 2^53, uint192s above 2^64, every bit of a
// bytes32.
import { decodeAbiParameters, encodeAbiParameters, type AbiParameter, type Hex } from 'viem';
import {
  FULL_REPORT_ABI,
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  reportBlobAbi,
  reportVersionId,
  type ReportField,
  type ReportVersion,
} from '../../../src/reports/index.js';
import { canonical } from './canonical.mjs';

export interface ReportFixture {
  version: ReportVersion;
  feedID: Hex;
  fullReport: Hex;
  validFromTimestamp: number;
  observationsTimestamp: number;
  /** viem's decoding in the decoder's shape, as `canonical` writes it. */
  expected: string;
}

/** A deterministic stream of 64-bit values (SplitMix64). */
function randomBits(seed: bigint): () => bigint {
  let state = seed;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  };
}

function bitsOf(next: () => bigint, bits: number): bigint {
  let value = 0n;
  for (let have = 0; have < bits; have += 64) value = (value << 64n) | next();
  return value & ((1n << BigInt(bits)) - 1n);
}

const hex32 = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;

function valueOf(field: ReportField, next: () => bigint, index: number): Hex | number | bigint {
  if (field.domain === 'marketStatus') return index % 3;
  if (field.domain === 'ripcord') return index % 2;
  switch (field.type) {
    case 'bytes32':
      return hex32(bitsOf(next, 256));
    case 'uint8':
      return Number(bitsOf(next, 8));
    case 'uint32':
      return Number(bitsOf(next, 32));
    case 'uint64':
      return bitsOf(next, 64) | (1n << 60n);
    case 'uint192':
      return bitsOf(next, 192) | (1n << 100n);
    case 'int192': {
      // Alternating signs, magnitudes above 2^64 (two limbs).
      const magnitude = bitsOf(next, 190) | (1n << 80n);
      return index % 2 === 0 ? -magnitude : magnitude;
    }
  }
}

/** viem's decoding of a full report, in the shape `decodeReport` returns. */
function viemDecoding(version: ReportVersion, fullReport: Hex): Record<string, unknown> {
  const [reportContext, blob, rawRs, rawSs, rawVs] = decodeAbiParameters(FULL_REPORT_ABI, fullReport);
  const values = decodeAbiParameters(reportBlobAbi(version) as readonly AbiParameter[], blob);
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
  out.reportContext = reportContext.map((h) => h.toLowerCase());
  out.rawRs = rawRs.map((h) => h.toLowerCase());
  out.rawSs = rawSs.map((h) => h.toLowerCase());
  out.rawVs = rawVs.toLowerCase();
  return out;
}

export function reportFixtures(seed = 20260730n): ReportFixture[] {
  const next = randomBits(seed);
  return REPORT_VERSIONS.map((version, v) => {
    const [, ...rest] = REPORT_SCHEMAS[version];
    const feedID = hex32((BigInt(reportVersionId(version)) << 240n) | bitsOf(next, 240));
    const values = [feedID, ...rest.map((field, i) => valueOf(field, next, v + i))];
    const blob = encodeAbiParameters(reportBlobAbi(version) as readonly AbiParameter[], values as readonly unknown[]);
    const signatures = 1 + (v % 3);
    const words = (n: number) => Array.from({ length: n }, () => hex32(bitsOf(next, 256)));
    const fullReport = encodeAbiParameters(FULL_REPORT_ABI, [
      words(3) as [Hex, Hex, Hex],
      blob,
      words(signatures),
      words(signatures),
      hex32(bitsOf(next, 256)),
    ]);
    const decoded = viemDecoding(version, fullReport);
    return {
      version,
      feedID,
      fullReport,
      validFromTimestamp: decoded.validFromTimestamp as number,
      observationsTimestamp: decoded.observationsTimestamp as number,
      expected: canonical(decoded),
    };
  });
}
