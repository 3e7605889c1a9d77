import { describe, expect, it } from 'vitest';
import { pollUntil, PollFailedError, PollTimeoutError } from '../../src/core/poll.js';

function sequence<T>(...values: T[]) {
  let i = 0;
  return async () => values[Math.min(i++, values.length - 1)]!;
}

const spec = (read: () => Promise<{ status: string }>) => ({
  what: 'thing t1',
  read,
  statusOf: (r: { status: string }) => r.status,
  isDone: (s: string) => s === 'done',
  isFailed: (s: string) => s === 'failed',
  isKnown: (s: string) => ['a', 'b', 'done', 'failed'].includes(s),
});

describe('pollUntil', () => {
  it('resolves with the resource once done, reporting each status change once', async () => {
    const seen: Array<[string, string | undefined]> = [];
    const result = await pollUntil(
      spec(sequence({ status: 'a' }, { status: 'a' }, { status: 'b' }, { status: 'done' })),
      { intervalMs: 1, onStatus: (s, p) => seen.push([s, p]) },
    );
    expect(result).toEqual({ status: 'done' });
    expect(seen).toEqual([['a', undefined], ['b', 'a'], ['done', 'b']]);
  });

  it('throws PollFailedError with the resource on a failure state', async () => {
    const error = await pollUntil(spec(sequence({ status: 'a' }, { status: 'failed' })), { intervalMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(PollFailedError);
    expect(error).toMatchObject({ status: 'failed', resource: { status: 'failed' } });
    expect(error.message).toContain('thing t1');
  });

  it('throws PollTimeoutError with the last status when time runs out', async () => {
    const error = await pollUntil(spec(sequence({ status: 'a' })), { intervalMs: 5, timeoutMs: 30 }).catch((e) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error.lastStatus).toBe('a');
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('enough')), 20);
    await expect(
      pollUntil(spec(sequence({ status: 'a' })), { intervalMs: 5, signal: controller.signal }),
    ).rejects.toThrow('enough');
  });

  it('grows the interval by the backoff factor up to the maximum', async () => {
    const times: number[] = [];
    const read = async () => {
      times.push(performance.now());
      return { status: times.length < 5 ? 'a' : 'done' };
    };
    await pollUntil(spec(read), { intervalMs: 10, backoff: 2, maxIntervalMs: 25 });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 10, 20, 25, 25 (each at least that long)
    expect(gaps[0]).toBeGreaterThanOrEqual(9);
    expect(gaps[1]).toBeGreaterThanOrEqual(19);
    expect(gaps[2]).toBeGreaterThanOrEqual(24);
    expect(gaps[3]).toBeLessThan(60);
  });

  it('ends on the first API error', async () => {
    await expect(pollUntil(spec(async () => { throw new Error('404'); }))).rejects.toThrow('404');
  });
});
