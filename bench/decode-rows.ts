/**
 * 8. Decode: the rows of `benchDecode()` (bench/decode.ts), with each row's
 * time ratio to viem's on the same version, and the goal on ours: at least
 * 40× faster than the faster generic decoder (viem or ethers).
 */
import { benchDecode, type DecodeBenchResult } from './decode.js';
import type { Row } from './table.js';

const BENCH = '8 decode';
export const DECODE_GOAL_SPEEDUP = 40;

export async function benchDecodeRows(options: { durationMs?: number } = {}): Promise<Row[]> {
  const results = await benchDecode(options.durationMs === undefined ? {} : { durationMs: options.durationMs });
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
        row.baseline = viem.name;
        row.ratio = r.medianNs / viem.medianNs;
        const x = viem.medianNs / r.medianNs;
        row.note = `${x.toFixed(x < 1 ? 2 : 1)}× viem's speed`;
      }
      if (r === ours && fastest !== undefined) {
        const speedup = fastest.medianNs / r.medianNs;
        const fastestName = fastest === viem ? 'viem' : 'ethers';
        row.goal = `≥ ${DECODE_GOAL_SPEEDUP}× the faster generic (${fastestName})`;
        row.pass = speedup >= DECODE_GOAL_SPEEDUP;
        row.note = `${speedup.toFixed(1)}× ${fastestName}'s speed`;
      }
      rows.push(row);
    }
  }
  return rows;
}
