import { BLOB_DATA, HEAD_BYTES } from '../../reports/diagnose.js';
import type { Report } from '../reports.js';

/**
 * The envelope of a stream message (`feedID`, `validFromTimestamp`,
 * `observationsTimestamp`) is not signed; the same three fields inside the
 * report blob are. The stream orders, deduplicates and bounds reports by
 * those fields, so it requires the envelope to say what the blob says before
 * it believes either: otherwise a message could file a genuine report under
 * another time or stream, and push the genuine ones out as late.
 *
 * The blob's head is fixed for every schema version (feedId, then the two
 * uint32 timestamps, one ABI word each, right after the canonical outer
 * head), so this reads three 64-digit words at fixed places of the hex
 * string: no decoding, a few hundred nanoseconds per report.
 */

/** Where ABI word `byteOffset` of the report starts in its `0x…` hex string. */
const at = (byteOffset: number): number => 2 + 2 * byteOffset;

/** The outer head's word that points at the blob (its offset); canonical encodings put the blob right after the head. */
const BLOB_OFFSET_WORD = at(96);
const CANONICAL_BLOB_OFFSET = HEAD_BYTES.toString(16).padStart(64, '0');
const FEED_ID_WORD = at(BLOB_DATA);
const VALID_FROM_WORD = at(BLOB_DATA + 32);
const OBSERVATIONS_WORD = at(BLOB_DATA + 64);
/** The shortest `fullReport` that holds the three fields. */
const MIN_LENGTH = OBSERVATIONS_WORD + 64;

function word(fullReport: string, start: number): string {
  return fullReport.slice(start, start + 64).toLowerCase();
}

function uint32Word(value: number): string {
  return value.toString(16).padStart(64, '0');
}

/**
 * Why the message's envelope disagrees with its signed blob, or `undefined`
 * when the stream ID and both timestamps agree (in any letter case).
 */
export function envelopeMismatch(report: Report): string | undefined {
  const blob = report.fullReport;
  if (blob.length < MIN_LENGTH) return `\`fullReport\` is too short to hold a report (${(blob.length - 2) / 2} bytes)`;
  if (word(blob, BLOB_OFFSET_WORD) !== CANONICAL_BLOB_OFFSET) return '`fullReport` is not in the canonical layout (its blob offset is not 224)';
  const signedFeed = `0x${word(blob, FEED_ID_WORD)}`;
  if (signedFeed !== report.feedID.toLowerCase()) return `the envelope says stream ${report.feedID}, the signed report ${signedFeed}`;
  if (word(blob, OBSERVATIONS_WORD) !== uint32Word(report.observationsTimestamp)) {
    return `the envelope says observationsTimestamp ${report.observationsTimestamp}, the signed report ${readUint(blob, OBSERVATIONS_WORD)}`;
  }
  if (word(blob, VALID_FROM_WORD) !== uint32Word(report.validFromTimestamp)) {
    return `the envelope says validFromTimestamp ${report.validFromTimestamp}, the signed report ${readUint(blob, VALID_FROM_WORD)}`;
  }
  return undefined;
}

/** A word's value for an error message (it may not be a uint32 at all). */
function readUint(blob: string, start: number): string {
  const digits = word(blob, start).replace(/^0+(?=.)/, '');
  return /^[0-9a-f]+$/.test(digits) ? BigInt(`0x${digits}`).toString() : `0x${digits} (not hex)`;
}
