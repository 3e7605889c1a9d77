/**
 * The decoder fast path's first step: copy a report's characters once, as
 * ASCII bytes, and scan them. The scan says whether
 * - every character after `0x` is a lowercase hex digit, and
 * - every digit the layout fixes at '0' is one: the zero padding of each
 *   uintN field and the leading zeros of each offset and length, given per
 *   64-digit ABI word as a count of leading zeros ({@link ZeroPrefixes}).
 *
 * Character i lands at byte i + 2, so the digits after `0x` start on a 32-bit
 * word boundary (word 1) and the caller can read four digits per word.
 *
 * The scan runs in WebAssembly SIMD (`scan.wat`, 16 characters per
 * instruction) when the runtime allows it: the report is copied straight into
 * the module's memory. The module comes through the package's
 * `#report-scan-wasm` import: as base64, compiled here on first use, or, under
 * the `workerd` condition, as a `.wasm` file the runtime compiled (workerd
 * refuses to compile WebAssembly from bytes but imports `.wasm` modules).
 * Where WebAssembly is missing or may not compile code (a
 * Content-Security-Policy without `wasm-unsafe-eval`, edge runtimes that only
 * run pre-compiled modules, engines without SIMD), the same scan runs in
 * JavaScript, four characters per 32-bit word. Both give the same answer; the
 * tests run the decoder on each.
 *
 * Measured on Node 20 for a V3 report with two signatures (1,474 characters):
 * the copy ~70 ns; the scan ~80 ns in WebAssembly, ~300 ns in JavaScript.
 */
import { REPORT_SCAN_WASM } from '#report-scan-wasm';

/**
 * How many leading '0' digits each ABI word of a layout's fixed part must
 * have, from the report's first word; built once per layout.
 */
export interface ZeroPrefixes {
  /** Distinct per layout, from 0: the slot of its table in the WebAssembly engine's cache. */
  readonly id: number;
  /** Per 64-digit word: its count of leading zeros (0 to 64). */
  readonly counts: Uint8Array;
}

/** One way to scan: a buffer to copy into and a scan over it. */
interface ScanEngine {
  readonly name: 'wasm' | 'js';
  /** Room for this many characters. */
  readonly capacity: number;
  readonly words: Uint32Array;
  readonly target: Uint8Array;
  /** Whether bytes [4, 4 + digits) of `words` pass the scan; `digits` is a multiple of 64. */
  readonly scan: (digits: number, zeros: ZeroPrefixes) => boolean;
}

const ENCODER = new TextEncoder();
/** Every engine in use is little-endian; checked, not assumed. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** '0000' as a word of the copy, whatever the byte order. */
export const Z4 = 0x30303030;

/** Reports up to this size reuse one buffer; longer ones (thousands of signatures) get their own. */
const RETAINED_BYTES = 1 << 16;

// ---------------------------------------------------------------------------
// JavaScript
// ---------------------------------------------------------------------------

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

/**
 * Whether each word's leading digits are '0' as counted. The 32-bit words
 * (four digits each) are OR-ed together: among hex digits only '0' (0x30) has
 * no bit outside 0x30, so the OR is '0000' exactly when every digit is '0'.
 * When the count is not a multiple of four, the 32-bit word holding the last
 * fixed digits has its free digits replaced by '0' first.
 */
function zeroPrefixesJs(w: Uint32Array, zeros: ZeroPrefixes): boolean {
  const counts = zeros.counts;
  let or = Z4;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i]!;
    const j = 1 + 16 * i;
    const whole = count >> 2;
    for (let k = 0; k < whole; k++) or |= w[j + k]!;
    const rest = count & 3;
    if (rest !== 0) {
      // The first `rest` characters of the word: its low bytes on a little-endian engine.
      const mask = LITTLE_ENDIAN ? (1 << (8 * rest)) - 1 : ~0 << (32 - 8 * rest);
      or |= (w[j + whole]! & mask) | (Z4 & ~mask);
    }
  }
  return or === Z4;
}

function jsEngine(capacity: number): ScanEngine {
  const buffer = new ArrayBuffer((capacity + 2 + 63) & ~63);
  const words = new Uint32Array(buffer);
  return {
    name: 'js',
    capacity,
    words,
    target: new Uint8Array(buffer, 2),
    scan: (digits, zeros) => lowercaseHexJs(words, digits) && zeroPrefixesJs(words, zeros),
  };
}

// ---------------------------------------------------------------------------
// WebAssembly
// ---------------------------------------------------------------------------

const PAGE = 1 << 16;

