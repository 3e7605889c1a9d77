/**
 * secp256k1 public-key recovery, as Ethereum's `ecrecover` precompile does
 * it, for {@link verifyReport}: libsecp256k1 compiled to WebAssembly (the
 * build tiny-secp256k1 2.x ships, whose tables make one recovery ~8–14 times
 * faster than `@noble/curves`; the verify benchmark's notes have the figures
 * and the options rejected).
 *
 * The binary comes through the package's `#secp256k1-wasm` import, compiled
 * here on first use: read from the `.wasm` file (Node, Bun: no 1.6 MB of
 * base64 to parse on import), as base64 (browsers, Deno, edge runtimes), or,
 * under the `workerd` condition, the `.wasm` module the runtime compiled. Only the module's own exports are used (its
 * JavaScript wrapper reads the file with `node:fs`, which browsers, workers
 * and edge runtimes lack): the hash and the signature are written into its
 * input buffers, `recover` fills the public-key buffer.
 *
 * Where the runtime refuses to compile WebAssembly from bytes (a Worker
 * bundled without the `workerd` condition), `@noble/curves` does the same
 * work in JavaScript, 7–40 times slower, with the same results: recovery
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

/** The module's exports this file uses. */
interface Secp256k1Exports {
  readonly memory: WebAssembly.Memory;
  readonly HASH_INPUT: WebAssembly.Global;
  readonly SIGNATURE_INPUT: WebAssembly.Global;
  readonly PUBLIC_KEY_INPUT: WebAssembly.Global;
  readonly PRIVATE_INPUT: WebAssembly.Global;
  recover(outputLength: number, recoveryId: number): number;
  signRecoverable(withExtraData: number): number;
  pointFromScalar(outputLength: number): number;
}

/** The instance's input and output buffers, views of its memory. */
interface Engine {
  readonly recover: (outputLength: number, recoveryId: number) => number;
  readonly signRecoverable: (withExtraData: number) => number;
  readonly pointFromScalar: (outputLength: number) => number;
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

/** The module's two imports: a seed for its context (only signing would use it) and its error callback. */
const IMPORTS = {
  './rand.js': {
    generateInt32: (): number => {
      const seed = new Int32Array(1);
      globalThis.crypto?.getRandomValues(seed);
      return seed[0]!;
    },
  },
  './validate_error.js': {
    throwError: (code: number): never => {
      throw new SdkError(`secp256k1: the WebAssembly module refused its input (code ${code})`);
    },
  },
};

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
  const exports = new WebAssembly.Instance(module, IMPORTS).exports as unknown as Secp256k1Exports;
  const view = (global: WebAssembly.Global, length: number): Uint8Array =>
    new Uint8Array(exports.memory.buffer, global.value as number, length);
  return {
    recover: exports.recover,
    signRecoverable: exports.signRecoverable,
    pointFromScalar: exports.pointFromScalar,
    privateKey: view(exports.PRIVATE_INPUT, 32),
    hash: view(exports.HASH_INPUT, 32),
    signature: view(exports.SIGNATURE_INPUT, 64),
    publicKey: view(exports.PUBLIC_KEY_INPUT, PUBLIC_KEY_LENGTH),
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
  if (engine.recover(PUBLIC_KEY_LENGTH, v - 27) !== 1) return undefined;
  return addressHex(keccak_256(engine.publicKey.subarray(1)));
}

/** The engine, loaded on first use. A grown memory detaches the views (the module allocates nothing here, but a stale view would fail silently). */
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
    engine.pointFromScalar(PUBLIC_KEY_LENGTH);
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
    const recoveryId = engine.signRecoverable(0);
    return { signature: engine.signature.slice(0, 64), recoveryId };
  } finally {
    engine.privateKey.fill(0);
  }
}
