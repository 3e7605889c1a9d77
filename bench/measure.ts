/**
 * The timing loop. Contenders of one comparison run interleaved, in rounds
 * (A, B, B, A, …), so that a change of machine load mid-bench hits all of
 * them alike; each one is warmed up first. One sample times `batch` calls in
 * a row (batches are sized to at least ~50 µs so the clock's own cost does
 * not count); each call may stand for several operations (`opsPerCall`, e.g.
 * 32 concurrent requests). Figures are per operation.
 */

export interface Stats {
  /** Median time of one operation, ns. */
  medianNs: number;
  /** 99th percentile of the per-sample time of one operation, ns. */
  p99Ns: number;
  /** Operations per second over the whole measured time. */
  opsPerSec: number;
  /** Samples taken, and calls per sample. */
  samples: number;
  batch: number;
}

export interface Contender {
  name: string;
  /** One call. Returning a promise makes the loop await it. */
  run: () => unknown;
  /** Operations one call stands for (default 1). */
  opsPerCall?: number;
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
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** Runs `run` `count` times in a row and returns the elapsed ns. */
async function timeCalls(run: () => unknown, count: number, async: boolean): Promise<number> {
  const t0 = process.hrtime.bigint();
  if (async) for (let i = 0; i < count; i++) await run();
  else for (let i = 0; i < count; i++) run();
  return Number(process.hrtime.bigint() - t0);
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function measure(contenders: readonly Contender[], options: MeasureOptions = {}): Promise<Map<string, Stats>> {
  const warmup = options.warmup ?? 200;
  const samples = options.samples ?? 1_000;
  const rounds = Math.max(1, Math.min(options.rounds ?? 10, samples));
  const minSampleNs = options.minSampleNs ?? 50_000;

  const state = contenders.map((c) => ({ c, async: false, batch: 1, perOp: [] as number[], ops: 0, ns: 0 }));

  // Warm-up; find out whether the call is asynchronous and how many calls make one sample.
  for (const s of state) {
    s.async = isPromise(s.c.run());
    const warmNs = await timeCalls(s.c.run, warmup, s.async);
    const perCall = warmNs / warmup;
    s.batch = Math.max(1, Math.ceil(minSampleNs / Math.max(perCall, 1)));
    await yieldToLoop();
  }

  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? state : [...state].reverse();
    for (const s of order) {
      const count = Math.floor(samples / rounds) + (round < samples % rounds ? 1 : 0);
      const opsPerSample = s.batch * (s.c.opsPerCall ?? 1);
      for (let i = 0; i < count; i++) {
        const ns = await timeCalls(s.c.run, s.batch, s.async);
        s.perOp.push(ns / opsPerSample);
        s.ops += opsPerSample;
        s.ns += ns;
      }
      // Let pending I/O (sockets closing, timers) run outside the timed part.
      await yieldToLoop();
    }
  }

  const result = new Map<string, Stats>();
  for (const s of state) {
    const sorted = s.perOp.sort((a, b) => a - b);
    result.set(s.c.name, {
      medianNs: quantile(sorted, 0.5),
      p99Ns: quantile(sorted, 0.99),
      opsPerSec: (s.ops * 1e9) / s.ns,
      samples: sorted.length,
      batch: s.batch,
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
