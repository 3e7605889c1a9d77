/**
 * The bench harness: every ratio the benches print comes from here.
 *
 * Workloads compared with each other run in one process, in interleaved
 * rounds: each round gives every workload one turn (a few timed batches), and
 * the order of the turns alternates from round to round (A B, then B A), so a
 * machine that slows down or speeds up mid-bench hits every side alike. A
 * round's figure for a workload is the median of its batches (ns per
 * operation); a ratio is taken per round, between figures measured seconds
 * apart under the same load, and reported as the median of those per-round
 * ratios with their spread (interquartile range, min–max, rounds).
 *
 * Warm-up is apart (not timed into any round) and sizes each workload's
 * batches so one batch lasts at least `minBatchNs` (the clock's own cost must
 * not count). When a full GC is available (`node --expose-gc`, as
 * `npm run bench` runs), it runs before every turn, so no workload pays for
 * the garbage of the one before it.
 *
 * The clock is injected (`now`), so the harness itself is tested with fake
 * workloads of known cost on a fake clock (test/unit/bench-harness.test.ts).
 */

/** A clock in nanoseconds. */
export type Clock = () => number;

/** Wall time. For what involves waiting (I/O, child processes). */
export const hrClock: Clock = () => Number(process.hrtime.bigint());

/**
 * This process' CPU time (user + system, every thread; microsecond resolution, so batches of
 * ≥ 1 ms). For CPU-bound comparisons on a shared machine: time the process spends descheduled
 * while others run does not count, so it cannot land on one side of a ratio.
 */
export const cpuClock: Clock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1_000;
};

export interface Workload {
  name: string;
  /** Runs `count` operations in a row; a returned promise is awaited. */
  run: (count: number) => unknown;
  /** Called before each of its turns (and its warm-up), untimed: e.g. selecting an engine. */
  enter?: () => void;
}

export interface HarnessOptions {
  /** Measured rounds. */
  rounds: number;
  /** Timed batches per workload per round (default 10); with `turnNs`, the least number. */
  samplesPerRound?: number;
  /**
   * Time of one turn, ns: each workload times as many batches per round as fill it, by its
   * warm-up's pace (at least `samplesPerRound`), so a slow workload's turns last no longer than a fast one's.
   */
  turnNs?: number;
  /** Operations per workload in its warm-up (default 100), repeated until `warmupNs` has passed. */
  warmup?: number;
  /** Least time per workload in warm-up, ns (default 0: one warm-up batch). */
  warmupNs?: number;
  /** Least time of one timed batch, ns (default 50,000): cheap operations are batched up to it. */
  minBatchNs?: number;
  /** The clock (default: `process.hrtime`). */
  now?: Clock;
  /** A full GC run before every turn; default `globalThis.gc` when exposed, `false` for none. */
  gc?: (() => void) | false;
  /**
   * `false`: the naive schedule (every round of the first workload, then every round of the next).
   * Only for showing what interleaving protects against; the benches never set it.
   */
  interleave?: boolean;
  /** Awaited after each turn (default: one turn of the event loop, so pending I/O runs untimed). */
  pause?: () => Promise<void>;
}

export interface WorkloadResult {
  name: string;
  /** Operations per timed batch, and timed batches per turn. */
  batch: number;
  samplesPerTurn: number;
  /** Per round: the median of its batches, ns per operation. */
  perRound: number[];
  /** Every timed batch, ns per operation. */
  samples: number[];
  /** Operations timed, and the ns they took. */
  ops: number;
  ns: number;
}

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

const nextTurnOfLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}

