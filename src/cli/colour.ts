/**
 * JSON in colour for a terminal (keys, strings, and numbers, booleans and
 * null each their own), as `gh` and `jq` print it. Only on a terminal and
 * never with NO_COLOR set (https://no-color.org); a pipe always gets plain
 * JSON.
 */
import type { CliIo } from './io.js';

const KEY = '\x1b[34m';
const STRING = '\x1b[32m';
const LITERAL = '\x1b[33m';
const RESET = '\x1b[0m';

/** Whether stdout gets colour: a terminal, and NO_COLOR unset or empty. */
export function wantsColour(io: CliIo): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR;
}

/** Pretty JSON text with its tokens coloured. */
export function colourJson(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, (match, string: string | undefined, colon: string | undefined, literal: string | undefined) => {
    if (string !== undefined) return colon ? `${KEY}${string}${RESET}${colon}` : `${STRING}${string}${RESET}`;
    return `${LITERAL}${literal ?? match}${RESET}`;
  });
}
