/**
 * secp256k1 public-key recovery, as Ethereum's `ecrecover` precompile does
 * it, for {@link verifyReport}: libsecp256k1 compiled to WebAssembly
 * (built by the repository's generator; 83 kB, 28 kB gzipped: its multiplication
 * tables are built in memory on first use rather than shipped), one recovery
 * several times faster than `@noble/curves` (the verify benchmark's notes
 * have the figures and the options rejected).
 *
 * The binary comes through the package's `#secp256k1-wasm` import, compiled
 * here on first use: read from the `.wasm` file (Node, Bun), as base64
 * (browsers, Deno, edge runtimes), or, under the `workerd` condition, the
 * `.wasm` module the runtime compiled. The module imports nothing: the hash
 * and the signature are written into its buffers, `recover` fills the
 * public-key buffer.
 *
 * Where the runtime refuses to compile WebAssembly from bytes (a Worker
 * bundled without the `workerd` condition), `@noble/curves` does the same
 * work in JavaScript, several times slower, with the same results: recovery
 * is exact either way, and both sign deterministically (RFC 6979, low s).
 *
 * Semantics are the precompile's: r and s in [1, n − 1], no low-s rule, the
 * recovery id 0 or 1 (v = 27 or 28) only; anything else recovers nothing.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { SECP256K1_WASM } from '#secp256k1-wasm';
import { SdkError } from '../core/sdk-error.js';
import { base64Bytes } from './scan.js';
import { addressHex, addressOfJs, ecrecoverJs, signHashJs } from './secp256k1-js.js';

/** The secp256k1 group order n, big-endian. */
const ORDER = new Uint8Array([
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
  0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
]);

/** Uncompressed public key: 0x04, then x and y. */
const PUBLIC_KEY_LENGTH = 65;

/** The module's exports (scripts/secp256k1-wasm/ecrecover.c): its buffers' addresses and the operations on them. */
interface Secp256k1Exports {
  readonly memory: WebAssembly.Memory;
  hash_buffer(): number;
  signature_buffer(): number;
  private_key_buffer(): number;
  public_key_buffer(): number;
  /** 1 and the key in the public-key buffer, or 0 when no key recovers. */
  recover(recoveryId: number): number;
  /** 1 and the key in the public-key buffer, or 0 for an invalid private key. */
  public_key_of(): number;
  /** The recovery id and r ‖ s in the signature buffer, or −1. */
  sign(): number;
}

/** The instance's operations and its buffers, views of its memory. */
interface Engine {
  readonly recover: (recoveryId: number) => number;
  readonly publicKeyOf: () => number;
  readonly sign: () => number;
  readonly privateKey: Uint8Array;
  readonly hash: Uint8Array;
  readonly signature: Uint8Array;
  readonly publicKey: Uint8Array;
}

let engine: Engine | undefined;
/** 'wasm' until the module fails to compile here (or a test says otherwise); then `@noble/curves`. */
let engineName: 'wasm' | 'js' = 'wasm';

/**
 * Chooses the implementation (tests run every check with both); returns the
 * one in use before. Not part of the public API.
 */
export function useSecp256k1Engine(name: 'wasm' | 'js'): 'wasm' | 'js' {
  const before = engineName;
  engineName = name;
  return before;
}

/** The engine in use: the WebAssembly module, or undefined for `@noble/curves` (the module cannot be compiled here). */
function wasmEngine(): Engine | undefined {
  if (engineName === 'js') return undefined;
  try {
    return ready();
  } catch {
    engineName = 'js';
    return undefined;
  }
}

/** The module from what `#secp256k1-wasm` gives: base64, a reader of the `.wasm` file, or the module itself. */
function compiled(source: typeof SECP256K1_WASM): WebAssembly.Module {
  if (typeof source === 'string') return new WebAssembly.Module(base64Bytes(source));
  if (typeof source !== 'function') return source;
  const bytes = source();
  // No .wasm file beside the module (an app bundled for Node): the caller falls back to JavaScript.
  if (bytes === undefined) throw new SdkError('secp256k1: the .wasm file is not beside its module');
  return new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
}

