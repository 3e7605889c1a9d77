/**
 * What `decodeReport` returns: one typed report per schema version (V2 to
 * V13), and the two enumerations some versions carry. Types only, apart from
 * the two enumeration constants, so the decoder's fast path can name them
 * without importing the decoder.
 */
import type { ReportVersion } from './layouts.js';

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

/** A decoded V2 report: a price. */
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