/** Runs the workloads in interleaved rounds; one result per workload, in the order given. */
export async function runRounds(workloads: readonly Workload[], options: HarnessOptions): Promise<WorkloadResult[]> {
  const now = options.now ?? hrClock;
  const gc = options.gc === false ? undefined : (options.gc ?? exposedGc());
  const pause = options.pause ?? nextTurnOfLoop;
  const minBatchNs = options.minBatchNs ?? 50_000;
  const warmup = Math.max(1, options.warmup ?? 100);
  const warmupNs = options.warmupNs ?? 0;
  const rounds = Math.max(1, options.rounds);
  const samplesPerRound = Math.max(1, options.samplesPerRound ?? (options.turnNs === undefined ? 10 : 1));

  const timed = async (w: Workload, count: number): Promise<number> => {
    const t0 = now();
    const out = w.run(count);
    if (isPromise(out)) await out;
    return now() - t0;
  };

  const results = workloads.map((w): WorkloadResult => ({ name: w.name, batch: 1, samplesPerTurn: samplesPerRound, perRound: [], samples: [], ops: 0, ns: 0 }));

  // Warm-up, apart from the rounds; it sizes the batches.
  for (const [i, w] of workloads.entries()) {
    w.enter?.();
    let ns = 0;
    let ops = 0;
    do {
      ns += await timed(w, warmup);
      ops += warmup;
    } while (ns < warmupNs);
    const r = results[i] as WorkloadResult;
    const perOpNs = Math.max(ns / ops, 1e-3);
    r.batch = Math.max(1, Math.ceil(minBatchNs / perOpNs));
    if (options.turnNs !== undefined) r.samplesPerTurn = Math.max(samplesPerRound, Math.round(options.turnNs / (r.batch * perOpNs)));
    await pause();
  }

  const turn = async (i: number): Promise<void> => {
    const w = workloads[i] as Workload;
    const r = results[i] as WorkloadResult;
    gc?.();
    w.enter?.();
    const round: number[] = [];
    for (let s = 0; s < r.samplesPerTurn; s++) {
      const ns = await timed(w, r.batch);
      round.push(ns / r.batch);
      r.ops += r.batch;
      r.ns += ns;
    }
    r.samples.push(...round);
    r.perRound.push(median(round));
    await pause();
  };

  const indices = workloads.map((_, i) => i);
  if (options.interleave === false) {
    for (const i of indices) for (let round = 0; round < rounds; round++) await turn(i);
  } else {
    for (let round = 0; round < rounds; round++) {
      for (const i of round % 2 === 0 ? indices : [...indices].reverse()) await turn(i);
    }
  }
  return results;
}

// ---------------------------------------------------------------------------
// Statistics of per-round figures.

export function median(values: readonly number[]): number {
  return quantileOf(values, 0.5);
}

/** The q-quantile, interpolated between the two nearest values. */
export function quantileOf(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low);
}

/** A per-round figure summarised: its median, interquartile range, range, and how many rounds. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  rounds: number;
}

export function spreadOf(values: readonly number[]): Spread {
  return {
    median: median(values),
    q1: quantileOf(values, 0.25),
    q3: quantileOf(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
    rounds: values.length,
  };
}

/** Round by round, `a / b`: the per-round ratios of two workloads measured in the same rounds. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`paired figures need as many rounds on both sides (${a.length} and ${b.length})`);
  return a.map((x, i) => x / (b[i] as number));
}

/** Round by round, `a - b`. */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`paired figures need as many rounds on both sides (${a.length} and ${b.length})`);
  return a.map((x, i) => x - (b[i] as number));
}

/** The spread of `1 / x` (a time ratio as a speed-up). */
export function invertSpread(s: Spread): Spread {
  return { median: 1 / s.median, q1: 1 / s.q3, q3: 1 / s.q1, min: 1 / s.max, max: 1 / s.min, rounds: s.rounds };
}

/** A goal on a figure: at most and/or at least a value. */
export interface Goal {
  atMost?: number;
  atLeast?: number;
}

export type Verdict = 'pass' | 'miss' | 'undecided';

const meets = (x: number, goal: Goal): boolean =>
  (goal.atMost === undefined || x <= goal.atMost) && (goal.atLeast === undefined || x >= goal.atLeast);

/**
 * Judged on the median; undecided when the goal's bound lies inside the
 * interquartile range (more than a quarter of the rounds on each side of it).
 */
export function judge(s: Spread, goal: Goal): Verdict {
  for (const bound of [goal.atMost, goal.atLeast]) {
    if (bound !== undefined && s.q1 < bound && bound < s.q3) return 'undecided';
  }
  return meets(s.median, goal) ? 'pass' : 'miss';
}
