/**
 * Onchain-looking values for the channels sandbox: hashes, workflow run
 * identifiers, OCR proofs and base64 verifiable payloads. Hashes are
 * keccak-256 of what they stand for, so the same content always gives the
 * same hash; run identifiers and signatures are random, as real ones look.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { OcrProof } from './model.js';

/** `0x` + keccak-256 of the parts, a bytes32. */
export function hashOf(...parts: readonly string[]): string {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(parts.join('\u0000'))))}`;
}

/** A 20-byte address derived from the parts, as a deployed contract's address would be. */
export function addressOf(...parts: readonly string[]): string {
  return `0x${hashOf(...parts).slice(-40)}`;
}

export function randomHex(bytes: number): string {
  return `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(bytes)))}`;
}

/** Base64 of a JSON value's UTF-8 text (verifiable events and results). */
export function base64Json(value: unknown): string {
  let binary = '';
  for (const byte of utf8ToBytes(JSON.stringify(value))) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** An OCR proof over `report` signed by a small DON: the shape the service attaches to verifiable events. */
export function ocrProof(report: string): OcrProof {
  return {
    alg: 'ocr3',
    ocr_report: hashOf('report', report),
    ocr_context: randomHex(96),
    signatures: [randomHex(65), randomHex(65)],
  };
}

/** Workflow IDs of the service's own CRE workflows, fixed like a deployment's. */
export const WORKFLOW_IDS = Object.freeze({
  operationWriter: hashOf('workflow', 'operation-writer'),
  operationStatus: hashOf('workflow', 'operation-status'),
  query: hashOf('workflow', 'query'),
});