/** The bytes of a base64 string (the `#…-wasm` imports' binaries; atob is in every runtime). */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The WebAssembly engine, or undefined where the runtime cannot compile or run it. */
function wasmEngine(): ScanEngine | undefined {
  try {
    // Synchronous compilation is allowed for small modules everywhere (browsers cap it at 4 kB on the main thread).
    const module = typeof REPORT_SCAN_WASM === 'string' ? new WebAssembly.Module(base64Bytes(REPORT_SCAN_WASM)) : REPORT_SCAN_WASM;
    const instance = new WebAssembly.Instance(module, {});
    const memory = instance.exports['memory'] as WebAssembly.Memory;
    const scan = instance.exports['scan'] as (p: number, n: number, t: number, m: number) => number;
    // Page 0 holds the report, page 1 the tables; the memory never grows, so views stay valid.
    const bytes = new Uint8Array(memory.buffer);
    /**
     * The tables, a cache by layout id: a table marks each character of a
     * layout's fixed words, 0x00 fixed at '0', 0xff free. An entry serves only
     * the layout it was built for; another one with the same id gets its own.
     */
    const tables: { zeros: ZeroPrefixes; at: number }[] = [];
    let nextTable = PAGE;
    const tableOf = (zeros: ZeroPrefixes): number => {
      const cached = tables[zeros.id];
      if (cached !== undefined && cached.zeros === zeros) return cached.at;
      const size = 64 * zeros.counts.length;
      if (size > PAGE) throw new RangeError(`report-scan: a layout of ${zeros.counts.length} words does not fit a table`);
      if (nextTable + size > 2 * PAGE) {
        // Page 1 is full: start the cache over.
        tables.length = 0;
        nextTable = PAGE;
      }
      const at = nextTable;
      for (let i = 0, word = at; i < zeros.counts.length; i++, word += 64) {
        bytes.fill(0x00, word, word + zeros.counts[i]!);
        bytes.fill(0xff, word + zeros.counts[i]!, word + 64);
      }
      tables[zeros.id] = { zeros, at };
      nextTable += size;
      return at;
    };
    const engine: ScanEngine = {
      name: 'wasm',
      capacity: PAGE - 2,
      words: new Uint32Array(memory.buffer, 0, PAGE / 4),
      target: new Uint8Array(memory.buffer, 2, PAGE - 2),
      scan: (digits, zeros) => scan(4, digits, tableOf(zeros), 64 * zeros.counts.length) === 1,
    };
    // Prove it on known answers before trusting it.
    const probe: ZeroPrefixes = { id: 0, counts: new Uint8Array([4]) };
    const answers = (s: string): boolean => {
      ENCODER.encodeInto(s, engine.target);
      return engine.scan(64, probe);
    };
    const digits = '0123456789abcdef'.repeat(4);
    const trusted =
      answers('0x0000' + digits.slice(4)) &&
      !answers('0x0000' + digits.slice(4, -1) + 'F') &&
      !answers('0x0100' + digits.slice(4));
    return trusted ? engine : undefined;
  } catch {
    return undefined; // no WebAssembly, no SIMD, or code generation refused
  }
}

// ---------------------------------------------------------------------------
// The engine in use
// ---------------------------------------------------------------------------

let preferred: 'wasm' | 'js' = 'wasm';
/** The retained engine: chosen on first use, so importing the decoder compiles nothing. */
let engine: ScanEngine | undefined;

function retainedEngine(): ScanEngine {
  engine ??= (preferred === 'wasm' ? wasmEngine() : undefined) ?? jsEngine(RETAINED_BYTES - 2);
  return engine;
}

/**
 * Copy `s` (length n, n - 2 a multiple of 64 and at least 64 times the words
 * in `zeros`) and scan it. Returns the words when every character is ASCII,
 * every one after the first two a lowercase hex digit, and every zero prefix
 * in `zeros` all '0'; undefined otherwise. The words are reused by the next call.
 */
export function copyAndScan(s: string, n: number, zeros: ZeroPrefixes): Uint32Array | undefined {
  let e = retainedEngine();
  if (n > e.capacity) e = jsEngine(n);
  const { read, written } = ENCODER.encodeInto(s, e.target);
  if (read !== n || written !== n) return undefined;
  return e.scan(n - 2, zeros) ? e.words : undefined;
}

/**
 * Which engine scans: `'wasm'` (the default, where it compiles) or `'js'`.
 * For tests and benchmarks; returns the engine now in use.
 *
 * @internal
 */
export function useScanEngine(name: 'wasm' | 'js'): 'wasm' | 'js' {
  preferred = name;
  engine = undefined;
  return retainedEngine().name;
}
