import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyLowercaseHex, useHexCheckEngine } from '../../src/streams/report-hex-copy.js';

const DIGITS = '0123456789abcdef';
/** Every ASCII character, the rest of Latin-1, and characters whose low byte is a digit. */
const CHARACTERS = [
  ...Array.from({ length: 256 }, (_, code) => String.fromCharCode(code)),
  '\u0130', // low byte 0x30 ('0')
  '\u0161', // low byte 0x61 ('a')
  '\u0660', // ARABIC-INDIC DIGIT ZERO
  '\uff10', // FULLWIDTH DIGIT ZERO
  '\u{1f600}',
];

afterEach(() => {
  vi.unstubAllGlobals();
  useHexCheckEngine('wasm');
});

describe.each(['wasm', 'js'] as const)('copyLowercaseHex [%s]', (engine) => {
  it(`runs on the ${engine} engine here`, () => {
    expect(useHexCheckEngine(engine)).toBe(engine);
  });

  it('accepts exactly the lowercase hex digits, at every position of a 64-byte block', () => {
    useHexCheckEngine(engine);
    const valid = '0x' + DIGITS.repeat(8); // 128 digits: two blocks of 64
    expect(copyLowercaseHex(valid, valid.length)).toBeInstanceOf(Uint32Array);
    const wrong: string[] = [];
    for (const position of [...Array.from({ length: 64 }, (_, i) => i), 64, 100, 127]) {
      for (const c of CHARACTERS) {
        // Astral characters take two code units; keep the length a multiple of 64.
        const report = valid.slice(0, 2 + position) + c + valid.slice(2 + position + c.length);
        const accepted = copyLowercaseHex(report, report.length) !== undefined;
        if (accepted !== DIGITS.includes(c)) wrong.push(`${JSON.stringify(c)} at ${position}: ${accepted}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('copies the report so that digit i is byte 4 + i', () => {
    useHexCheckEngine(engine);
    const report = '0x' + 'fedcba9876543210'.repeat(4);
    const words = copyLowercaseHex(report, report.length)!;
    const bytes = new Uint8Array(words.buffer, words.byteOffset);
    expect(String.fromCharCode(...bytes.subarray(4, 4 + 64))).toBe(report.slice(2));
  });

  it('checks reports longer than the retained buffer', () => {
    useHexCheckEngine(engine);
    const long = '0x' + 'ab'.repeat(40_000); // 80,000 digits
    expect(copyLowercaseHex(long, long.length)).toBeDefined();
    expect(copyLowercaseHex(long.slice(0, -1) + 'g', long.length)).toBeUndefined();
    expect(copyLowercaseHex(long.slice(0, -1) + 'A', long.length)).toBeUndefined();
    // The retained buffer still answers after a long report.
    expect(copyLowercaseHex('0x' + '1'.repeat(64), 66)).toBeDefined();
  });
});

describe('engine choice', () => {
  it('falls back to JavaScript where WebAssembly is missing', () => {
    vi.stubGlobal('WebAssembly', undefined);
    expect(useHexCheckEngine('wasm')).toBe('js');
    expect(copyLowercaseHex('0x' + 'a'.repeat(64), 66)).toBeDefined();
    expect(copyLowercaseHex('0x' + 'a'.repeat(63) + 'G', 66)).toBeUndefined();
  });

  it('falls back to JavaScript where compiling WebAssembly is refused', () => {
    vi.stubGlobal('WebAssembly', {
      ...WebAssembly,
      Module: class {
        constructor() {
          throw new WebAssembly.CompileError('Wasm code generation disallowed by embedder');
        }
      },
    });
    expect(useHexCheckEngine('wasm')).toBe('js');
  });
});
