/**
 * The timing loop of the in-process benches, on the harness (harness.ts):
 * contenders of one comparison run in interleaved rounds whose order
 * alternates (A B, B A, …), after a warm-up, so that a change of machine load
 * mid-bench hits all of them alike. One sample times `batch` calls in a row
 * (batches are sized to at least ~50 µs so the clock's own cost does not
 * count); each call may stand for several operations (`opsPerCall`, e.g. 32
 * concurrent requests). Figures are per operation; `perRound` keeps each
 * round's median, from which rows.ts takes per-round ratios.
 */
import { median, quantileOf, runRounds, type Clock, type Workload } from './harness.js';

export { median };

export interface Stats {
  /** Median time of one operation over every sample, ns. */
  medianNs: number;
  /** 99th percentile of the per-sample time of one operation, ns. */
  p99Ns: number;
  /** Operations per second over the whole measured time. */
  opsPerSec: number;
  /** Samples taken, and calls per sample. */
  samples: number;
  batch: number;
  /** Per round, the median time of one operation (ns): the base of paired, per-round ratios. */
  perRound: number[];
}

export interface Contender {
  name: string;
  /** One call. Returning a promise makes the loop await it. */
  run: () => unknown;
  /** Operations one call stands for (default 1). */
  opsPerCall?: number;
  /** Called before each of its turns, untimed. */
  enter?: () => void;
}

export interface MeasureOptions {
  /** Warm-up calls per contender (default 200). */
  warmup?: number;
  /** Measured samples per contender (default 1,000). */
  samples?: number;
  /** Rounds the samples are spread over (default 10). */
  rounds?: number;
  /** Smallest time of one sample, ns (default 50,000): cheap calls are batched up to it. */
  minSampleNs?: number;
  /**
   * A full GC before every turn when `node --expose-gc` exposes one (default true). Benches with
   * hundreds of short, I/O-bound rounds turn it off: a GC per turn would take longer than the turn.
   */
  gc?: boolean;
  /** The clock (default wall time; `cpuClock` for CPU-bound comparisons). */
  clock?: Clock;
}

/** The `q` quantile of an ascending list (the value at rank ⌈q·n⌉). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** A contender as a harness workload: `count` calls in a row, awaited when the call is asynchronous. */
async function workloadOf(c: Contender): Promise<Workload> {
  c.enter?.();
  const first = c.run();
  const async = isPromise(first);
  if (async) await first;
  const run = c.run;
  const loop = async
    ? async (count: number): Promise<void> => {
        for (let i = 0; i < count; i++) await run();
      }
    : (count: number): void => {
        for (let i = 0; i < count; i++) run();
      };
  return { name: c.name, run: loop, ...(c.enter ? { enter: c.enter } : {}) };
}

export async function measure(contenders: readonly Contender[], options: MeasureOptions = {}): Promise<Map<string, Stats>> {
  const samples = options.samples ?? 1_000;
  const rounds = Math.max(1, Math.min(options.rounds ?? 10, samples));
  const workloads = await Promise.all(contenders.map(workloadOf));
  const results = await runRounds(workloads, {
    rounds,
    samplesPerRound: Math.max(1, Math.round(samples / rounds)),
    warmup: options.warmup ?? 200,
    minBatchNs: options.minSampleNs ?? 50_000,
    ...(options.gc === false ? { gc: false as const } : {}),
    ...(options.clock === undefined ? {} : { now: options.clock }),
  });
  const result = new Map<string, Stats>();
  for (const [i, r] of results.entries()) {
    // The harness counts calls; a call of `opsPerCall` operations is divided into them.
    const ops = contenders[i]?.opsPerCall ?? 1;
    const sorted = r.samples.map((ns) => ns / ops).sort((a, b) => a - b);
    result.set(r.name, {
      medianNs: quantileOf(sorted, 0.5),
      p99Ns: quantile(sorted, 0.99),
      opsPerSec: (r.ops * ops * 1e9) / r.ns,
      samples: sorted.length,
      batch: r.batch,
      perRound: r.perRound.map((ns) => ns / ops),
    });
  }
  return result;
}

/** Times one asynchronous job `times` times in a row (e.g. a child process); the list of ms. */
export async function timeRepeated(times: number, job: () => Promise<unknown>): Promise<number[]> {
  const all: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = process.hrtime.bigint();
    await job();
    all.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return all;
}
