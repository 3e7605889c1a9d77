/**
 * Decoder for Data Streams `fullReport` blobs, every schema version (V2 to V13).
 *
 * The layouts are fixed (see `report-schemas.ts`): the outer tuple
 * `(bytes32[3] reportContext, bytes reportBlob, bytes32[] rawRs, bytes32[] rawSs, bytes32 rawVs)`
 * and, inside `reportBlob`, one static 32-byte word per field. So the decoder
 * reads the words straight out of the hex string, with no generic ABI
 * decoder, while making every check a strict ABI decoder makes:
 *
 * - the string is `0x` and an even number of hex digits (either case);
 * - the offsets and lengths of the outer tuple are those of the canonical
 *   encoding (the only one the service produces), nothing is missing and
 *   nothing follows the last part;
 * - the padding bits of every `uintN` word are zero and every `int192` word is
 *   sign-extended;
 * - `marketStatus` (V4, V8, V10) and `ripcord` (V9, V12) are in their domain,
 *   as the vendor's decoder requires.
 *
 * Anything else throws a {@link ReportDecodeError}, and nothing else is thrown.
 */
import { ReportDecodeError } from './report-decode-error.js';
import {
  BLOB_DATA,
  diagnoseReport,
  feedIdArgumentError,
  HEAD_BYTES,
  marketStatusError,
  ripcordError,
  unknownVersionError,
} from './report-diagnose.js';
import {
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  reportVersionId,
  type ReportFieldType,
  type ReportVersion,
} from './report-schemas.js';

export { ReportDecodeError, type ReportDecodeErrorReason } from './report-decode-error.js';
export {
  COMMON_REPORT_FIELDS,
  FULL_REPORT_ABI,
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  reportBlobAbi,
  reportVersionId,
  type ReportField,
  type ReportFieldType,
  type ReportVersion,
} from './report-schemas.js';

// ---------------------------------------------------------------------------
// Public constants and types
// ---------------------------------------------------------------------------

/** `marketStatus` of V4, V8 and V10 reports. */
export const MarketStatus = { Unknown: 0, Closed: 1, Open: 2 } as const;
/** A valid `marketStatus` value: 0 (unknown), 1 (closed) or 2 (open). */
export type MarketStatus = (typeof MarketStatus)[keyof typeof MarketStatus];

/** `ripcord` of V9 and V12 reports: when `Paused`, the data must not be consumed. */
export const Ripcord = { Normal: 0, Paused: 1 } as const;
/** A valid `ripcord` value: 0 (normal) or 1 (paused). */
export type Ripcord = (typeof Ripcord)[keyof typeof Ripcord];

/** Fields every decoded report has, whatever its version. */
export interface DecodedReportBase {
  /** Schema version, from the first two bytes of `feedId`. */
  version: ReportVersion;
  /** The report's own feed ID, lowercase `0x`-hex, 32 bytes. */
  feedId: string;
  /** Earliest time (Unix seconds) the report applies to. */
  validFromTimestamp: number;
  /** Time (Unix seconds) of the observations the report carries. */
  observationsTimestamp: number;
  /** Verification fee in the chain's native token (wei-like units). */
  nativeFee: bigint;
  /** Verification fee in LINK (juels). */
  linkFee: bigint;
  /** Time (Unix seconds) after which the report can no longer be verified. */
  expiresAt: number;
  /** The three 32-byte words of the report context (config digest, epoch and round, extra hash). */
  reportContext: [string, string, string];
  /** `r` halves of the signatures, 32-byte `0x`-hex each. */
  rawRs: string[];
  /** `s` halves of the signatures, 32-byte `0x`-hex each. */
  rawSs: string[];
  /** Packed `v` bytes of the signatures, 32-byte `0x`-hex. */
  rawVs: string;
}

export interface DecodedReportV2 extends DecodedReportBase {
  version: 'V2';
  price: bigint;
}

/** Crypto streams: benchmark price, bid and ask. */
export interface DecodedReportV3 extends DecodedReportBase {
  version: 'V3';
  price: bigint;
  bid: bigint;
  ask: bigint;
}

/** Real-world assets: price and market status. */
export interface DecodedReportV4 extends DecodedReportBase {
  version: 'V4';
  price: bigint;
  marketStatus: MarketStatus;
}

/** Interest rate with its observation time and duration. */
export interface DecodedReportV5 extends DecodedReportBase {
  version: 'V5';
  rate: bigint;
  timestamp: number;
  duration: number;
}

