import type { Stats } from './measure.js';
import type { Row } from './table.js';

/** A timing row from measured stats, with its ratio to `baseline` when given. */
export function timingRow(
  bench: string,
  name: string,
  stats: Map<string, Stats>,
  extra: Partial<Row> & { baselineKey?: string; key?: string } = {},
): Row {
  const { baselineKey, key, ...rest } = extra;
  const s = stats.get(key ?? name);
  if (s === undefined) throw new Error(`no stats for ${key ?? name}`);
  const row: Row = { bench, name, medianNs: s.medianNs, p99Ns: s.p99Ns, opsPerSec: s.opsPerSec, ...rest };
  if (baselineKey !== undefined) {
    const b = stats.get(baselineKey);
    if (b === undefined) throw new Error(`no stats for ${baselineKey}`);
    row.baseline = rest.baseline ?? baselineKey;
    row.ratio = s.medianNs / b.medianNs;
  }
  return row;
}

/** Median difference in µs between two measured contenders. */
export function deltaUs(stats: Map<string, Stats>, name: string, baseline: string): number {
  const a = stats.get(name);
  const b = stats.get(baseline);
  if (a === undefined || b === undefined) throw new Error(`no stats for ${name} or ${baseline}`);
  return (a.medianNs - b.medianNs) / 1_000;
}

export const signed = (n: number, digits = 1): string => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;