/** Compiles (once) and instantiates the module. */
function loadEngine(): Engine {
  let module: WebAssembly.Module;
  try {
    module = compiled(SECP256K1_WASM);
  } catch (cause) {
    // workerd (and any runtime refusing code generation from bytes) needs the .wasm module of the `workerd` condition.
    throw new SdkError(
      `cannot verify report signatures here: this runtime refused to compile the secp256k1 WebAssembly module (${String(cause)}); ` +
        'on Cloudflare Workers bundle with the `workerd` condition, which imports it as a .wasm module',
    );
  }
  const exports = new WebAssembly.Instance(module, {}).exports as unknown as Secp256k1Exports;
  const view = (address: number, length: number): Uint8Array => new Uint8Array(exports.memory.buffer, address, length);
  return {
    recover: exports.recover,
    publicKeyOf: exports.public_key_of,
    sign: exports.sign,
    privateKey: view(exports.private_key_buffer(), 32),
    hash: view(exports.hash_buffer(), 32),
    signature: view(exports.signature_buffer(), 64),
    publicKey: view(exports.public_key_buffer(), PUBLIC_KEY_LENGTH),
  };
}

/** Whether 32 big-endian bytes at `offset` are a scalar in [1, n − 1]. */
function isScalar(bytes: Uint8Array, offset: number): boolean {
  let zero = true;
  for (let i = 0; i < 32; i++) {
    const b = bytes[offset + i]!;
    if (b !== 0) zero = false;
    const n = ORDER[i]!;
    if (b !== n) {
      // The first byte that differs decides the comparison with n.
      if (b > n) return false;
      for (let j = i + 1; j < 32 && zero; j++) if (bytes[offset + j] !== 0) zero = false;
      return !zero;
    }
  }
  return false; // equal to n
}

/**
 * What `ecrecover(hash, v, r, s)` returns, as a lowercase `0x` address, or
 * `undefined` where the precompile returns nothing: `signature` is r ‖ s
 * (64 bytes), `v` is 27 or 28 for a recovery.
 */
export function ecrecover(hash: Uint8Array, signature: Uint8Array, v: number): string | undefined {
  if ((v !== 27 && v !== 28) || !isScalar(signature, 0) || !isScalar(signature, 32)) return undefined;
  const engine = wasmEngine();
  if (engine === undefined) return ecrecoverJs(hash, signature, v);
  engine.hash.set(hash);
  engine.signature.set(signature);
  // 0: r is not the x of a point, or the recovered key is the point at infinity.
  if (engine.recover(v - 27) !== 1) return undefined;
  return addressHex(keccak_256(engine.publicKey.subarray(1)));
}

/** The engine, loaded on first use. A grown memory would detach the views (the module never grows it: it has no allocator). */
function ready(): Engine {
  if (engine === undefined || engine.hash.byteLength === 0) engine = loadEngine();
  return engine;
}

/** A valid secp256k1 private key (32 bytes, in [1, n − 1]). */
function checkPrivateKey(privateKey: Uint8Array): void {
  if (privateKey.length !== 32 || !isScalar(privateKey, 0)) throw new SdkError('secp256k1: a private key is 32 bytes in [1, n - 1]');
}

/**
 * The Ethereum address of a private key, lowercase `0x`. For made-up keys
 * (the sandbox's oracle network, tests): the key is copied into the
 * module's memory and cleared after.
 */
export function addressOf(privateKey: Uint8Array): string {
  checkPrivateKey(privateKey);
  const engine = wasmEngine();
  if (engine === undefined) return addressOfJs(privateKey);
  try {
    engine.privateKey.set(privateKey);
    engine.publicKeyOf();
    return addressHex(keccak_256(engine.publicKey.subarray(1)));
  } finally {
    engine.privateKey.fill(0);
  }
}

/**
 * An ECDSA signature of a 32-byte hash (RFC 6979, low s), as `ecrecover`
 * takes it: r ‖ s (64 bytes) and the recovery id (v − 27). For made-up keys
 * only: the sandbox signs its reports like an oracle network.
 */
export function signHash(hash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recoveryId: number } {
  checkPrivateKey(privateKey);
  const engine = wasmEngine();
  if (engine === undefined) return signHashJs(hash, privateKey);
  try {
    engine.hash.set(hash);
    engine.privateKey.set(privateKey);
    const recoveryId = engine.sign();
    return { signature: engine.signature.slice(0, 64), recoveryId };
  } finally {
    engine.privateKey.fill(0);
  }
}
