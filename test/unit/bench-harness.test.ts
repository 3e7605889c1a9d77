/**
 * The bench harness (bench/harness.ts) on a fake machine: a fake clock that
 * only moves when a fake workload "works", each operation of a known cost,
 * times the machine's current slowness, times a deterministic jitter (and now
 * and then a long stall, as when another process takes the core). No wall
 * clock is read.
 */
import { describe, expect, it } from 'vitest';
import { judge, pairedRatios, runRounds, spreadOf, type HarnessOptions, type Workload } from '../../bench/harness.js';

interface FakeMachine {
  now: () => number;
  /** A workload whose operation costs `costNs` on an unloaded machine. */
  workload: (name: string, costNs: number) => Workload;
}

/**
 * `slowdown(t)`: how many times slower the machine is at fake time t (ns).
 * Jitter: each operation ±25 %; one operation in 200 stalls for 20 operations' time.
 */
function fakeMachine(slowdown: (t: number) => number = () => 1): FakeMachine {
  let t = 0;
  let seed = 12345;
  const random = (): number => {
    // mulberry32: a small deterministic generator, uniform in [0, 1).
    seed = (seed + 0x6d2b79f5) | 0;
    let z = Math.imul(seed ^ (seed >>> 15), seed | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    now: () => t,
    workload: (name, costNs) => ({
      name,
      run: (count: number) => {
        for (let i = 0; i < count; i++) {
          const stall = random() < 0.005 ? 20 : 1;
          t += costNs * slowdown(t) * (0.75 + 0.5 * random()) * stall;
        }
      },
    }),
  };
}

const OPTIONS: HarnessOptions = { rounds: 40, samplesPerRound: 10, warmup: 100, minBatchNs: 50_000, gc: false, pause: () => Promise.resolve() };

/** Ours costs twice the reference: the true ratio is 2.0. */
async function measuredRatio(machine: FakeMachine, options: Partial<HarnessOptions> = {}) {
  const [ours, reference] = await runRounds([machine.workload('ours', 2_000), machine.workload('reference', 1_000)], { ...OPTIONS, now: machine.now, ...options });
  return spreadOf(pairedRatios(ours!.perRound, reference!.perRound));
}

/** A machine that keeps slowing down: 1× at the start, about 3.8× by the end of a run (~85 ms of fake time). */
const drifting = (t: number): number => 1 + t / 30e6;

describe('bench harness: interleaved rounds on a fake clock', () => {
  it('measures a true ratio of 2.0 as 2.0 ± 5 %, on a jittery machine', async () => {
    const spread = await measuredRatio(fakeMachine());
    expect(spread.rounds).toBe(40);
    expect(spread.median).toBeGreaterThan(1.9);
    expect(spread.median).toBeLessThan(2.1);
    expect(spread.min).toBeLessThanOrEqual(spread.q1);
    expect(spread.q3).toBeLessThanOrEqual(spread.max);
  });

  it('is not biased by a machine that slows down threefold during the run', async () => {
    const machine = fakeMachine(drifting);
    const spread = await measuredRatio(machine);
    expect(drifting(machine.now())).toBeGreaterThan(2.5); // the drift did happen
    expect(spread.median).toBeGreaterThan(1.9);
    expect(spread.median).toBeLessThan(2.1);
  });

  it('the naive schedule (all of one side, then all of the other) is biased by that same drift', async () => {
    const spread = await measuredRatio(fakeMachine(drifting), { interleave: false });
    // Ours ran on the faster first half of the run: it looks cheaper than it is.
    expect(spread.median).toBeLessThan(1.6);
  });

  it('warm-up is apart from the rounds and sizes batches to at least minBatchNs', async () => {
    const machine = fakeMachine();
    const calls: number[] = [];
    const cheap = machine.workload('cheap', 100);
    const counted: Workload = { name: 'cheap', run: (count) => (calls.push(count), cheap.run(count)) };
    const [result] = await runRounds([counted], { ...OPTIONS, now: machine.now, rounds: 3, samplesPerRound: 2, warmup: 7 });
    expect(calls[0]).toBe(7);
    expect(result!.batch).toBeGreaterThanOrEqual(400); // ≥ 50 µs at ~100 ns an operation
    expect(calls.slice(1)).toEqual(Array(6).fill(result!.batch));
    expect(result!.perRound).toHaveLength(3);
    expect(result!.ops).toBe(6 * result!.batch);
  });

  it('with turnNs, a slow workload times fewer batches per turn, so its turns last about as long as a fast one\'s (5 ms ± jitter)', async () => {
    const machine = fakeMachine();
    const [fast, slow] = await runRounds([machine.workload('fast', 100), machine.workload('slow', 100_000)], {
      ...OPTIONS,
      now: machine.now,
      rounds: 4,
      warmupNs: 2e6,
      turnNs: 5e6,
    });
    expect(fast!.samplesPerTurn * fast!.batch * 100).toBeGreaterThan(3e6);
    expect(fast!.samplesPerTurn * fast!.batch * 100).toBeLessThan(7e6);
    expect(slow!.samplesPerTurn * slow!.batch * 100_000).toBeGreaterThan(3e6);
    expect(slow!.samplesPerTurn * slow!.batch * 100_000).toBeLessThan(7e6);
    expect(slow!.samples).toHaveLength(4 * slow!.samplesPerTurn);
  });

  it('alternates the order of the turns and runs a GC and the workload\'s enter before each turn', async () => {
    const machine = fakeMachine();
    const log: string[] = [];
    const traced = (name: string): Workload => {
      const w = machine.workload(name, 1_000);
      return { name, enter: () => log.push(`enter ${name}`), run: (count) => (log.push(name), w.run(count)) };
    };
    await runRounds([traced('A'), traced('B')], { ...OPTIONS, now: machine.now, rounds: 2, samplesPerRound: 1, warmup: 1, gc: () => log.push('gc') });
    // Warm-up (no GC), then round 1: A, B; round 2: B, A.
    expect(log).toEqual(['enter A', 'A', 'enter B', 'B', 'gc', 'enter A', 'A', 'gc', 'enter B', 'B', 'gc', 'enter B', 'B', 'gc', 'enter A', 'A']);
  });
});

describe('bench harness: judging a goal on the spread', () => {
  const spread = (values: number[]) => spreadOf(values);

  it('passes or misses on the median when the rounds agree', () => {
    expect(judge(spread([38, 39, 40, 41, 42]), { atLeast: 35 })).toBe('pass');
    expect(judge(spread([30, 31, 32, 33, 36]), { atLeast: 35 })).toBe('miss');
    expect(judge(spread([1.01, 1.02, 1.03, 1.04, 1.2]), { atMost: 1.05 })).toBe('pass');
  });

  it('is undecided when the goal lies inside the interquartile range', () => {
    expect(judge(spread([21, 25, 30, 40, 50, 60, 67]), { atLeast: 35 })).toBe('undecided');
    expect(judge(spread([1.0, 1.03, 1.06, 1.09]), { atMost: 1.05 })).toBe('undecided');
  });

  it('gives the quartiles of per-round figures', () => {
    expect(spread([1, 2, 3, 4, 5])).toEqual({ median: 3, q1: 2, q3: 4, min: 1, max: 5, rounds: 5 });
    expect(pairedRatios([4, 9], [2, 3])).toEqual([2, 3]);
  });
});
