/**
 * The decoder fast path's working copy of a report: its characters copied
 * once as ASCII bytes, and the check that every one after `0x` is a lowercase
 * hex digit.
 *
 * Character i lands at byte i + 2, so the digits after `0x` start on a 32-bit
 * word boundary (word 1) and the fast path can read four digits per word.
 *
 * The digit check runs in WebAssembly SIMD (`hex-check.wat`, 16 digits per
 * instruction) when the runtime allows it: the report is copied straight into
 * the module's memory. Where WebAssembly is missing or may not compile code
 * (a Content-Security-Policy without `wasm-unsafe-eval`, edge runtimes that
 * only run pre-compiled modules, engines without SIMD), the same check runs in
 * JavaScript, four digits per 32-bit word. Both give the same answer; the
 * tests run the decoder on each.
 *
 * Measured on Node 20 for a V3 report with two signatures (1,474 characters):
 * the copy ~70 ns, the check ~70 ns in WebAssembly and ~275 ns in JavaScript.
 */
import { HEX_CHECK_WASM_BASE64 } from '../../generated/wasm/hex-check.js';

/** The working copy as 32-bit words; digit i of the report (after `0x`) is byte 4 + i. */
export type ReportWords = Uint32Array;

/** One way to check digits: a buffer to copy into and a check over it. */
interface HexCheckEngine {
  readonly name: 'wasm' | 'js';
  /** Room for this many characters (plus two bytes of lead-in). */
  readonly capacity: number;
  readonly words: Uint32Array;
  readonly target: Uint8Array;
  /** Whether bytes [4, 4 + digits) are lowercase hex; `digits` is a multiple of 64. */
  readonly lowercaseHex: (words: Uint32Array, digits: number) => boolean;
}

const ENCODER = new TextEncoder();

/** Reports up to this size reuse one buffer; longer ones (thousands of signatures) get their own. */
const RETAINED_BYTES = 1 << 16;

/**
 * Four digits per word: for each byte b (all below 0x80, since the copy was
 * ASCII), bit 7 of b+0x50, b+0x46, b+0x1f and b+0x19 says b ≥ '0', b ≥ ':',
 * b ≥ 'a' and b ≥ 'g'; their XOR has bit 7 set exactly on '0'–'9' and 'a'–'f'
 * (no sum carries into the next byte). `bits` keeps bit 7 of every byte only
 * while all are digits. Four words per step: the digit count is a multiple of 64.
 */
function lowercaseHexJs(w: Uint32Array, digits: number): boolean {
  let bits = -1;
  const end = 1 + digits / 4;
  for (let j = 1; j < end; j += 4) {
    const a = w[j]!;
    const b = w[j + 1]!;
    const c = w[j + 2]!;
    const d = w[j + 3]!;
    bits &=
      ((a + 0x50505050) ^ (a + 0x46464646) ^ (a + 0x1f1f1f1f) ^ (a + 0x19191919)) &
      ((b + 0x50505050) ^ (b + 0x46464646) ^ (b + 0x1f1f1f1f) ^ (b + 0x19191919)) &
      ((c + 0x50505050) ^ (c + 0x46464646) ^ (c + 0x1f1f1f1f) ^ (c + 0x19191919)) &
      ((d + 0x50505050) ^ (d + 0x46464646) ^ (d + 0x1f1f1f1f) ^ (d + 0x19191919));
  }
  return (bits & 0x80808080) === (0x80808080 | 0);
}

function jsEngine(capacity: number): HexCheckEngine {
  const buffer = new ArrayBuffer((capacity + 2 + 63) & ~63);
  return { name: 'js', capacity, words: new Uint32Array(buffer), target: new Uint8Array(buffer, 2), lowercaseHex: lowercaseHexJs };
}

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The WebAssembly engine, or undefined where the runtime cannot compile or run it. */
function wasmEngine(): HexCheckEngine | undefined {
  try {
    // Synchronous compilation is allowed for small modules everywhere (browsers cap it at 4 kB on the main thread).
    const instance = new WebAssembly.Instance(new WebAssembly.Module(base64Bytes(HEX_CHECK_WASM_BASE64)), {});
    const memory = instance.exports['memory'] as WebAssembly.Memory;
    const check = instance.exports['lowercase_hex'] as (pointer: number, length: number) => number;
    const buffer = memory.buffer; // one page, never grown, so views stay valid
    const engine: HexCheckEngine = {
      name: 'wasm',
      capacity: buffer.byteLength - 2,
      words: new Uint32Array(buffer),
      target: new Uint8Array(buffer, 2),
      lowercaseHex: (_words, digits) => check(4, digits) === 1,
    };
    // Prove it on a known answer before trusting it.
    ENCODER.encodeInto('0x' + '0123456789abcdef'.repeat(4), engine.target);
    if (!engine.lowercaseHex(engine.words, 64)) return undefined;
    ENCODER.encodeInto('0x' + '0123456789abcdeF'.repeat(4), engine.target);
    if (engine.lowercaseHex(engine.words, 64)) return undefined;
    return engine;
  } catch {
    return undefined; // no WebAssembly, no SIMD, or code generation refused
  }
}

let preferred: 'wasm' | 'js' = 'wasm';
/** The retained engine: chosen on first use, so importing the decoder compiles nothing. */
let engine: HexCheckEngine | undefined;

function retainedEngine(): HexCheckEngine {
  engine ??= (preferred === 'wasm' ? wasmEngine() : undefined) ?? jsEngine(RETAINED_BYTES - 2);
  return engine;
}

/**
 * Copy `s` (length n, n - 2 a multiple of 64) and check its digits. Returns
 * the words when every character is ASCII and every one after the first two
 * is a lowercase hex digit; undefined otherwise. The words are reused by the
 * next call.
 */
export function copyLowercaseHex(s: string, n: number): ReportWords | undefined {
  let e = retainedEngine();
  if (n > e.capacity) e = jsEngine(n);
  const { read, written } = ENCODER.encodeInto(s, e.target);
  if (read !== n || written !== n) return undefined;
  return e.lowercaseHex(e.words, n - 2) ? e.words : undefined;
}

/**
 * Which engine checks digits: `'wasm'` (the default, where it compiles) or
 * `'js'`. For tests and benchmarks; returns the engine now in use.
 *
 * @internal
 */
export function useHexCheckEngine(name: 'wasm' | 'js'): 'wasm' | 'js' {
  preferred = name;
  engine = undefined;
  return retainedEngine().name;
}
