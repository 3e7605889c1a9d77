/**
 * Durations as users type them (`500ms`, `30s`, `10m`, `1h`), as `kubectl
 * wait --timeout` takes them. A bare number is refused: seconds or
 * milliseconds would be a guess.
 */
import { CliUsageError } from './errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** The duration in milliseconds of `raw`, given for `--<flag>`. */
export function parseDuration(flag: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(raw.trim());
  if (match === null) throw new CliUsageError(`--${flag}: expected a duration such as 500ms, 30s or 10m, got ${JSON.stringify(raw)}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}
