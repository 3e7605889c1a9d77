/**
 * Encoder for Data Streams `fullReport` blobs, every schema version (V2 to V13):
 * the inverse of `decodeReport`, written once for the sandbox (which serves
 * reports for any stream at any time) and for the script that writes the
 * spec's report examples.
 *
 * It produces the canonical ABI encoding, the one the service produces and the
 * only one the decoder accepts: the outer tuple
 * `(bytes32[3] reportContext, bytes reportBlob, bytes32[] rawRs, bytes32[] rawSs, bytes32 rawVs)`
 * and, inside `reportBlob`, one 32-byte word per field of the version's layout
 * (`layouts.ts`). Every word is written straight into a lowercase hex
 * string; no generic ABI library is needed (and none may be: this module ships
 * in the package, whose users have no devDependencies).
 *
 * It checks ABI types (widths, signs, 32-byte words), not meaning: a
 * `marketStatus` outside the domain the decoders accept encodes all the same,
 * so tests can build the reports that a decoder must refuse.
 */
import { SdkError } from '../core/errors.js';
import { REPORT_SCHEMAS, REPORT_VERSIONS, type ReportFieldType, type ReportVersion } from './layouts.js';

/** A blob field's value: `bigint` or a safe integer for numbers, `0x`-hex for `bytes32`. */
export type ReportFieldValue = bigint | number | string;

/** The parts of a `fullReport` around its blob: the report context and the signatures. */
export interface ReportSignatureParts {
  /** Config digest, epoch and round, extra hash: three 32-byte `0x`-hex words. */
  readonly reportContext: readonly [string, string, string];
  /** `r` halves of the signatures, 32-byte `0x`-hex each. */
  readonly rawRs: readonly string[];
  /** `s` halves of the signatures, 32-byte `0x`-hex each. */
  readonly rawSs: readonly string[];
  /** Packed `v` bytes of the signatures, 32-byte `0x`-hex. */
  readonly rawVs: string;
}

/** A value cannot be encoded: `field` names it (a blob field, or a part such as `rawRs[2]`). */
export class ReportEncodeError extends SdkError {
  override name = 'ReportEncodeError';
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`cannot encode report field \`${field}\`: ${problem}`);
  }
}

const WORD = /^0x[0-9a-fA-F]{64}$/;
const BLOB = /^0x(?:[0-9a-fA-F]{2})*$/;
const TWO_256 = 1n << 256n;