/** Five prices in one report. */
export interface DecodedReportV6 extends DecodedReportBase {
  version: 'V6';
  price: bigint;
  price2: bigint;
  price3: bigint;
  price4: bigint;
  price5: bigint;
}

/** Exchange rate. */
export interface DecodedReportV7 extends DecodedReportBase {
  version: 'V7';
  exchangeRate: bigint;
}

/** Non-OTC real-world assets. */
export interface DecodedReportV8 extends DecodedReportBase {
  version: 'V8';
  lastUpdateTimestamp: bigint;
  midPrice: bigint;
  marketStatus: MarketStatus;
}

/** Net asset value. */
export interface DecodedReportV9 extends DecodedReportBase {
  version: 'V9';
  navPerShare: bigint;
  navDate: bigint;
  aum: bigint;
  ripcord: Ripcord;
}

/** Tokenized equity. */
export interface DecodedReportV10 extends DecodedReportBase {
  version: 'V10';
  lastUpdateTimestamp: bigint;
  price: bigint;
  marketStatus: MarketStatus;
  currentMultiplier: bigint;
  newMultiplier: bigint;
  activationDateTime: number;
  tokenizedPrice: bigint;
}

/**
 * Order book top and last trade. Its `marketStatus` is a plain `uint32`: the
 * vendor does not restrict it to the V4/V8/V10 domain, and neither does this decoder.
 */
export interface DecodedReportV11 extends DecodedReportBase {
  version: 'V11';
  mid: bigint;
  lastSeenTimestampNs: bigint;
  bid: bigint;
  bidVolume: bigint;
  ask: bigint;
  askVolume: bigint;
  lastTradedPrice: bigint;
  marketStatus: number;
}

/** Net asset value with the next one. */
export interface DecodedReportV12 extends DecodedReportBase {
  version: 'V12';
  navPerShare: bigint;
  nextNavPerShare: bigint;
  navDate: bigint;
  ripcord: Ripcord;
}

/** Best bid and ask with volumes, and last traded price. */
export interface DecodedReportV13 extends DecodedReportBase {
  version: 'V13';
  bestAsk: bigint;
  bestBid: bigint;
  askVolume: bigint;
  bidVolume: bigint;
  lastTradedPrice: bigint;
}

/** A decoded report: switch on `version` to reach the version's fields. */
export type DecodedReport =
  | DecodedReportV2
  | DecodedReportV3
  | DecodedReportV4
  | DecodedReportV5
  | DecodedReportV6
  | DecodedReportV7
  | DecodedReportV8
  | DecodedReportV9
  | DecodedReportV10
  | DecodedReportV11
  | DecodedReportV12
  | DecodedReportV13;

/** The decoded report type of one version, e.g. `DecodedReportOf<'V3'>`. */
export type DecodedReportOf<V extends ReportVersion> = Extract<DecodedReport, { version: V }>;

// ---------------------------------------------------------------------------
// Fast path. One regular expression per version, generated from the layout
// table, checks in a single pass everything about the head and the blob that
// does not depend on the number of signatures: every character is a
// lowercase hex digit, the offsets and lengths are the canonical ones, the
// padding bits of every uintN are zero and every int192 is sign-extended.
// Fully unrolled (no counted loops), V8 compiles it to straight-line native
// code that checks a V3 report faster than `/^0x[0-9a-f]*$/` scans it. A
// second expression checks the signature arrays. The values are then read
// without further checks. Whatever the fast path refuses goes to
// `diagnoseReport`, which throws the precise error.
// ---------------------------------------------------------------------------

const HEX_DIGIT = '[0-9a-f]';
const hexDigits = (n: number): string => HEX_DIGIT.repeat(n);
const zeros = (n: number): string => '0'.repeat(n);
const word = (value: number): string => value.toString(16).padStart(64, '0');

const FIELD_PATTERN: { readonly [T in ReportFieldType]: string } = {
  bytes32: hexDigits(64),
  uint8: zeros(62) + hexDigits(2),
  uint32: zeros(56) + hexDigits(8),
  uint64: zeros(48) + hexDigits(16),
  uint192: zeros(16) + hexDigits(48),
  int192: `(?:${zeros(16)}[0-7]|${'f'.repeat(16)}[89a-f])${hexDigits(47)}`,
};

