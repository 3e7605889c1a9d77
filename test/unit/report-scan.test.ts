import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyAndScan, useScanEngine, type ZeroPrefixes } from '../../src/reports/scan.js';

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

/** Layout ids of this file's tables, apart from the decoder's (0 to 11). */
let nextId = 100;
const layout = (...counts: number[]): ZeroPrefixes => ({ id: nextId++, counts: Uint8Array.from(counts) });
const replaceAt = (s: string, index: number, c: string): string => s.slice(0, index) + c + s.slice(index + c.length);

afterEach(() => {
  vi.unstubAllGlobals();
  useScanEngine('wasm');
});

describe.each(['wasm', 'js'] as const)('copyAndScan [%s]', (engine) => {
  it(`runs on the ${engine} engine here`, () => {
    expect(useScanEngine(engine)).toBe(engine);
  });

  it('accepts exactly the lowercase hex digits, at every position of a 64-digit word', () => {
    useScanEngine(engine);
    const free = layout(0); // the first word is scanned with a table, the second without
    const valid = '0x' + DIGITS.repeat(8); // 128 digits: two words
    expect(copyAndScan(valid, valid.length, free)).toBeInstanceOf(Uint32Array);
    const wrong: string[] = [];
    for (const position of [...Array.from({ length: 64 }, (_, i) => i), 64, 80, 100, 127]) {
      for (const c of CHARACTERS) {
        // Astral characters take two code units; keep the length.
        const report = replaceAt(valid, 2 + position, c);
        const accepted = copyAndScan(report, report.length, free) !== undefined;
        if (accepted !== DIGITS.includes(c)) wrong.push(`${JSON.stringify(c)} at ${position}: ${accepted}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('requires each word to start with its count of zeros, and no more', () => {
    useScanEngine(engine);
    const wrong: string[] = [];
    for (const count of [1, 2, 3, 4, 5, 15, 16, 17, 31, 48, 56, 62, 63, 64]) {
      for (const word of [0, 1, 2]) {
        const counts = [0, 0, 0];
        counts[word] = count;
        const zeros = layout(...counts);
        const base = '0x' + 'f'.repeat(64 * word) + '0'.repeat(64) + 'f'.repeat(64 * (3 - word));
        const at = (digit: number): number => 2 + 64 * word + digit;
        const cases: [string, string, boolean][] = [
          ['all zeros', base, true],
          ['a non-zero last fixed digit', replaceAt(base, at(count - 1), '1'), false],
          ['a non-zero first fixed digit', replaceAt(base, at(0), 'a'), false],
        ];
        if (count < 64) cases.push(['a non-zero first free digit', replaceAt(base, at(count), '9'), true]);
        for (const [name, report, want] of cases) {
          if ((copyAndScan(report, report.length, zeros) !== undefined) !== want) wrong.push(`${count} zeros in word ${word}, ${name}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps each layout to its own counts', () => {
    useScanEngine(engine);
    const strict = layout(56);
    const loose = layout(16);
    const report = '0x' + '0'.repeat(16) + '1'.repeat(48);
    expect(copyAndScan(report, report.length, strict)).toBeUndefined();
    expect(copyAndScan(report, report.length, loose)).toBeDefined();
    expect(copyAndScan(report, report.length, strict)).toBeUndefined();
  });

  it('checks a layout that reuses another layout\'s id against its own counts', () => {
    useScanEngine(engine);
    const id = nextId++;
    const strict: ZeroPrefixes = { id, counts: Uint8Array.from([56]) };
    const loose: ZeroPrefixes = { id, counts: Uint8Array.from([4]) };
    const report = '0x0000' + '1'.repeat(60);
    expect(copyAndScan(report, report.length, strict)).toBeUndefined();
    expect(copyAndScan(report, report.length, loose)).toBeDefined();
    expect(copyAndScan(report, report.length, strict)).toBeUndefined();
  });

  it('keeps answering when the tables fill their page', () => {
    useScanEngine(engine);
    const report = '0x' + '0'.repeat(56) + '1'.repeat(8) + '2'.repeat(64 * 22);
    // 23 words of 64 bytes each: a page holds 44 such tables.
    for (let i = 0; i < 100; i++) {
      const counts = new Uint8Array(23);
      counts[0] = i % 2 === 0 ? 56 : 57;
      expect(copyAndScan(report, report.length, { id: nextId++, counts }) !== undefined).toBe(i % 2 === 0);
    }
  });

  it('copies the report so that digit i is byte 4 + i', () => {
    useScanEngine(engine);
    const report = '0x' + 'fedcba9876543210'.repeat(4);
    const words = copyAndScan(report, report.length, layout(0))!;
    const bytes = new Uint8Array(words.buffer, words.byteOffset);
    expect(String.fromCharCode(...bytes.subarray(4, 4 + 64))).toBe(report.slice(2));
  });

  it('scans reports longer than the retained buffer', () => {
    useScanEngine(engine);
    const zeros = layout(62);
    const long = '0x' + '0'.repeat(62) + 'ab'.repeat(40_000 - 31); // 80,000 digits
    expect(copyAndScan(long, long.length, zeros)).toBeDefined();
    expect(copyAndScan(long.slice(0, -1) + 'g', long.length, zeros)).toBeUndefined();
    expect(copyAndScan(long.slice(0, -1) + 'A', long.length, zeros)).toBeUndefined();
    expect(copyAndScan(replaceAt(long, 3, '1'), long.length, zeros)).toBeUndefined();
    // The retained buffer still answers after a long report.
    expect(copyAndScan('0x' + '1'.repeat(64), 66, layout(0))).toBeDefined();
  });
});

describe('engine choice', () => {
  it('falls back to JavaScript where WebAssembly is missing', () => {
    vi.stubGlobal('WebAssembly', undefined);
    expect(useScanEngine('wasm')).toBe('js');
    expect(copyAndScan('0x' + 'a'.repeat(64), 66, layout(0))).toBeDefined();
    expect(copyAndScan('0x' + 'a'.repeat(63) + 'G', 66, layout(0))).toBeUndefined();
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
    expect(useScanEngine('wasm')).toBe('js');
  });
});
