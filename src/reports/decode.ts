/**
 * Decoder for Data Streams `fullReport` blobs, every schema version (V2 to V13).
 *
 * The layouts are fixed (see `layouts.ts`): the outer tuple
 * `(bytes32[3] reportContext, bytes reportBlob, bytes32[] rawRs, bytes32[] rawSs, bytes32 rawVs)`
 * and, inside `reportBlob`, one static 32-byte word per field. So the decoder
 * reads the words straight out of the hex string, with no generic ABI
 * decoder (`fast.ts`), while making every check a strict ABI decoder
 * makes (`diagnose.ts` then says which one failed):
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
import { quoteInput, ReportDecodeError } from './decode-error.js';
import type { DecodedReport } from './decoded.js';
import { diagnoseReport, unknownVersionError } from './diagnose.js';
import { decodeFast } from './fast.js';
import { REPORT_VERSIONS, type ReportVersion } from './layouts.js';

const FEED_ID = /^0x[0-9a-fA-F]{64}$/;

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