/** Byte offset of `rawRs` (its length word) for each numeric version id. */
const RS_OFFSET: number[] = [];
/** Head-and-blob pattern per numeric version id, compiled on first use. */
const HEAD_SOURCE: (string | undefined)[] = [];
const HEAD_RE: (RegExp | undefined)[] = [];
for (const version of REPORT_VERSIONS) {
  const id = reportVersionId(version);
  const fields = REPORT_SCHEMAS[version];
  const blobLength = 32 * fields.length;
  RS_OFFSET[id] = BLOB_DATA + blobLength;
  HEAD_SOURCE[id] =
    '^0x' +
    hexDigits(192) + // reportContext
    word(HEAD_BYTES) + // offset of reportBlob
    word(BLOB_DATA + blobLength) + // offset of rawRs
    FIELD_PATTERN.uint32 + // offset of rawSs (checked after)
    hexDigits(64) + // rawVs
    word(blobLength) + // length of reportBlob
    zeros(3) + id.toString(16) + hexDigits(60) + // feedId, of this version
    fields
      .slice(1)
      .map((field) => FIELD_PATTERN[field.type])
      .join('') +
    FIELD_PATTERN.uint32; // length of rawRs
}
/**
 * The signature arrays, from the first rawRs entry to the end of the string,
 * for k entries in each: k words, the rawSs length word (= k), k words, end.
 * Compiled on first use for k up to 32; other shapes use {@link ANY_TAIL_RE}.
 */
const TAIL_RE: (RegExp | undefined)[] = [];
const MAX_UNROLLED_SIGNATURES = 32;
/** Any tail: whole words of lowercase hex up to the end (the rawSs length word is checked apart). */
const ANY_TAIL_RE = new RegExp(`(?:${hexDigits(64)})*$`, 'y');

function tailRegExp(k: number): RegExp {
  let re = TAIL_RE[k];
  if (re === undefined) re = TAIL_RE[k] = new RegExp(hexDigits(64 * k) + word(k) + hexDigits(64 * k) + '$', 'y');
  return re;
}

const Z56 = zeros(56);
const TWO_192 = 1n << 192n;
/** String index of the blob's first field (`feedId`). */
const F0 = 2 + 2 * BLOB_DATA;
/** The shortest string the fast path looks at: head, blob length, feedId. */
const MIN_LENGTH = F0 + 64;
const FEED_ID = /^0x[0-9a-fA-F]{64}$/;

function headRegExp(id: number): RegExp | undefined {
  let re = HEAD_RE[id];
  if (re === undefined) {
    const source = HEAD_SOURCE[id];
    if (source === undefined) return undefined;
    re = HEAD_RE[id] = new RegExp(source);
  }
  return re;
}

/** 8 lowercase hex digits (already checked) as a number. */
function hex8(s: string, p: number): number {
  let v = 0;
  for (let i = p; i < p + 8; i++) {
    const c = s.charCodeAt(i);
    v = v * 16 + (c < 58 ? c - 48 : c - 87);
  }
  return v;
}

