/**
 * Text from a server or a file, made safe and measured for a terminal.
 *
 * `visible` escapes every control character (C0, DEL and C1) as gh and
 * kubectl do, so a value can neither split a table's row (`\n`), move the
 * cursor, recolour the terminal (CSI, `\x1b[31m`) nor set its title (OSC):
 * the escape character itself is shown as `\x1b`, which disarms the whole
 * sequence. Every value printed outside JSON (table cells, messages, status
 * lines) goes through it; JSON escapes C0 itself, and `jsonText` adds DEL
 * and C1.
 *
 * `displayWidth` counts terminal columns: East Asian wide and fullwidth
 * characters and emoji take two, combining marks and zero-width characters
 * none. Hand-written over a few ranges rather than a dependency: the CLI
 * needs only these, and JavaScript's `\p{…}` classes cover the marks and
 * emoji.
 */

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/** C0, DEL and C1: the characters a terminal acts on rather than prints. */
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;

/** `text` with each control character as a visible escape (`\n`, `\t`, `\r`, else `\xHH`). */
export function visible(text: string): string {
  return text.replace(CONTROLS, (char) => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** JSON text with DEL and C1 escaped as `\u00XX` too (JSON.stringify leaves them raw); still the same JSON value. */
export function jsonText(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`);
}

const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const EMOJI = /\p{Emoji_Presentation}/u;

/** East Asian Wide (W) and Fullwidth (F) ranges: Hangul Jamo, CJK, kana, Hangul syllables, fullwidth forms, the supplementary ideograph planes. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x3fffd],
];

/** The columns one character takes. */
function charWidth(char: string): number {
  const code = char.codePointAt(0)!;
  if (code < 0x300) return 1;
  if (ZERO_WIDTH.test(char)) return 0;
  if (WIDE.some(([low, high]) => code >= low && code <= high) || EMOJI.test(char)) return 2;
  return 1;
}

/** The columns `text` takes on a terminal (after `visible`: no control characters). */
export function displayWidth(text: string): number {
  // Plain ASCII, the common case, is one column a character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** `text` padded with spaces to `width` columns. */
export function padToWidth(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

/** `text` cut to at most `width` columns, ending in `…` when cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const char of text) {
    const next = charWidth(char);
    if (used + next > width - 1) break;
    kept += char;
    used += next;
  }
  return `${kept}…`;
}
