/**
 * The decoder's fast path: decodes a canonical, lowercase `fullReport`, or
 * returns `undefined` for `diagnoseReport` to say what is wrong with it. It
 * makes every check the slow path makes; it only gives up the error message.
 *
 * The string is copied once, as ASCII bytes, and scanned ({@link copyAndScan}:
 * WebAssembly SIMD where the runtime allows it): every digit must be
 * lowercase hex, and the zero padding of every uintN and the leading zeros of
 * every offset and length must be '0'. The copy is then read four hex digits
 * at a time as 32-bit words: character i is at byte i + 2, so the 64-digit
 * ABI word at byte offset B of the report is the 16 words from 1 + B / 2.
 *
 * - Checks ({@link checkFixedValues}): the canonical offsets' and lengths'
 *   values and the sign extension of every int192.
 * - Values: eight hex digits become a number in a dozen integer operations;
 *   bigints are made from 64-bit limbs through a BigUint64Array (one
 *   allocation per limb, two limbs joined by a shift and an OR) instead of
 *   parsing `'0x' + slice`, which costs 3–5 times more.
 *
 * Performance notes, each measured on Node 20 (V8 11.3): small helpers called
 * once per word are slower than written-out code, because TurboFan stops
 * inlining after about 900 bytes of bytecode per function;
 * `String.prototype.startsWith(x, position)` and per-character `charCodeAt`
 * loops cost 2–3 ns per character, so neither is used on the hot path.
 * bench/README.md ("Decode") has the stage profile and what was tried.
 */
import type { DecodedReport, MarketStatus, Ripcord } from './decoded.js';
import { copyAndScan, LITTLE_ENDIAN, Z4, type ZeroPrefixes } from './scan.js';
import { BLOB_DATA, feedIdArgumentError, HEAD_BYTES, marketStatusError, ripcordError } from './diagnose.js';
import {
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  reportVersionId,
  type ReportField,
  type ReportFieldType,
  type ReportVersion,
} from './layouts.js';

/** 'ffff' as a word, whatever the byte order. */
const F4 = 0x66666666;
const ENCODER = new TextEncoder();

/** String index of the blob's first field (`feedId`). */
const F0 = 2 + 2 * BLOB_DATA;
/** The shortest string the fast path looks at: head, blob length, feedId. */
const MIN_LENGTH = F0 + 64;
/** Index in the word buffer of the ABI word at byte `offset`. */
const wordIndex = (offset: number): number => 1 + offset / 2;
/** Word index of blob field 0 (`feedId`); field i is 16 words further per field. */
const W0 = wordIndex(BLOB_DATA);

// ---------------------------------------------------------------------------
// Checks of the fixed words
// ---------------------------------------------------------------------------

/** The first character (code) of a word. */
const firstChar = (x: number): number => (LITTLE_ENDIAN ? x & 0xff : x >>> 24);

/**
 * Whether the fixed digits the scan does not cover are as they must be: the
 * last two words of the blob offset, the rawRs offset and the blob length
 * (their leading zeros are scanned), and the sign extension of every int192:
 * '0000' under a sign digit below 8, 'ffff' over one from 8 up.
 */
function checkFixedValues(w: Uint32Array, plan: Plan): boolean {
  let diff =
    (w[63]! ^ BLOB_OFFSET_LOW[0]!) | (w[64]! ^ BLOB_OFFSET_LOW[1]!) |
    (w[79]! ^ plan.rsOffsetLow1) | (w[80]! ^ plan.rsOffsetLow2) |
    (w[127]! ^ plan.blobLengthLow1) | (w[128]! ^ plan.blobLengthLow2);
  const signed = plan.int192Words;
  for (let i = 0; i < signed.length; i++) {
    const j = signed[i]!;
    const pad = firstChar(w[j + 4]!) < 0x38 ? Z4 : F4;
    diff |= (w[j]! ^ pad) | (w[j + 1]! ^ pad) | (w[j + 2]! ^ pad) | (w[j + 3]! ^ pad);
  }
  return diff === 0;
}

// ---------------------------------------------------------------------------
// Reading values
// ---------------------------------------------------------------------------

/** A word with its bytes reversed (on big-endian engines, so that the first character is the low byte). */
const swap = (x: number): number => ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);

/**
 * The eight (checked) hex digits of words j and j + 1 as a number. Each
 * byte's digit value is its low nibble, plus 9 for letters (bit 6); the
 * nibbles are then packed, the first character most significant.
 */
