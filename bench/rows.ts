import { judge, median, pairedDifferences, pairedRatios, spreadOf, type Goal, type Spread } from './harness.js';
import type { Stats } from './measure.js';
import type { Row } from './table.js';

function statsOf(stats: Map<string, Stats>, key: string): Stats {
  const s = stats.get(key);
  if (s === undefined) throw new Error(`no stats for ${key}`);
  return s;
}

/** Time of `name` over time of `baseline`, round by round: median, quartiles, range, rounds. */
export function ratioSpread(stats: Map<string, Stats>, name: string, baseline: string): Spread {
  return spreadOf(pairedRatios(statsOf(stats, name).perRound, statsOf(stats, baseline).perRound));
}

/** A timing row from measured stats, with its per-round ratio to `baseline` when given. */
export function timingRow(
  bench: string,
  name: string,
  stats: Map<string, Stats>,
  extra: Partial<Row> & { baselineKey?: string; key?: string } = {},
): Row {
  const { baselineKey, key, ...rest } = extra;
  const s = statsOf(stats, key ?? name);
  const row: Row = { bench, name, medianNs: s.medianNs, p99Ns: s.p99Ns, opsPerSec: s.opsPerSec, ...rest };
  if (baselineKey !== undefined) {
    const spread = ratioSpread(stats, key ?? name, baselineKey);
    row.baseline = rest.baseline ?? baselineKey;
    row.ratio = spread.median;
    row.ratioSpread = spread;
  }
  return row;
}

/** Median of the per-round differences in µs between two measured contenders. */
export function deltaUs(stats: Map<string, Stats>, name: string, baseline: string): number {
  return median(pairedDifferences(statsOf(stats, name).perRound, statsOf(stats, baseline).perRound)) / 1_000;
}

/**
 * A goal judged on a spread of per-round figures: `pass` on the median, or
 * "undecided" with the spread (in the goal's own terms, via `show`) when the
 * goal lies inside its interquartile range.
 */
export function verdict(spread: Spread, goal: Goal, show: (x: number) => string): Pick<Row, 'pass' | 'result'> {
  const v = judge(spread, goal);
  if (v === 'undecided') return { pass: 'undecided', result: `undecided: spread ${show(spread.min)}–${show(spread.max)}` };
  return { pass: v === 'pass' };
}

export const signed = (n: number, digits = 1): string => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;
