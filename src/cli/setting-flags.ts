/**
 * The settings given as flags (`--api-key`, `--api-secret`, `--base-url`,
 * `--network`, `--ws-url`), with a credential given as `-` read from
 * standard input, as `gh auth login --with-token` does: a secret typed in
 * argv shows in `ps` and in the shell's history. One line is read (its
 * line break dropped); only one flag can read stdin, and not together with
 * `--data @-`.
 */
import { lastValue, type ParsedArgs } from './argv.js';
import { FLAG_OF } from './credentials.js';
import { CliUsageError } from './errors.js';
import { readAllStdin, type CliIo } from './io.js';
import { SETTING_KEYS, type ApiSettings } from './profiles.js';

/** Settings that may be read from stdin with `-`. */
const SECRET_KEYS: ReadonlySet<keyof ApiSettings> = new Set(['apiKey', 'apiSecret']);

/** The settings given as flags, `-` read from stdin. */
export async function settingFlags(args: ParsedArgs, io: CliIo): Promise<Partial<Record<keyof ApiSettings, string>>> {
  const flags: Partial<Record<keyof ApiSettings, string>> = {};
  const fromStdin = SETTING_KEYS.filter((key) => SECRET_KEYS.has(key) && lastValue(args, FLAG_OF[key]) === '-');
  if (fromStdin.length > 1) throw new CliUsageError(`${fromStdin.map((key) => `--${FLAG_OF[key]}`).join(' and ')}: only one value can be read from stdin`);
  if (fromStdin.length === 1 && lastValue(args, 'data') === '@-') throw new CliUsageError(`--${FLAG_OF[fromStdin[0]!]} - and --data @-: only one can read stdin`);
  for (const key of SETTING_KEYS) {
    const value = lastValue(args, FLAG_OF[key]);
    if (value === undefined) continue;
    flags[key] = value === '-' && SECRET_KEYS.has(key) ? await secretFromStdin(FLAG_OF[key], io) : value;
  }
  return flags;
}

async function secretFromStdin(flag: string, io: CliIo): Promise<string> {
  if (io.stdin === undefined) throw new CliUsageError(`--${flag} -: no standard input to read`);
  const value = (await readAllStdin(io.stdin)).replace(/\r?\n$/, '');
  if (value === '') throw new CliUsageError(`--${flag} -: standard input was empty`);
  return value;
}
