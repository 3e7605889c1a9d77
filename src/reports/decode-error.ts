import { SdkError } from '../core/sdk-error.js';

/**
 * Why a report could not be decoded.
 *
 * - `bad_hex`: not a `0x`-prefixed string of an even number of hex digits.
 * - `truncated`: the data ends before a part the layout says is there.
 * - `bad_layout`: an offset or length of the outer tuple is not the one the
 *   (canonical) encoding has, or bytes follow the last part.
 * - `unknown_version`: the feed ID names a schema version that is not V2 to V13.
 * - `invalid_feed_id`: the `feedID` argument is not a 32-byte `0x`-hex string.
 * - `feed_id_mismatch`: the `feedID` argument disagrees with the report's own feed ID.
 * - `out_of_range`: a word holds a value outside its ABI type (dirty padding
 *   bits of a `uintN`, or an `int192` whose upper bits are not its sign).
 * - `invalid_market_status`: `marketStatus` (V4, V8, V10) is not 0, 1 or 2.
 * - `invalid_ripcord`: `ripcord` (V9, V12) is not 0 or 1.
 */
export type ReportDecodeErrorReason =
  | 'bad_hex'
  | 'truncated'
  | 'bad_layout'
  | 'unknown_version'
  | 'invalid_feed_id'
  | 'feed_id_mismatch'
  | 'out_of_range'
  | 'invalid_market_status'
  | 'invalid_ripcord';

/** Longest message a ReportDecodeError carries: a hostile input can be megabytes long. */
const MAX_MESSAGE = 300;

/** A value as an error message may show it: short strings quoted, long ones cut, other types by kind. */
export function quoteInput(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** The only error `decodeReport` throws; an SdkError like every error of the SDK. */
export class ReportDecodeError extends SdkError {
  override readonly name = 'ReportDecodeError';
  /** Machine-readable cause. */
  readonly reason: ReportDecodeErrorReason;
  /** The field (or part of the outer tuple) at fault, when there is one. */
  readonly field: string | undefined;
  /** Byte offset in the decoded `fullReport` of the word at fault, when there is one. */
  readonly offset: number | undefined;

  constructor(reason: ReportDecodeErrorReason, message: string, field?: string, offset?: number) {
    const full = field === undefined ? message : `${field}${offset === undefined ? '' : ` (byte ${offset})`}: ${message}`;
    super(full.length > MAX_MESSAGE ? `${full.slice(0, MAX_MESSAGE)}…` : full);
    this.reason = reason;
    this.field = field;
    this.offset = offset;
  }
}
