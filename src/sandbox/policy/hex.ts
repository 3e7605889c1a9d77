/**
 * Deterministic onchain-looking values for the policy sandbox: addresses,
 * hashes and selectors derived with keccak-256, so the same resource on the
 * same chain always gets the same address, and a function selector is the
 * real one (`transfer(address,uint256)` → `0xa9059cbb`).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** `0x` + the keccak-256 of `text`, lowercase (a bytes32). */
export function keccakHex(text: string): string {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(text)))}`;
}

/** A bytes32 derived from the parts (`0x` + 64 hex digits). */
export function bytes32Of(...parts: readonly string[]): string {
  return keccakHex(parts.join('\u0000'));
}

/** A 20-byte address derived from the parts, as a contract address would be. */
export function addressOf(...parts: readonly string[]): string {
  return `0x${bytes32Of(...parts).slice(-40)}`;
}

/** The 4-byte selector of a canonical function signature. */
export function selectorOf(signature: string): string {
  return keccakHex(signature).slice(0, 10);
}

/** Hex of a JSON value's UTF-8 text (credential payloads are stored onchain as bytes). */
export function jsonToHex(value: unknown): string {
  return `0x${bytesToHex(utf8ToBytes(JSON.stringify(value)))}`;
}
