/**
 * `--data` (and `--trust`): JSON given inline, from a file (`@file.json`)
 * or from stdin (`@-`). JSON that does not parse is a usage error with its line, column and
 * position.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliUsageError } from './errors.js';
import { readAllStdin, type CliIo } from './io.js';

/** `--data`'s JSON: inline, `@file` or `@-`. */
export async function readBody(spec: string, io: CliIo): Promise<unknown> {
  return readJsonArgument('--data', spec, io);
}

/** A JSON argument given inline, as `@file` or as `@-` (stdin); errors name `flag` (`--data`, `--trust`). */
export async function readJsonArgument(flag: string, spec: string, io: CliIo): Promise<unknown> {
  const { text, source } = await readArgumentText(flag, spec, io);
  return parseJson(text, source);
}

/**
 * The text of an argument given inline, as `@file` or as `@-` (stdin), and
 * how to name where it came from in an error (`--data @- (stdin)`).
 */
export async function readArgumentText(flag: string, spec: string, io: CliIo): Promise<{ text: string; source: string }> {
  if (spec === '@-') {
    if (io.stdin === undefined) throw new CliUsageError(`${flag} @-: no standard input to read`);
    return { text: await readAllStdin(io.stdin), source: `${flag} @- (stdin)` };
  }
  if (spec.startsWith('@')) {
    const file = resolve(io.cwd ?? process.cwd(), spec.slice(1));
    try {
      return { text: await readFile(file, 'utf8'), source: `${flag} ${spec}` };
    } catch (error) {
      throw new CliUsageError(`${flag} ${spec}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { text: spec, source: flag };
}

/** JSON.parse, with a failure turned into where the text went wrong (line, column, position). */
export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).split(/ in JSON at position|, "/)[0]!;
    const position = failurePosition(text);
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    throw new CliUsageError(`${source}: not valid JSON at line ${line}, column ${column} (position ${position}): ${detail}`);
  }
}

/**
 * Where JSON.parse first fails, whatever the runtime's message says (V8's
 * wording and whether it gives a position change between Node versions): the
 * shortest prefix that fails for a reason other than ending early. A prefix
 * is fine, truncated, or broken, and once broken every longer one is too.
 */
function failurePosition(text: string): number {
  const broken = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      const message = String((error as Error).message);
      const at = /at position (\d+)/.exec(message);
      if (at !== null) return Number(at[1]) < length;
      return !/end of JSON input|Unterminated string|Unexpected end/i.test(message);
    }
  };
  let low = 0;
  let high = text.length;
  if (!broken(high)) return text.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (broken(middle)) high = middle;
    else low = middle + 1;
  }
  return Math.max(0, low - 1);
}
