/**
 * The signed parts of a `fullReport`, read as the on-chain verifier reads
 * them: `abi.decode(signedReport, (bytes32[3], bytes, bytes32[], bytes32[], bytes32))`.
 *
 * Like Solidity's decoder (and unlike `decodeReport`, which accepts only the
 * canonical encoding the service produces), it follows the offsets wherever
 * they point inside the data and ignores bytes after the parts: what the
 * contract would decode is decoded, so nothing it would verify is refused here
 * for its layout. Offsets or lengths that point outside the data are refused.
 */
import { hexToBytes } from '@noble/hashes/utils.js';

/** The parts the signatures cover and the signatures themselves, as bytes. */
export interface SignedReport {
  /** The whole report, decoded from hex. */
  readonly bytes: Uint8Array;
  /** Byte offset of reportContext (three words) in `bytes`: always 0. */
  readonly contextOffset: 0;
  /** The report blob: offset and length in `bytes`. */
  readonly blobOffset: number;
  readonly blobLength: number;
  /** Offset of the first r word and how many there are. */
  readonly rsOffset: number;
  readonly rsCount: number;
  /** Offset of the first s word and how many there are. */
  readonly ssOffset: number;
  readonly ssCount: number;
  /** Offset of rawVs (one word: byte i is signature i's v − 27). */
  readonly vsOffset: number;
}

const WORD = 32;
/** The head: reportContext (3 words), three offsets, rawVs. */
const HEAD = 7 * WORD;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** A word read as a number, or -1 when it does not fit a safe integer (no real offset or length does). */
function wordNumber(bytes: Uint8Array, at: number): number {
  for (let i = at; i < at + 24; i++) if (bytes[i] !== 0) return -1;
  let value = 0;
  for (let i = at + 24; i < at + WORD; i++) value = value * 256 + bytes[i]!;
  return value <= Number.MAX_SAFE_INTEGER ? value : -1;
}

/** A dynamic part (`bytes` or `bytes32[]`) at the offset in head word `headWord`: where its data starts and its length. */
function dynamicPart(bytes: Uint8Array, headWord: number, unit: number): { offset: number; length: number } | string {
  const offset = wordNumber(bytes, headWord * WORD);
  if (offset < 0 || offset + WORD > bytes.length) return `the offset in head word ${headWord} points outside the data`;
  const length = wordNumber(bytes, offset);
  if (length < 0 || offset + WORD + length * unit > bytes.length) return `the part at byte ${offset} runs past the end of the data`;
  return { offset: offset + WORD, length };
}

/** The signed parts of `fullReport`, or a sentence saying why it cannot be decoded. */
export function readSignedReport(fullReport: unknown): SignedReport | string {
  if (typeof fullReport !== 'string' || !HEX.test(fullReport)) return 'the report is not 0x-prefixed hex of whole bytes';
  const bytes = hexToBytes(fullReport.slice(2));
  if (bytes.length < HEAD) return `the report is ${bytes.length} bytes long, shorter than its ${HEAD}-byte head`;
  const blob = dynamicPart(bytes, 3, 1);
  if (typeof blob === 'string') return `reportBlob: ${blob}`;
  const rs = dynamicPart(bytes, 4, WORD);
  if (typeof rs === 'string') return `rawRs: ${rs}`;
  const ss = dynamicPart(bytes, 5, WORD);
  if (typeof ss === 'string') return `rawSs: ${ss}`;
  return {
    bytes,
    contextOffset: 0,
    blobOffset: blob.offset,
    blobLength: blob.length,
    rsOffset: rs.offset,
    rsCount: rs.length,
    ssOffset: ss.offset,
    ssCount: ss.length,
    vsOffset: 6 * WORD,
  };
}
