// Every pending attempt deadline shares one timer armed for the earliest.
// These cases pin what that sharing must not change: each deadline fires at
// its own time, whatever the order it was set in, a cleared one never fires,
// a caller's abort still wins, and the shared timer lets the process exit.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadlineAfter } from '../../src/core/deadline.js';

const root = join(import.meta.dirname, '..', '..');

/** Resolves with the ms from `start` until the signal aborts. */
const abortedAfter = (signal: AbortSignal, start: number) =>
  new Promise<number>((resolve) => signal.addEventListener('abort', () => resolve(performance.now() - start), { once: true }));

describe('shared attempt deadlines', () => {
  it('a short deadline set after a long one fires at its own time', async () => {
    const start = performance.now();
    const long = deadlineAfter(undefined, 60_000, () => 'long');
    const short = deadlineAfter(undefined, 80, () => 'short');
    const elapsed = await abortedAfter(short.signal, start);
    expect(short.timedOut()).toBe(true);
    expect(short.signal.reason).toBe('short');
    expect(elapsed).toBeGreaterThanOrEqual(75);
    expect(long.signal.aborted).toBe(false);
    long.clear();
  });

  it('deadlines fire in time order, each with its own reason', async () => {
    const start = performance.now();
    const fired: string[] = [];
    const deadlines = [150, 50, 100].map((ms) => {
      const deadline = deadlineAfter(undefined, ms, () => `after ${ms}`);
      deadline.signal.addEventListener('abort', () => fired.push(String(deadline.signal.reason)));
      return deadline;
    });
    await abortedAfter(deadlines[0]!.signal, start);
    expect(fired).toEqual(['after 50', 'after 100', 'after 150']);
  });

  it('a cleared deadline never fires, and the others still do', async () => {
    const cleared = deadlineAfter(undefined, 40, () => 'cleared');
    const kept = deadlineAfter(undefined, 90, () => 'kept');
    cleared.clear();
    await abortedAfter(kept.signal, performance.now());
    expect(cleared.signal.aborted).toBe(false);
    expect(cleared.timedOut()).toBe(false);
  });

  it("the caller's abort wins and is not a timeout", () => {
    const caller = new AbortController();
    const deadline = deadlineAfter(caller.signal, 60_000, () => 'late');
    caller.abort(new Error('stop'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('stop');
    expect(deadline.timedOut()).toBe(false);
    deadline.clear();
  });

  it('an already aborted caller signal aborts at once', () => {
    const caller = new AbortController();
    caller.abort('gone');
    const deadline = deadlineAfter(caller.signal, 60_000, () => 'late');
    expect(deadline.signal.reason).toBe('gone');
    deadline.clear();
  });

  it('a pending deadline does not keep the process alive', () => {
    const script = `
      import { deadlineAfter } from ${JSON.stringify(join(root, 'src', 'core', 'deadline.ts'))};
      deadlineAfter(undefined, 60_000, () => 'late');
      console.log('armed');
    `;
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.stdout.trim()).toBe('armed');
    expect(run.status).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
