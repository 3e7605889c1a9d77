/**
 * Decoder for Data Streams `fullReport` blobs, every schema version (V2 to V13).
 *
 * The layouts are fixed (see `report-schemas.ts`): the outer tuple
 * `(bytes32[3] reportContext, bytes reportBlob, bytes32[] rawRs, bytes32[] rawSs, bytes32 rawVs)`
 * and, inside `reportBlob`, one static 32-byte word per field. So the decoder
 * reads the words straight out of the hex string, with no generic ABI
 * decoder (`report-fast.ts`), while making every check a strict ABI decoder
 * makes (`report-diagnose.ts` then says which one failed):
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
import { quoteInput, ReportDecodeError } from './report-decode-error.js';
import { diagnoseReport, unknownVersionError } from './report-diagnose.js';
import { decodeFast } from './report-fast.js';
import { REPORT_VERSIONS, type ReportVersion } from './report-schemas.js';

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

const FEED_ID = /^0x[0-9a-fA-F]{64}$/;

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
    throw new ReportDecodeError('invalid_feed_id', `${quoteInput(feedID)} is not a 32-byte 0x-hex feed ID`);
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
