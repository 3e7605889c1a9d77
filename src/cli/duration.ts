/**
 * Durations as users type them (`500ms`, `30s`, `10m`, `1h`), as `kubectl
 * wait --timeout` takes them. A bare number is refused unless the flag once
 * took plain milliseconds (`--wait-interval`): there it stays milliseconds,
 * so scripts written for it keep working; anywhere else, seconds or
 * milliseconds would be a guess.
 */
import { CliUsageError } from './errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** How a flag reads its duration. */
export interface DurationForm {
  /** A bare number is this many milliseconds' worth (the flag once took plain ms); refused when absent. */
  readonly bareMilliseconds?: boolean;
}

/** The duration in milliseconds of `raw`, given for `--<flag>`. */
export function parseDuration(flag: string, raw: string, form: DurationForm = {}): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (match === null || (match[2] === undefined && form.bareMilliseconds !== true)) {
    const examples = form.bareMilliseconds ? '500ms, 2s or 1m (a bare number is milliseconds)' : '500ms, 30s or 10m';
    throw new CliUsageError(`--${flag}: expected a duration such as ${examples}, got ${JSON.stringify(raw)}`);
  }
  return Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!;
}
