// The libsecp256k1 WebAssembly module (generated/wasm/secp256k1.wasm): built by
// scripts/lib/secp256k1-wasm.mjs with clang, which a fresh clone lacks, so the
// binary is committed with the hash of its inputs; and what it computes,
// against @noble/curves, on random keys and hashes.
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { SECP256K1_WASM } from '../../generated/wasm/secp256k1.js';
import { buildInputs, buildSecp256k1Wasm, clangVersion, readCommitted, sha256 } from '../../scripts/lib/secp256k1-wasm.mjs';
import { addressOf, ecrecover, signHash } from '../../src/reports/secp256k1.js';

const root = join(import.meta.dirname, '..', '..');

describe('the committed libsecp256k1 module', () => {
  it('is the build of its recorded inputs: the record hashes today\'s sources, glue and clang arguments, and the binary', () => {
    const committed = readCommitted(root);
    expect(committed, 'generated/wasm/secp256k1.wasm and secp256k1.build.json are committed').toBeDefined();
    const { record, bytes } = committed!;
    expect(record.inputs, 'an input changed: run `npm run generate` with clang installed (apt-get install clang lld)').toBe(buildInputs(root).inputs);
    expect(record.sha256).toBe(sha256(bytes));
    // Browsers, Deno and edge runtimes get the same bytes as base64.
    expect(sha256(Buffer.from(SECP256K1_WASM as string, 'base64'))).toBe(record.sha256);
  });

  // Another clang may emit other bytes: the check needs the one the record names.
  it.skipIf(clangVersion() !== readCommitted(root)?.record.compiler)('rebuilds byte for byte from its inputs where the recorded clang is installed', () => {
    expect(sha256(buildSecp256k1Wasm(root).bytes)).toBe(readCommitted(root)!.record.sha256);
  }, 120_000);
});

/** The address of an uncompressed public key, as Ethereum derives it. */
function addressOfKey(publicKey: Uint8Array): string {
  return `0x${Buffer.from(keccak_256(publicKey.subarray(1)).subarray(12)).toString('hex')}`;
}

describe('libsecp256k1 (WebAssembly) against @noble/curves', () => {
  // A fixed seed, so that a failure names keys that fail again.
  let seed = 0x9e3779b9;
  const random = (length: number): Uint8Array =>
    Uint8Array.from({ length }, () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed >>> 24;
    });

  it('recovers the signer of 300 random hashes, both recovery ids, and signs and derives keys alike', () => {
    const ids = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const key = secp256k1.utils.randomSecretKey(random(48));
      const hash = random(32);
      const expected = addressOfKey(secp256k1.getPublicKey(key, false));
      const noble = secp256k1.sign(hash, key, { prehash: false, lowS: true, format: 'recovered' });
      ids.add(noble[0]!);
      expect(ecrecover(hash, noble.subarray(1), noble[0]! + 27), `key ${Buffer.from(key).toString('hex')}`).toBe(expected);
      expect(signHash(hash, key)).toEqual({ signature: noble.slice(1), recoveryId: noble[0] });
      expect(addressOf(key)).toBe(expected);
    }
    expect([...ids].sort()).toEqual([0, 1]);
  });
});