// Readers of a checked word at string index `p` (uint8 words read like uint32 ones).
const u32 = (s: string, p: number): number => hex8(s, p + 56);
function u64(s: string, p: number): bigint {
  const hi = hex8(s, p + 48);
  const lo = hex8(s, p + 56);
  // Below 2^53 one Number → BigInt conversion is exact and the cheapest.
  return hi < 0x200000 ? BigInt(hi * 4294967296 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
}
const u192 = (s: string, p: number): bigint => BigInt('0x' + s.slice(p + 16, p + 64));
function i192(s: string, p: number): bigint {
  const v = BigInt('0x' + s.slice(p + 16, p + 64));
  return s.charCodeAt(p + 16) >= 56 ? v - TWO_192 : v; // top digit ≥ 8: negative
}

function marketStatus(p: number, value: number): MarketStatus {
  if (value === 0 || value === 1 || value === 2) return value;
  throw marketStatusError(value, (p - 2) / 2);
}

function ripcord(p: number, value: number): Ripcord {
  if (value === 0 || value === 1) return value;
  throw ripcordError(value, (p - 2) / 2);
}

/** Decode a lowercase canonical report, or return undefined for `diagnoseReport` to explain why not. */
function decodeFast(s: string, feedID: string | undefined): DecodedReport | undefined {
  if (typeof s !== 'string' || s.length < MIN_LENGTH) return undefined;
  // Version digits of feedId: '000' then one digit.
  if (s.charCodeAt(F0) !== 48 || s.charCodeAt(F0 + 1) !== 48 || s.charCodeAt(F0 + 2) !== 48) return undefined;
  const c = s.charCodeAt(F0 + 3);
  const id = c < 58 ? c - 48 : c - 87;
  const head = headRegExp(id);
  if (head === undefined || !head.test(s)) return undefined;

  const n = s.length;
  const rsOffset = RS_OFFSET[id] as number;
  const rsAt = 2 + 2 * rsOffset;
  const rsCount = hex8(s, rsAt + 56);
  const ssOffset = rsOffset + 32 + 32 * rsCount;
  const ssAt = 2 + 2 * ssOffset;
  if (hex8(s, 2 + 64 * 5 + 56) !== ssOffset) return undefined;
  let ssCount = rsCount;
  if (rsCount <= MAX_UNROLLED_SIGNATURES && n === ssAt + 64 + 64 * rsCount) {
    // The usual shape: as many s as r values.
    const tail = tailRegExp(rsCount);
    tail.lastIndex = rsAt + 64;
    if (!tail.test(s)) return undefined;
  } else {
    if (ssAt + 64 > n || s.slice(ssAt, ssAt + 56) !== Z56) return undefined;
    ssCount = hex8(s, ssAt + 56);
    if (n !== ssAt + 64 + 64 * ssCount) return undefined;
    ANY_TAIL_RE.lastIndex = rsAt + 64;
    if (!ANY_TAIL_RE.test(s)) return undefined;
  }

  const feedId = '0x' + s.slice(F0, F0 + 64);
  if (feedID !== undefined && feedID !== feedId && feedIdArgumentError(feedID, feedId) !== null) return undefined;

  const reportContext: [string, string, string] = ['0x' + s.slice(2, 66), '0x' + s.slice(66, 130), '0x' + s.slice(130, 194)];
  const rawVs = '0x' + s.slice(386, 450);
  const rawRs: string[] = [];
  for (let i = 0, p = rsAt + 64; i < rsCount; i++, p += 64) rawRs.push('0x' + s.slice(p, p + 64));
  const rawSs: string[] = [];
  for (let i = 0, p = ssAt + 64; i < ssCount; i++, p += 64) rawSs.push('0x' + s.slice(p, p + 64));

  // Blob field i is the word at F0 + 64 * i.
  const validFromTimestamp = u32(s, F0 + 64);
  const observationsTimestamp = u32(s, F0 + 128);
  const nativeFee = u192(s, F0 + 192);
  const linkFee = u192(s, F0 + 256);
  const expiresAt = u32(s, F0 + 320);
  const b = F0 + 384; // first field after the common six

  switch (id) {
    case 2:
      return {
        version: 'V2', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        price: i192(s, b),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 3:
      return {
        version: 'V3', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        price: i192(s, b),
        bid: i192(s, b + 64),
        ask: i192(s, b + 128),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 4:
      return {
        version: 'V4', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        price: i192(s, b),
        marketStatus: marketStatus(b + 64, u32(s, b + 64)),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 5:
      return {
        version: 'V5', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        rate: i192(s, b),
        timestamp: u32(s, b + 64),
        duration: u32(s, b + 128),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 6:
      return {
        version: 'V6', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        price: i192(s, b),
        price2: i192(s, b + 64),
        price3: i192(s, b + 128),
        price4: i192(s, b + 192),
        price5: i192(s, b + 256),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 7:
      return {
        version: 'V7', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        exchangeRate: i192(s, b),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 8:
      return {
        version: 'V8', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        lastUpdateTimestamp: u64(s, b),
        midPrice: i192(s, b + 64),
        marketStatus: marketStatus(b + 128, u32(s, b + 128)),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 9:
      return {
        version: 'V9', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        navPerShare: i192(s, b),
        navDate: u64(s, b + 64),
        aum: i192(s, b + 128),
        ripcord: ripcord(b + 192, u32(s, b + 192)),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 10:
      return {
        version: 'V10', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        lastUpdateTimestamp: u64(s, b),
        price: i192(s, b + 64),
        marketStatus: marketStatus(b + 128, u32(s, b + 128)),
        currentMultiplier: i192(s, b + 192),
        newMultiplier: i192(s, b + 256),
        activationDateTime: u32(s, b + 320),
        tokenizedPrice: i192(s, b + 384),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 11:
      return {
        version: 'V11', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        mid: i192(s, b),
        lastSeenTimestampNs: u64(s, b + 64),
        bid: i192(s, b + 128),
        bidVolume: i192(s, b + 192),
        ask: i192(s, b + 256),
        askVolume: i192(s, b + 320),
        lastTradedPrice: i192(s, b + 384),
        marketStatus: u32(s, b + 448),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 12:
      return {
        version: 'V12', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        navPerShare: i192(s, b),
        nextNavPerShare: i192(s, b + 64),
        navDate: u64(s, b + 128),
        ripcord: ripcord(b + 192, u32(s, b + 192)),
        reportContext, rawRs, rawSs, rawVs,
      };
    case 13:
      return {
        version: 'V13', feedId, validFromTimestamp, observationsTimestamp, nativeFee, linkFee, expiresAt,
        bestAsk: i192(s, b),
        bestBid: i192(s, b + 64),
        askVolume: u64(s, b + 128),
        bidVolume: u64(s, b + 192),
        lastTradedPrice: i192(s, b + 256),
        reportContext, rawRs, rawSs, rawVs,
      };
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// Public functions
// ---------------------------------------------------------------------------

/**
 * Decode a `fullReport` (`0x`-hex) into a typed report of its schema version.
 *
 * The version comes from the report's own feed ID; when `feedID` is given
 * (the `feedID` the API returned next to `fullReport`), it must be the same
 * feed, in either case. Hex digits may be of either case; hex strings in the
 * result are lowercase.
 *
 * @throws {ReportDecodeError} for anything malformed, and nothing else.
 */
export function decodeReport(fullReport: string, feedID?: string): DecodedReport {
  const report = decodeFast(fullReport, feedID);
  if (report !== undefined) return report;
  // Slow path: throws the precise error, or returns the report lowercased
  // (it had uppercase hex digits), which the fast path then decodes.
  const lowercase = diagnoseReport(fullReport, feedID);
  const retried = decodeFast(lowercase, feedID);
  if (retried !== undefined) return retried;
  throw new ReportDecodeError('bad_layout', 'the report passed every check but could not be decoded (decoder bug)');
}

/**
 * The schema version of a feed, from the first two bytes of its ID.
 *
 * @throws {ReportDecodeError} `invalid_feed_id` when `feedID` is not 32-byte `0x`-hex,
 *   `unknown_version` when the version is not V2 to V13.
 */
export function reportVersionOf(feedID: string): ReportVersion {
  if (typeof feedID !== 'string' || !FEED_ID.test(feedID)) {
    throw new ReportDecodeError('invalid_feed_id', `${JSON.stringify(feedID)} is not a 32-byte 0x-hex feed ID`);
  }
  const version = REPORT_VERSIONS[Number.parseInt(feedID.slice(2, 6), 16) - 2];
  if (version === undefined) throw unknownVersionError(feedID.toLowerCase());
  return version;
}

/**
 * Whether a report can no longer be verified: `nowSeconds` is after its
 * `expiresAt` (a report is still valid during the second `expiresAt` itself).
 *
 * @param nowSeconds Unix seconds; defaults to the current time.
 */
export function isReportExpired(report: { readonly expiresAt: number }, nowSeconds: number = Math.floor(Date.now() / 1000)): boolean {
  return nowSeconds > report.expiresAt;
}

/**
 * An integer scaled by `10^decimals` as an exact decimal string, without
 * floating point: `formatScaled(3000123400000000000000n)` is `'3000.1234'`.
 * Trailing fractional zeros are dropped (`'3000'`, not `'3000.0'`), and a
 * negative value keeps its sign (`'-0.5'`), like viem's `formatUnits`.
 *
 * @param decimals 18 for crypto streams; the stream catalog gives each stream's value.
 * @throws {RangeError} when `decimals` is not a non-negative safe integer.
 */
export function formatScaled(value: bigint, decimals = 18): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  const negative = value < 0n;
  const sign = negative ? '-' : '';
  let text = (negative ? -value : value).toString();
  if (decimals === 0) return sign + text;
  if (text.length <= decimals) text = '0'.repeat(decimals + 1 - text.length) + text;
  const cut = text.length - decimals;
  let end = text.length;
  while (end > cut && text.charCodeAt(end - 1) === 48) end--;
  return end === cut ? sign + text.slice(0, cut) : `${sign}${text.slice(0, cut)}.${text.slice(cut, end)}`;
}
