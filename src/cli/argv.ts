/**
 * A command's arguments split into flags and positionals by
 * `node:util.parseArgs` (the one argument parser of the command line),
 * against the flags that command knows: `--name value`, `--name=value`,
 * `--switch`, `--switch=false`, and the short forms a flag declares (`-h`).
 * An unknown flag is a usage error naming it, with the nearest known one.
 *
 * parseArgs runs non-strict and its tokens are read here: strict mode's
 * errors name parseArgs' own terms (`Unknown option '--limt'`) and cannot
 * suggest the nearest flag, nor take `--switch=false`.
 */
import { parseArgs as parseTokens } from 'node:util';
import { editDistance } from '../core/edit-distance.js';
import { CliUsageError } from './errors.js';

export interface FlagSpec {
  /** Takes no value (`--all`); a value may still be given as `--flag=false`. */
  readonly boolean?: boolean;
  /** A one-letter form (`h` for `-h`). */
  readonly short?: string;
}

export interface ParsedArgs {
  /** Every value given per flag, in order. */
  readonly flags: Map<string, string[]>;
  readonly positionals: string[];
}

/** `help` (with `-h`) is known to every command. */
const HELP: FlagSpec = { boolean: true, short: 'h' };

/**
 * `args` parsed against the `known` flags. `notHere` explains a flag the
 * command line has but this command does not take (`--all` on a single
 * resource), instead of calling it unknown.
 */
export function parseArgs(args: readonly string[], known: ReadonlyMap<string, FlagSpec>, notHere?: (flag: string) => string | undefined): ParsedArgs {
  const specs = new Map(known);
  if (!specs.has('help')) specs.set('help', HELP);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple: true }> = {};
  for (const [name, spec] of specs) {
    options[name] = { type: spec.boolean ? 'boolean' : 'string', multiple: true, ...(spec.short ? { short: spec.short } : {}) };
  }
  const { tokens } = parseTokens({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const spec = specs.get(token.name);
    if (spec === undefined) {
      const reason = notHere?.(token.name);
      if (reason !== undefined) throw new CliUsageError(reason);
      const near = nearest(token.name, [...specs.keys()]);
      throw new CliUsageError(`unknown flag ${token.rawName}${near ? ` (did you mean --${near}?)` : ''}`);
    }
    let value = token.value;
    if (value === undefined) {
      if (!spec.boolean) throw new CliUsageError(`--${token.name}: expected a value`);
      value = 'true';
    }
    flags.set(token.name, [...(flags.get(token.name) ?? []), value]);
  }
  return { flags, positionals };
}

/** The closest name by edit distance, when it is close enough to be a typo. */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The last value of a flag, or undefined. */
export function lastValue(args: ParsedArgs, name: string): string | undefined {
  const values = args.flags.get(name);
  return values?.[values.length - 1];
}

/** A boolean flag's value: absent is false. */
export function isSet(args: ParsedArgs, name: string): boolean {
  const value = lastValue(args, name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new CliUsageError(`--${name}: expected no value, true or false, got ${JSON.stringify(value)}`);
}
