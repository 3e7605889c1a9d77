/**
 * The decoder's slow path: walks a `fullReport` that the fast path refused,
 * check by check, to throw the {@link ReportDecodeError} that says what is
 * wrong and where. A report it finds nothing wrong with (one written with
 * uppercase hex digits, the only valid input the fast path refuses) comes
 * back lowercased, for the fast path to decode.
 *
 * Order of the checks, hence which error wins when several apply: hex
 * digits, then the outer layout and `feedId` (with the `feedID` argument and
 * the version), then the blob's length, the signature arrays, and the blob's
 * fields in order.
 */
import { quoteInput, ReportDecodeError } from './decode-error.js';
import { REPORT_SCHEMAS, REPORT_VERSIONS, type ReportFieldType } from './layouts.js';

/** Outer head: 3 context words, 3 offsets, rawVs. */
export const HEAD_BYTES = 224;
/** Byte offset of the blob's first field (after the head and the blob's length word). */
export const BLOB_DATA = HEAD_BYTES + 32;

const FEED_ID = /^0x[0-9a-fA-F]{64}$/;
const ZEROS = '0'.repeat(64);
const ONES = 'f'.repeat(64);

function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** String index of the hex digits of the word at byte `offset`. */
const at = (offset: number): number => 2 + 2 * offset;

/** The word at byte `offset` as an offset/length/count: Infinity from 2^32 up (more than any report holds). */
function size(s: string, offset: number): number {
  const p = at(offset);
  return s.startsWith(ZEROS.slice(0, 56), p) ? Number.parseInt(s.slice(p + 56, p + 64), 16) : Number.POSITIVE_INFINITY;
}

export function unknownVersionError(feedId: string): ReportDecodeError {
  return new ReportDecodeError(
    'unknown_version',
    `schema version 0x${feedId.slice(2, 6)} of feed ${feedId} is not one of V2 (0x0002) to V13 (0x000d)`,
    'feedId',
    BLOB_DATA,
  );
}

/** `null` when `feedID` is the feed `feedId` (lowercase), else the error to throw. */
export function feedIdArgumentError(feedID: unknown, feedId: string): ReportDecodeError | null {
  if (typeof feedID !== 'string' || !FEED_ID.test(feedID)) {
    return new ReportDecodeError('invalid_feed_id', `feedID argument ${quoteInput(feedID)} is not a 32-byte 0x-hex string`);
  }
  const wanted = feedID.toLowerCase();
  return wanted === feedId
    ? null
    : new ReportDecodeError('feed_id_mismatch', `the report is for feed ${feedId}, not ${wanted}`, 'feedId', BLOB_DATA);
}

export function marketStatusError(value: number, offset: number): ReportDecodeError {
  return new ReportDecodeError('invalid_market_status', `${value} is not a market status (0 unknown, 1 closed, 2 open)`, 'marketStatus', offset);
}

export function ripcordError(value: number, offset: number): ReportDecodeError {
  return new ReportDecodeError('invalid_ripcord', `${value} is not a ripcord value (0 normal, 1 paused)`, 'ripcord', offset);
}

/** Why the word `w` (64 lowercase digits) is not a valid `type`, or `null`. */
function fieldFault(w: string, type: ReportFieldType): string | null {
  switch (type) {
    case 'bytes32':
      return null;
    case 'int192': {
      const negative = w.charCodeAt(16) >= 56; // top digit of the 192-bit value ≥ 8
      return w.startsWith((negative ? ONES : ZEROS).slice(0, 16))
        ? null
        : 'value does not fit in int192 (the upper 64 bits are not its sign extension)';
    }
    default: {
      const bits = type === 'uint8' ? 8 : type === 'uint32' ? 32 : type === 'uint64' ? 64 : 192;
      return w.startsWith(ZEROS.slice(0, 64 - bits / 4)) ? null : `value does not fit in ${type} (non-zero padding bits)`;
    }
  }
}

/**
 * Throw the error that makes `input` undecodable, or return it lowercased when it is valid.
 */