/** The inclusive range of each integer type. */
const RANGES: Record<Exclude<ReportFieldType, 'bytes32'>, readonly [bigint, bigint]> = {
  uint8: [0n, (1n << 8n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
  uint192: [0n, (1n << 192n) - 1n],
  int192: [-(1n << 191n), (1n << 191n) - 1n],
};

/** One 32-byte word as 64 lowercase hex digits, from a `bytes32` value. */
function bytes32Word(field: string, value: unknown): string {
  if (typeof value !== 'string' || !WORD.test(value)) {
    throw new ReportEncodeError(field, `expected 32 bytes of 0x-hex, got ${describe(value)}`);
  }
  return value.slice(2).toLowerCase();
}

/** One 32-byte word as 64 lowercase hex digits, from an integer (two's complement for negatives). */
function integerWord(field: string, type: Exclude<ReportFieldType, 'bytes32'>, value: unknown): string {
  let integer: bigint;
  if (typeof value === 'bigint') integer = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) integer = BigInt(value);
  else throw new ReportEncodeError(field, `expected a bigint or a safe integer (${type}), got ${describe(value)}`);
  const [min, max] = RANGES[type];
  if (integer < min || integer > max) throw new ReportEncodeError(field, `${integer} is outside the ${type} range [${min}, ${max}]`);
  return (integer < 0n ? TWO_256 + integer : integer).toString(16).padStart(64, '0');
}

function uintWord(value: number): string {
  return value.toString(16).padStart(64, '0');
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 80 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return value === null ? 'null' : typeof value === 'number' ? String(value) : typeof value;
}

/** The schema version named by a feed ID's first two bytes. */
function versionOf(feedId: unknown): ReportVersion {
  const word = bytes32Word('feedId', feedId);
  const version = REPORT_VERSIONS[Number.parseInt(word.slice(0, 4), 16) - 2];
  if (version === undefined) {
    throw new ReportEncodeError('feedId', `its first two bytes (0x${word.slice(0, 4)}) name no schema version from V2 to V13`);
  }
  return version;
}

/**
 * The ABI encoding of a report blob, `0x`-hex. The version comes from
 * `fields.feedId`, as the decoders read it; every field of that version's
 * layout must be given, and no other.
 *
 * @throws {ReportEncodeError} naming the field that is missing, unknown or out of its type's range.
 */
export function encodeReportBlob(fields: Readonly<Record<string, ReportFieldValue>>): string {
  if (fields === null || typeof fields !== 'object') throw new ReportEncodeError('fields', `expected an object, got ${describe(fields)}`);
  const layout = REPORT_SCHEMAS[versionOf(fields.feedId)];
  const words: string[] = [];
  for (const { name, type } of layout) {
    if (!Object.hasOwn(fields, name)) throw new ReportEncodeError(name, 'missing');
    const value = fields[name];
    words.push(type === 'bytes32' ? bytes32Word(name, value) : integerWord(name, type, value));
  }
  if (Object.keys(fields).length !== layout.length) {
    const known = new Set<string>(layout.map((field) => field.name));
    const extra = Object.keys(fields).find((name) => !known.has(name));
    throw new ReportEncodeError(String(extra), `not a field of the ${versionOf(fields.feedId)} layout`);
  }
  return `0x${words.join('')}`;
}

/**
 * The ABI encoding of a `fullReport` around an encoded blob, `0x`-hex: the
 * canonical layout, with the offsets of the dynamic parts in the head and
 * each dynamic part (length word, then its words) in the tail.
 *
 * @throws {ReportEncodeError} naming the part that is not 32-byte hex (or the blob, when not hex).
 */
export function encodeFullReport(reportBlob: string, parts: ReportSignatureParts): string {
  if (typeof reportBlob !== 'string' || !BLOB.test(reportBlob)) {
    throw new ReportEncodeError('reportBlob', `expected 0x-hex bytes, got ${describe(reportBlob)}`);
  }
  if (parts === null || typeof parts !== 'object') throw new ReportEncodeError('parts', `expected an object, got ${describe(parts)}`);
  const { reportContext, rawRs, rawSs, rawVs } = parts;
  if (!Array.isArray(reportContext) || reportContext.length !== 3) throw new ReportEncodeError('reportContext', 'expected three words');
  if (!Array.isArray(rawRs)) throw new ReportEncodeError('rawRs', 'expected an array of words');
  if (!Array.isArray(rawSs)) throw new ReportEncodeError('rawSs', 'expected an array of words');

  const blobHex = reportBlob.slice(2).toLowerCase();
  const blobBytes = blobHex.length / 2;
  const blobPadded = blobHex.padEnd(Math.ceil(blobBytes / 32) * 64, '0');
  // Head: three context words, three offsets, rawVs. Tail: blob, rawRs, rawSs.
  const blobOffset = 7 * 32;
  const rsOffset = blobOffset + 32 + blobPadded.length / 2;
  const ssOffset = rsOffset + 32 + 32 * rawRs.length;
  return [
    '0x',
    ...reportContext.map((word, i) => bytes32Word(`reportContext[${i}]`, word)),
    uintWord(blobOffset),
    uintWord(rsOffset),
    uintWord(ssOffset),
    bytes32Word('rawVs', rawVs),
    uintWord(blobBytes),
    blobPadded,
    uintWord(rawRs.length),
    ...rawRs.map((word, i) => bytes32Word(`rawRs[${i}]`, word)),
    uintWord(rawSs.length),
    ...rawSs.map((word, i) => bytes32Word(`rawSs[${i}]`, word)),
  ].join('');
}

/**
 * A complete `fullReport`, `0x`-hex: the blob of `fields` (its version from
 * `fields.feedId`) inside the outer tuple with the given context and signatures.
 *
 * @throws {ReportEncodeError} naming the field or part that cannot be encoded.
 */
export function encodeReport(fields: Readonly<Record<string, ReportFieldValue>>, parts: ReportSignatureParts): string {
  return encodeFullReport(encodeReportBlob(fields), parts);
}