function hex8(w: Uint32Array, j: number): number {
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
function diff4(w: Uint32Array, j: number, pattern: number): number {
  return (w[j]! ^ pattern) | (w[j + 1]! ^ pattern) | (w[j + 2]! ^ pattern) | (w[j + 3]! ^ pattern);
}

// Readers of a checked field whose ABI word starts at word j.
const u32 = (w: Uint32Array, j: number): number => hex8(w, j + 14);

function u64(w: Uint32Array, j: number): bigint {
  setLimb(w, j + 12, 0);
  return U64[0]!;
}

/** A uint192, or an int192 with a sign digit below 8. */
function u192(w: Uint32Array, j: number, s: string): bigint {
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

function i192(w: Uint32Array, j: number, s: string): bigint {
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

function marketStatus(j: number, value: number): MarketStatus {
  if (value === 0 || value === 1 || value === 2) return value;
  throw marketStatusError(value, 2 * (j - 1));
}

function ripcord(j: number, value: number): Ripcord {
  if (value === 0 || value === 1) return value;
  throw ripcordError(value, 2 * (j - 1));
}

// ---------------------------------------------------------------------------
// Per-version plans and builders
// ---------------------------------------------------------------------------

/** Builds a version's report from the checked words and the parts outside the blob. */
type Builder = (
  w: Uint32Array,
  s: string,
  feedId: string,
  reportContext: [string, string, string],
  rawRs: string[],
  rawSs: string[],
  rawVs: string,
) => DecodedReport;

/** What the fast path checks and how it reads, per version; built once. */
interface Plan {
  /** Byte offset of `rawRs` (its length word). */
  readonly rsOffset: number;
  /** Last two words of the canonical rawRs offset and of the blob length. */
  readonly rsOffsetLow1: number;
  readonly rsOffsetLow2: number;
  readonly blobLengthLow1: number;
  readonly blobLengthLow2: number;
  /** Leading zeros of each ABI word from the head to rawRs's length, for the scan. */
  readonly zeros: ZeroPrefixes;
  /** Word index of every int192 field. */
  readonly int192Words: Uint16Array;
  readonly build: Builder;
}

/** The last two words of the ABI word holding `value`. */
function lowWords(value: number): [number, number] {
  const words = new Uint32Array(16);
  ENCODER.encodeInto(value.toString(16).padStart(64, '0'), new Uint8Array(words.buffer));
  return [words[14]!, words[15]!];
}

/** Leading zero digits of an ABI word holding each type (int192: sign extension, checked apart). */
const ZERO_DIGITS: Record<ReportFieldType, number> = { bytes32: 0, uint8: 62, uint32: 56, uint64: 48, uint192: 16, int192: 0 };
/** The head's words: reportContext (3), the offsets of reportBlob, rawRs and rawSs, rawVs, the blob length. */
const HEAD_ZERO_DIGITS = [0, 0, 0, 56, 56, 56, 0, 56];
/** An offset's or length's leading zero digits (the value sits in the last eight). */
const LENGTH_ZERO_DIGITS = 56;

// Blob field i starts at word W0 + 16 * i; the version's own fields from B.
const B = W0 + 96;
// Property order: version, feedId, the common fields, the version's fields, the outer parts.
const BUILDERS: { readonly [V in ReportVersion]: Builder } = {
  V2: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V2', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    price: i192(w, B, s),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V3: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V3', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    price: i192(w, B, s),
    bid: i192(w, B + 16, s),
    ask: i192(w, B + 32, s),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V4: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V4', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    price: i192(w, B, s),
    marketStatus: marketStatus(B + 16, u32(w, B + 16)),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V5: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V5', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    rate: i192(w, B, s),
    timestamp: u32(w, B + 16),
    duration: u32(w, B + 32),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V6: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V6', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    price: i192(w, B, s),
    price2: i192(w, B + 16, s),
    price3: i192(w, B + 32, s),
    price4: i192(w, B + 48, s),
    price5: i192(w, B + 64, s),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V7: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V7', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    exchangeRate: i192(w, B, s),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V8: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V8', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    lastUpdateTimestamp: u64(w, B),
    midPrice: i192(w, B + 16, s),
    marketStatus: marketStatus(B + 32, u32(w, B + 32)),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V9: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V9', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    navPerShare: i192(w, B, s),
    navDate: u64(w, B + 16),
    aum: i192(w, B + 32, s),
    ripcord: ripcord(B + 48, u32(w, B + 48)),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V10: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V10', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    lastUpdateTimestamp: u64(w, B),
    price: i192(w, B + 16, s),
    marketStatus: marketStatus(B + 32, u32(w, B + 32)),
    currentMultiplier: i192(w, B + 48, s),
    newMultiplier: i192(w, B + 64, s),
    activationDateTime: u32(w, B + 80),
    tokenizedPrice: i192(w, B + 96, s),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V11: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V11', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    mid: i192(w, B, s),
    lastSeenTimestampNs: u64(w, B + 16),
    bid: i192(w, B + 32, s),
    bidVolume: i192(w, B + 48, s),
    ask: i192(w, B + 64, s),
    askVolume: i192(w, B + 80, s),
    lastTradedPrice: i192(w, B + 96, s),
    marketStatus: u32(w, B + 112),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V12: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V12', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    navPerShare: i192(w, B, s),
    nextNavPerShare: i192(w, B + 16, s),
    navDate: u64(w, B + 32),
    ripcord: ripcord(B + 48, u32(w, B + 48)),
    reportContext, rawRs, rawSs, rawVs,
  }),
  V13: (w, s, feedId, reportContext, rawRs, rawSs, rawVs) => ({
    version: 'V13', feedId,
    validFromTimestamp: u32(w, W0 + 16), observationsTimestamp: u32(w, W0 + 32),
    nativeFee: u192(w, W0 + 48, s), linkFee: u192(w, W0 + 64, s), expiresAt: u32(w, W0 + 80),
    bestAsk: i192(w, B, s),
    bestBid: i192(w, B + 16, s),
    askVolume: u64(w, B + 32),
    bidVolume: u64(w, B + 48),
    lastTradedPrice: i192(w, B + 64, s),
    reportContext, rawRs, rawSs, rawVs,
  }),
};

function planOf(version: ReportVersion, id: number): Plan {
  const fields: readonly ReportField[] = REPORT_SCHEMAS[version];
  const blobLength = 32 * fields.length;
  const rsOffset = BLOB_DATA + blobLength;
  const [rsOffsetLow1, rsOffsetLow2] = lowWords(rsOffset);
  const [blobLengthLow1, blobLengthLow2] = lowWords(blobLength);
  const counts = [...HEAD_ZERO_DIGITS, ...fields.map((field) => ZERO_DIGITS[field.type]), LENGTH_ZERO_DIGITS];
  const int192Words = fields.flatMap((field, i) => (field.type === 'int192' ? [W0 + 16 * i] : []));
  return {
    rsOffset,
    rsOffsetLow1,
    rsOffsetLow2,
    blobLengthLow1,
    blobLengthLow2,
    zeros: { id, counts: Uint8Array.from(counts) },
    int192Words: Uint16Array.from(int192Words),
    build: BUILDERS[version],
  };
}

/** Plans by the character code of the feed ID's fourth version digit ('2' to 'd'). */
const PLANS: (Plan | undefined)[] = [];
REPORT_VERSIONS.forEach((version, id) => {
  PLANS[reportVersionId(version).toString(16).charCodeAt(0)] = planOf(version, id);
});

/** Word index of the offset of rawSs. */
const SS_OFFSET_WORD = wordIndex(160);
const BLOB_OFFSET_LOW = lowWords(HEAD_BYTES);

/** Decode a lowercase canonical report, or return undefined for `diagnoseReport` to explain why not. */
export function decodeFast(s: string, feedID: string | undefined): DecodedReport | undefined {
  if (typeof s !== 'string') return undefined;
  const n = s.length;
  if (n < MIN_LENGTH || ((n - 2) & 63) !== 0) return undefined;
  // Version digits of feedId: '000' then one digit.
  if (s.charCodeAt(F0) !== 48 || s.charCodeAt(F0 + 1) !== 48 || s.charCodeAt(F0 + 2) !== 48) return undefined;
  const plan = PLANS[s.charCodeAt(F0 + 3)];
  if (plan === undefined) return undefined;
  const rsOffset = plan.rsOffset;
  const rsAt = 2 + 2 * rsOffset;
  if (n < rsAt + 64 || s.charCodeAt(0) !== 48 || s.charCodeAt(1) !== 120) return undefined;
  const w = copyAndScan(s, n, plan.zeros);
  if (w === undefined || !checkFixedValues(w, plan)) return undefined;

  const rsWord = wordIndex(rsOffset);

  // The shape of the signature arrays.
  const rsCount = hex8(w, rsWord + 14);
  const ssOffset = rsOffset + 32 + 32 * rsCount;
  const ssAt = 2 + 2 * ssOffset;
  if (hex8(w, SS_OFFSET_WORD + 14) !== ssOffset || ssAt + 64 > n) return undefined;
  const ssWord = wordIndex(ssOffset);
  const ssCount = hex8(w, ssWord + 14);
  if ((diff4(w, ssWord, Z4) | diff4(w, ssWord + 4, Z4) | diff4(w, ssWord + 8, Z4) | (w[ssWord + 12]! ^ Z4) | (w[ssWord + 13]! ^ Z4)) !== 0) return undefined;
  if (n !== ssAt + 64 + 64 * ssCount) return undefined;

  let feedId: string;
  if (feedID === undefined) feedId = '0x' + s.slice(F0, F0 + 64);
  else if (
    typeof feedID === 'string' &&
    feedID.length === 66 &&
    feedID.charCodeAt(0) === 48 &&
    feedID.charCodeAt(1) === 120 &&
    feedID.slice(2) === s.slice(F0, F0 + 64) // (startsWith(…, F0) is many times slower)
  ) {
    feedId = feedID; // the same lowercase digits: reuse the caller's flat string
  } else {
    feedId = '0x' + s.slice(F0, F0 + 64);
    if (feedIdArgumentError(feedID, feedId) !== null) return undefined;
  }
  const rawRs = new Array<string>(rsCount);
  for (let i = 0, p = rsAt + 64; i < rsCount; i++, p += 64) rawRs[i] = '0x' + s.slice(p, p + 64);
  const rawSs = new Array<string>(ssCount);
  for (let i = 0, p = ssAt + 64; i < ssCount; i++, p += 64) rawSs[i] = '0x' + s.slice(p, p + 64);
  return plan.build(
    w,
    s,
    feedId,
    [s.slice(0, 66), '0x' + s.slice(66, 130), '0x' + s.slice(130, 194)],
    rawRs,
    rawSs,
    '0x' + s.slice(386, 450),
  );
}
