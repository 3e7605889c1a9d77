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
 * - Values: each version's builder (`generated/reports/builders.ts`, written
 *   by `npm run generate` from the version's layout in `layouts.ts`) reads
 *   every field of the blob with the reader of its type (`read-words.ts`)
 *   into one object literal; nothing here is written per version.
 *
 * Performance notes, each measured on Node 20 (V8 11.3): small helpers called
 * once per word are slower than written-out code, because TurboFan stops
 * inlining after about 900 bytes of bytecode per function;
 * `String.prototype.startsWith(x, position)` and per-character `charCodeAt`
 * loops cost 2–3 ns per character, so neither is used on the hot path.
 * The decode benchmark's notes have the stage profile and what was tried.
 */
import { BUILDERS } from '../../generated/reports/builders.js';
import type { DecodedReport } from './decoded.js';
import { BLOB_DATA, feedIdArgumentError, HEAD_BYTES } from './diagnose.js';
import { REPORT_SCHEMAS, REPORT_VERSIONS, reportVersionId, type ReportField, type ReportFieldType, type ReportVersion } from './layouts.js';
import { diff4, F4, firstChar, hex8, W0, wordIndex, type ReportBuilder } from './read-words.js';
import { copyAndScan, Z4, type ZeroPrefixes } from './scan.js';

const ENCODER = new TextEncoder();

/** String index of the blob's first field (`feedId`). */
const F0 = 2 + 2 * BLOB_DATA;
/** The shortest string the fast path looks at: head, blob length, feedId. */
const MIN_LENGTH = F0 + 64;

// ---------------------------------------------------------------------------
// Checks of the fixed words
// ---------------------------------------------------------------------------

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
// Per-version plans
// ---------------------------------------------------------------------------

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
  /** The version's builder, generated from its layout (generated/reports/builders.ts). */
  readonly build: ReportBuilder;
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
