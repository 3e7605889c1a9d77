/**
 * Reading a report's checked words: what the generated builders
 * (`generated/reports/builders.ts`, one per schema version, made from
 * `layouts.ts`) call for each field, and the fast path (`fast.ts`) for its
 * own checks. The words are the ASCII copy of the report that `copyAndScan`
 * made and checked, four hex digits per 32-bit word: the 64-digit ABI word
 * at byte offset B of the report is the 16 words from `1 + B / 2`.
 *
 * Eight hex digits become a number in a dozen integer operations; bigints
 * are made from 64-bit limbs through a BigUint64Array (one allocation per
 * limb, two limbs joined by a shift and an OR) instead of parsing
 * `'0x' + slice`, which costs 3–5 times more.
 */
import type { DecodedReport, MarketStatus, Ripcord } from './decoded.js';
import { BLOB_DATA, marketStatusError, ripcordError } from './diagnose.js';
import { LITTLE_ENDIAN, Z4 } from './scan.js';

/** 'ffff' as a word, whatever the byte order. */
export const F4 = 0x66666666;

/** Index in the word buffer of the ABI word at byte `offset`. */
export const wordIndex = (offset: number): number => 1 + offset / 2;
/** Word index of blob field 0 (`feedId`); field i is 16 words further per field. */
export const W0 = wordIndex(BLOB_DATA);

/** Builds a version's report from the checked words and the parts outside the blob. */
export type ReportBuilder = (
  w: Uint32Array,
  s: string,
  feedId: string,
  reportContext: [string, string, string],
  rawRs: string[],
  rawSs: string[],
  rawVs: string,
) => DecodedReport;

/** The first character (code) of a word. */
export const firstChar = (x: number): number => (LITTLE_ENDIAN ? x & 0xff : x >>> 24);

/** A word with its bytes reversed (on big-endian engines, so that the first character is the low byte). */
const swap = (x: number): number => ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);

/**
 * The eight (checked) hex digits of words j and j + 1 as a number. Each
 * byte's digit value is its low nibble, plus 9 for letters (bit 6); the
 * nibbles are then packed, the first character most significant.
 */
export function hex8(w: Uint32Array, j: number): number {
  let x = w[j]!;
  let y = w[j + 1]!;
  if (!LITTLE_ENDIAN) {
    x = swap(x);
    y = swap(y);
  }
  x = (x & 0x0f0f0f0f) + 9 * ((x >>> 6) & 0x01010101);
  y = (y & 0x0f0f0f0f) + 9 * ((y >>> 6) & 0x01010101);
  x = ((x << 4) | (x >>> 8)) & 0x00ff00ff;
  y = ((y << 4) | (y >>> 8)) & 0x00ff00ff;
  return (((x & 0xff) << 8) | (x >>> 16)) * 65536 + (((y & 0xff) << 8) | (y >>> 16));
}

// 64-bit limbs become bigints through typed arrays: one allocation, no parsing.
const LIMBS = new ArrayBuffer(16);
const HALVES = new Uint32Array(LIMBS);
const U64 = new BigUint64Array(LIMBS);
const I64 = new BigInt64Array(LIMBS);
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

/** Put the 16 hex digits of words j to j + 3 in limb `slot` (0 or 1). */
function setLimb(w: Uint32Array, j: number, slot: number): void {
  HALVES[2 * slot + HI] = hex8(w, j);
  HALVES[2 * slot + LO] = hex8(w, j + 2);
}

/** Non-zero unless the four words from j are all `pattern`. */
export function diff4(w: Uint32Array, j: number, pattern: number): number {
  return (w[j]! ^ pattern) | (w[j + 1]! ^ pattern) | (w[j + 2]! ^ pattern) | (w[j + 3]! ^ pattern);
}

// Readers of a checked field whose ABI word starts at word j.

/** A uint8 or uint32 (its padding checked by the scan). */
export const u32 = (w: Uint32Array, j: number): number => hex8(w, j + 14);

/** A uint64 (its padding checked by the scan). */
export function u64(w: Uint32Array, j: number): bigint {
  setLimb(w, j + 12, 0);
  return U64[0]!;
}

/** A uint192, or an int192 with a sign digit below 8. */
export function u192(w: Uint32Array, j: number, s: string): bigint {
  if (diff4(w, j + 4, Z4) === 0) {
    setLimb(w, j + 12, 0);
    if (diff4(w, j + 8, Z4) === 0) return U64[0]!;
    // Below 2^96 (prices with 18 decimals), the high half of the middle limb is zero.
    HALVES[2 + HI] = ((w[j + 8]! ^ Z4) | (w[j + 9]! ^ Z4)) === 0 ? 0 : hex8(w, j + 8);
    HALVES[2 + LO] = hex8(w, j + 10);
    return (U64[1]! << 64n) | U64[0]!;
  }
  return wide(s, j, false);
}

/** An int192 (its sign extension checked by the fast path). */
export function i192(w: Uint32Array, j: number, s: string): bigint {
  if (firstChar(w[j + 4]!) < 0x38) return u192(w, j, s);
  if (diff4(w, j + 4, F4) === 0) {
    setLimb(w, j + 12, 0);
    if (diff4(w, j + 8, F4) === 0 && firstChar(w[j + 12]!) >= 0x38) return I64[0]!;
    if (firstChar(w[j + 8]!) >= 0x38) {
      setLimb(w, j + 8, 1);
      return (I64[1]! << 64n) | U64[0]!;
    }
  }
  return wide(s, j, true);
}

/** A value beyond 128 bits (signed: beyond -2^127), from the string. */
function wide(s: string, j: number, signed: boolean): bigint {
  const p = 4 * j - 2;
  const value = BigInt('0x' + s.slice(p + 16, p + 64));
  return signed ? BigInt.asIntN(192, value) : value;
}

/** A `marketStatus` read at word j: 0, 1 or 2, or the decoder's error naming its offset. */
export function marketStatus(j: number, value: number): MarketStatus {
  if (value === 0 || value === 1 || value === 2) return value;
  throw marketStatusError(value, 2 * (j - 1));
}

/** A `ripcord` read at word j: 0 or 1, or the decoder's error naming its offset. */
export function ripcord(j: number, value: number): Ripcord {
  if (value === 0 || value === 1) return value;
  throw ripcordError(value, 2 * (j - 1));
}
