/**
 * Splits a command's arguments into flags and positionals, against the flags
 * that command knows: `--name value`, `--name=value`, `--switch`. An unknown
 * flag is a usage error naming it, with the nearest known one.
 */
import { editDistance } from '../core/edit-distance.js';
import { CliUsageError } from './errors.js';

export interface FlagSpec {
  /** Takes no value (`--all`); a value may still be given as `--flag=false`. */
  readonly boolean?: boolean;
}

export interface ParsedArgs {
  /** Every value given per flag, in order. */
  readonly flags: Map<string, string[]>;
  readonly positionals: string[];
}

export function parseArgs(args: readonly string[], known: ReadonlyMap<string, FlagSpec>): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg === '-h') flags.set('help', ['true']);
      else positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals < 0 ? undefined : equals);
    const spec = known.get(name);
    if (spec === undefined) {
      const near = nearest(name, [...known.keys()]);
      throw new CliUsageError(`unknown flag --${name}${near ? ` (did you mean --${near}?)` : ''}`);
    }
    let value: string;
    if (equals >= 0) value = arg.slice(equals + 1);
    else if (spec.boolean) value = args[i + 1] === 'true' || args[i + 1] === 'false' ? args[++i]! : 'true';
    else {
      if (i + 1 >= args.length) throw new CliUsageError(`--${name}: expected a value`);
      value = args[++i]!;
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
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
