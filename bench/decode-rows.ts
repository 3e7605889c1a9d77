/**
 * 8. Decode: the rows of `benchDecode()` (bench/decode.ts), with each row's
 * time ratio to viem's on the same version (the median of the per-round
 * ratios, with their spread), and the goal on ours: at least 40× faster than
 * the faster generic decoder (viem or ethers), judged on the median of the
 * per-round speed-ups.
 */
import { invertSpread, pairedRatios, spreadOf, type Spread } from './harness.js';
import { benchDecode, type DecodeBenchOptions, type DecodeBenchResult } from './decode.js';
import { verdict } from './rows.js';
import type { Row } from './table.js';

const BENCH = '8 decode';
export const DECODE_GOAL_SPEEDUP = 40;

const times = (x: number): string => `${x.toFixed(x < 1 ? 2 : x < 10 ? 1 : 0)}×`;
/** A speed-up's spread as text: median, then IQR and range. */
const speedText = (s: Spread): string => `${times(s.median)} (IQR ${times(s.q1)}–${times(s.q3)}, ${times(s.min)}–${times(s.max)})`;

export async function benchDecodeRows(options: DecodeBenchOptions = {}): Promise<Row[]> {
  const results = await benchDecode(options);
  const byVersion = new Map<string, DecodeBenchResult[]>();
  for (const r of results) {
    const version = r.name.split(' ')[0] as string;
    byVersion.set(version, [...(byVersion.get(version) ?? []), r]);
  }
  const rows: Row[] = [];
  for (const list of byVersion.values()) {
    const find = (tag: string): DecodeBenchResult | undefined => list.find((r) => r.name.includes(tag));
    const viem = find('(viem)');
    const ethers = find('(ethers)');
    const ours = find('(ours)');
    const generic = [viem, ethers].filter((r): r is DecodeBenchResult => r !== undefined);
    const fastest = generic.reduce<DecodeBenchResult | undefined>((a, b) => (a === undefined || b.medianNs < a.medianNs ? b : a), undefined);
    /** Time of `r` over time of `base`, round by round. */
    const ratio = (r: DecodeBenchResult, base: DecodeBenchResult): Spread => spreadOf(pairedRatios(r.perRound, base.perRound));
    for (const r of list) {
      const row: Row = {
        bench: BENCH,
        name: r.name,
        medianNs: r.medianNs,
        p99Ns: r.p99Ns,
        opsPerSec: r.opsPerSec,
        opsUnit: 'reports/s',
      };
      if (viem !== undefined && r !== viem) {
        const spread = ratio(r, viem);
        row.baseline = viem.name;
        row.ratio = spread.median;
        row.ratioSpread = spread;
        row.note = `${speedText(invertSpread(spread))} viem's speed`;
      }
      if (r === ours && fastest !== undefined) {
        const speedUp = invertSpread(ratio(r, fastest));
        const fastestName = fastest === viem ? 'viem' : 'ethers';
        row.goal = `≥ ${DECODE_GOAL_SPEEDUP}× the faster generic (${fastestName})`;
        Object.assign(row, verdict(speedUp, { atLeast: DECODE_GOAL_SPEEDUP }, times));
        row.note = `${speedText(speedUp)} ${fastestName}'s speed, ${speedUp.rounds} rounds`;
      }
      rows.push(row);
    }
  }
  return rows;
}