export function diagnoseReport(input: unknown, feedID: unknown): string {
  if (typeof input !== 'string' || !input.startsWith('0x')) {
    throw new ReportDecodeError('bad_hex', 'fullReport must be a string starting with 0x');
  }
  for (let i = 2; i < input.length; i++) {
    if (!isHexCode(input.charCodeAt(i))) {
      throw new ReportDecodeError('bad_hex', `${JSON.stringify(input.charAt(i))} at string index ${i} is not a hex digit`);
    }
  }
  if (input.length % 2 !== 0) {
    throw new ReportDecodeError('bad_hex', `fullReport has an odd number (${input.length - 2}) of hex digits`);
  }
  const s = input.toLowerCase();
  const total = (s.length - 2) / 2;
  const truncated = (need: number, what: string, field: string, offset?: number): ReportDecodeError =>
    new ReportDecodeError('truncated', `fullReport is ${total} bytes; ${what} needs ${need}`, field, offset);

  if (total < BLOB_DATA + 32) throw truncated(BLOB_DATA + 32, 'the outer head with the reportBlob length and feedId', 'fullReport');
  const blobOffset = size(s, 96);
  if (blobOffset !== HEAD_BYTES) {
    throw new ReportDecodeError('bad_layout', `offset is ${blobOffset}, the canonical encoding has ${HEAD_BYTES}`, 'reportBlob offset', 96);
  }
  const blobLen = size(s, HEAD_BYTES);
  if (blobLen < 32) {
    throw new ReportDecodeError('truncated', `reportBlob is ${blobLen} bytes; its feedId needs 32`, 'reportBlob length', HEAD_BYTES);
  }
  const feedId = '0x' + s.slice(at(BLOB_DATA), at(BLOB_DATA) + 64);
  if (feedID !== undefined) {
    const error = feedIdArgumentError(feedID, feedId);
    if (error !== null) throw error;
  }
  const id = Number.parseInt(feedId.slice(2, 6), 16);
  const version = REPORT_VERSIONS[id - 2];
  if (version === undefined) throw unknownVersionError(feedId);
  const fields = REPORT_SCHEMAS[version];
  const expected = 32 * fields.length;
  if (blobLen !== expected) {
    throw blobLen < expected
      ? new ReportDecodeError('truncated', `a ${version} reportBlob is ${expected} bytes, this one ${blobLen}`, 'reportBlob length', HEAD_BYTES)
      : new ReportDecodeError(
          'bad_layout',
          `a ${version} reportBlob is ${expected} bytes, this one ${blobLen} (trailing data)`,
          'reportBlob length',
          HEAD_BYTES,
        );
  }

  const rsOffset = BLOB_DATA + blobLen;
  const rsOffsetWord = size(s, 128);
  if (rsOffsetWord !== rsOffset) {
    throw new ReportDecodeError('bad_layout', `offset is ${rsOffsetWord}, the canonical encoding has ${rsOffset}`, 'rawRs offset', 128);
  }
  if (total < rsOffset + 32) throw truncated(rsOffset + 32, 'the reportBlob with the rawRs length', 'rawRs length', rsOffset);
  const rsCount = size(s, rsOffset);
  const ssOffset = rsOffset + 32 + 32 * rsCount;
  if (total < ssOffset + 32) throw truncated(ssOffset + 32, `rawRs (${rsCount} entries) with the rawSs length`, 'rawRs length', rsOffset);
  const ssOffsetWord = size(s, 160);
  if (ssOffsetWord !== ssOffset) {
    throw new ReportDecodeError('bad_layout', `offset is ${ssOffsetWord}, the canonical encoding has ${ssOffset}`, 'rawSs offset', 160);
  }
  const ssCount = size(s, ssOffset);
  const end = ssOffset + 32 + 32 * ssCount;
  if (total < end) throw truncated(end, `rawSs (${ssCount} entries)`, 'rawSs length', ssOffset);
  if (total > end) throw new ReportDecodeError('bad_layout', `${total - end} bytes follow rawSs`, 'fullReport', end);

  for (let i = 1; i < fields.length; i++) {
    const field = fields[i]!;
    const offset = BLOB_DATA + 32 * i;
    const w = s.slice(at(offset), at(offset) + 64);
    const fault = fieldFault(w, field.type);
    if (fault !== null) throw new ReportDecodeError('out_of_range', fault, field.name, offset);
    if ('domain' in field) {
      const value = Number.parseInt(w.slice(56), 16);
      if (field.domain === 'marketStatus' && value > 2) throw marketStatusError(value, offset);
      if (field.domain === 'ripcord' && value > 1) throw ripcordError(value, offset);
    }
  }
  return s;
}
