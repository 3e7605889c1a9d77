import { startTimer } from './timer.js';

/** Something with a due time that the shared timer fires once that time has come. */
export interface DueEntry {
  readonly dueAt: number;
  fire(): void;
}

/**
 * Every pending deadline of the process shares one timer, armed for the
 * earliest. A `setTimeout`/`clearTimeout` pair per attempt measured about a
 * quarter of the client's own cost per request under load; here a deadline
 * adds and removes one Set entry, and the timer is re-armed only when a new
 * deadline is earlier than the armed one. The timer does not keep the
 * process alive (as `AbortSignal.timeout`'s does not): a request in flight
 * holds its own connection open.
 */
class DeadlineSet {
  readonly #pending = new Set<DueEntry>();
  #armedFor = Number.POSITIVE_INFINITY;
  #cancel: (() => void) | undefined;
  /**
   * The `setTimeout` the armed timer was set with. A test's fake timers
   * (vitest's, Jest's) replace it; a timer armed on a fake clock never runs
   * once the test puts the real one back, so the next deadline re-arms it on
   * the clock now in use, or every later call would wait past its limit.
   */
  #armedWith: typeof setTimeout | undefined;

  add(entry: DueEntry): void {
    if (entry.dueAt === Number.POSITIVE_INFINITY) return;
    this.#pending.add(entry);
    if (entry.dueAt < this.#armedFor) this.#arm(entry.dueAt);
    else if (globalThis.setTimeout !== this.#armedWith) this.#arm(monotonicNow()); // at once: what is due fires, the rest re-arms
  }

  /** Leaves the timer armed: when it fires with nothing due it re-arms for what is left, or stops. */
  delete(entry: DueEntry): void {
    this.#pending.delete(entry);
  }

  #arm(at: number): void {
    this.#cancel?.();
    this.#armedFor = at;
    this.#armedWith = globalThis.setTimeout;
    this.#cancel = startTimer(() => this.#sweep(), at - monotonicNow(), { keepAlive: false });
  }

  #sweep(): void {
    this.#cancel = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = monotonicNow();
    let next = Number.POSITIVE_INFINITY;
    const due: DueEntry[] = [];
    for (const entry of this.#pending) {
      if (entry.dueAt <= now) due.push(entry);
      else if (entry.dueAt < next) next = entry.dueAt;
    }
    for (const entry of due) this.#pending.delete(entry);
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
    for (const entry of due) entry.fire();
  }
}

export const sharedDeadlines = new DeadlineSet();

/** Deadlines are durations: a monotonic clock, so a wall-clock jump neither fires nor delays them. */
export function monotonicNow(): number {
  return performance.now();
}
