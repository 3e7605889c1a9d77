// The sandbox clock runs scheduled work lazily: whoever looks next runs what
// is due. A task must see its own due time as "now", or every change it makes
// (timestamps, events, the next step it schedules) would date from whenever
// someone happened to look, and chained steps would drift.
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/sandbox/clock.js';

describe('sandbox clock', () => {
  it('a task sees its due time as now, even when it runs late', () => {
    const clock = createClock({ pace: 0, start: 1_000_000 });
    const seen: number[] = [];
    clock.at(1_000_100, () => seen.push(clock.now()));
    clock.advance(5_000);
    expect(seen).toEqual([1_000_100]);
    expect(clock.now()).toBe(1_005_000);
  });

  it('a chain of steps scheduled from within tasks keeps its own spacing', () => {
    const clock = createClock({ pace: 0, start: 0 });
    const steps: number[] = [];
    const step = () => {
      steps.push(clock.now());
      if (steps.length < 4) clock.at(clock.now() + 250, step);
    };
    clock.at(250, step);
    clock.advance(10_000);
    expect(steps).toEqual([250, 500, 750, 1_000]);
  });

  it('tasks run in time order, then in the order they were scheduled', () => {
    const clock = createClock({ pace: 0, start: 0 });
    const order: string[] = [];
    clock.at(20, () => order.push('b'));
    clock.at(10, () => order.push('a'));
    clock.at(20, () => order.push('c'));
    clock.at(30, () => order.push('not yet'));
    clock.advance(25);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('runs in real time at its pace', () => {
    let real = 0;
    const clock = createClock({ pace: 10, start: 0, realNow: () => real });
    real = 50;
    expect(clock.now()).toBe(500);
  });
});
