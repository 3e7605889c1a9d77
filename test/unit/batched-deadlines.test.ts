// Attempts that no caller can abort share their time limit's AbortSignal
// (src/core/batched-deadline.ts): building a signal per attempt was most of
// what the default timeout cost. These cases pin what sharing must not
// change: no limit fires early, none fires more than its lateness late, a
// fired signal is never handed to a new attempt, and one attempt leaving
// does not stop the others' limit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedDeadlineAfter } from '../../src/core/batched-deadline.js';
import type { Deadline } from '../../src/core/deadline.js';

const abortedAfter = (signal: AbortSignal, start: number) =>
  new Promise<number>((resolve) => signal.addEventListener('abort', () => resolve(performance.now() - start), { once: true }));

/** Every deadline `at` made, cleared after each case. */
const made: Deadline[] = [];
/** A batched deadline of `ms`, made while the monotonic clock reads `base + offsetMs`. */
function at(offsetMs: number, ms: number, base: number): Deadline {
  vi.spyOn(performance, 'now').mockReturnValue(base + offsetMs);
  const deadline = batchedDeadlineAfter(ms);
  vi.restoreAllMocks();
  made.push(deadline);
  return deadline;
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const deadline of made.splice(0)) deadline.clear();
});

describe('batched attempt deadlines', () => {
  it('limits that end within a hundredth of their length share one signal; a later one gets its own', () => {
    const base = performance.now() + 1_000_000;
    // 30 s limits may be up to 10 ms late: due at +30,000 the batch aborts at +30,010.
    const first = at(0, 30_000, base);
    const fiveLater = at(5, 30_000, base);
    const tenLater = at(10, 30_000, base);
    const elevenLater = at(11, 30_000, base);
    expect(fiveLater.signal).toBe(first.signal);
    expect(tenLater.signal).toBe(first.signal);
    expect(elevenLater.signal).not.toBe(first.signal);
  });

  it('a shorter limit is allowed less lateness: 500 ms may be 5 ms late, not 6', () => {
    const base = performance.now() + 2_000_000;
    const first = at(0, 500, base);
    expect(at(5, 500, base).signal).toBe(first.signal);
    expect(at(6, 500, base).signal).not.toBe(first.signal);
  });

  it('limits of the same length made at the same instant always share one signal, whatever the clock reads (no rounding in the window)', () => {
    // A clock reading with a fraction, as performance.now() gives: due + lateness − due is not always lateness in floating point.
    const unshared: number[] = [];
    for (let i = 0; i < 200; i++) {
      const base = performance.now() + 4_000_000 + i * 1_000.123456789;
      if (at(0, 120, base).signal !== at(0, 120, base).signal) unshared.push(base);
    }
    expect(unshared).toEqual([]);
  });

  it('a limit the batch would outlast by more than its lateness opens a batch of its own', () => {
    const base = performance.now() + 3_000_000;
    const long = at(0, 30_000, base);
    // Due at +29,995, and the batch aborts at +30,010: 15 ms late, more than 29,995 ms may be.
    expect(at(0, 29_995, base).signal).not.toBe(long.signal);
  });

  it('a batch holds at most 64 attempts', () => {
    const base = performance.now() + 4_000_000;
    const first = at(0, 30_000, base);
    for (let i = 1; i < 64; i++) expect(at(0, 30_000, base).signal).toBe(first.signal);
    expect(at(0, 30_000, base).signal).not.toBe(first.signal);
  });

  it('never fires before its limit, and every member sees its timeout', async () => {
    const start = performance.now();
    // Both made at the same instant of the monotonic clock: two real calls in a row may be more than
    // the 1 ms of lateness apart on a loaded machine, and then rightly get batches of their own. 100 ms,
    // whose lateness (1 ms) is exact in binary: 1.2 ms (of 120) may compare a hair above itself.
    const a = at(0, 100, start);
    const b = at(0, 100, start);
    expect(b.signal).toBe(a.signal);
    const elapsed = await abortedAfter(a.signal, start);
    expect(elapsed).toBeGreaterThanOrEqual(100);
    expect(a.timedOut()).toBe(true);
    expect(b.timedOut()).toBe(true);
    expect((a.signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('one member clearing (twice, even) does not stop the limit of the others', async () => {
    const start = performance.now();
    const leaving = batchedDeadlineAfter(80);
    const staying = batchedDeadlineAfter(80);
    leaving.clear();
    leaving.clear();
    const elapsed = await abortedAfter(staying.signal, start);
    expect(elapsed).toBeGreaterThanOrEqual(80);
    expect(staying.timedOut()).toBe(true);
  });

  it('a fired batch is never handed to a new attempt', async () => {
    const fired = batchedDeadlineAfter(30);
    await abortedAfter(fired.signal, performance.now());
    const next = batchedDeadlineAfter(30);
    expect(next.signal).not.toBe(fired.signal);
    expect(next.signal.aborted).toBe(false);
    expect(next.timedOut()).toBe(false);
    next.clear();
  });
});
