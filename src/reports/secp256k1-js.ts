/**
 * secp256k1 in JavaScript (`@noble/curves`): the fallback of secp256k1.ts
 * where a runtime compiles no WebAssembly, and the sandbox's DON signer
 * (12 kB gzipped, where libsecp256k1 adds 38 kB of base64: the sandbox signs
 * a report once, then serves it from its cache, so its size matters more
 * than its speed). Same semantics as secp256k1.ts; callers check r, s, v
 * and the private key first.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** Lowercase hex of the last 20 of 32 bytes (an address from a key's hash), `0x`-prefixed. */
export function addressHex(bytes: Uint8Array): string {
  let hex = '0x';
  for (let i = 12; i < 32; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return hex;
}

/** `ecrecover` with r, s and v already checked: the lowercase address, or undefined when no key recovers. */
export function ecrecoverJs(hash: Uint8Array, signature: Uint8Array, v: number): string | undefined {
  try {
    const point = secp256k1.Signature.fromBytes(signature, 'compact').addRecoveryBit(v - 27).recoverPublicKey(hash);
    return addressHex(keccak_256(point.toBytes(false).subarray(1)));
  } catch {
    return undefined; // r is no point's x, or the key would be the point at infinity
  }
}

/** The lowercase address of a checked private key. */
export function addressOfJs(privateKey: Uint8Array): string {
  return addressHex(keccak_256(secp256k1.getPublicKey(privateKey, false).subarray(1)));
}

/** A signature of a 32-byte hash (RFC 6979, low s) with a checked private key: r ‖ s and the recovery id. */
export function signHashJs(hash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recoveryId: number } {
  const recovered = secp256k1.sign(hash, privateKey, { prehash: false, lowS: true, format: 'recovered' });
  return { signature: recovered.slice(1), recoveryId: recovered[0]! };
}
