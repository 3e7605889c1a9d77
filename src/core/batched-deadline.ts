import type { Deadline } from './deadline.js';
import { monotonicNow, sharedDeadlines, type DueEntry } from './deadline-timer.js';

/**
 * Time limits for attempts that no caller can abort, shared: attempts
 * whose limits end within a few ms of one another share one AbortSignal,
 * which aborts when the last of them is due. Node 20 builds an
 * AbortController's signal in about 4 µs, as much as the rest of our layer
 * per request, so one signal per attempt was most of what the default
 * timeout cost. A batched limit fires on time or a little late, never early:
 * by at most a hundredth of its length, and never more than 10 ms.
 *
 * An attempt whose caller passed a signal keeps its own deadline
 * (`deadlineAfter`): aborting a shared signal would abort every attempt of
 * the batch.
 */
export function batchedDeadlineAfter(ms: number): Deadline {
  const due = monotonicNow() + ms;
  let batch = openBatch;
  if (batch === undefined || !batch.accepts(due, ms)) {
    batch?.close();
    batch = openBatch = new DeadlineBatch(due + lateness(ms));
  }
  return new BatchMember(batch);
}

/** How late a limit of `ms` may fire. */
function lateness(ms: number): number {
  return Math.min(ms / 100, 10);
}

/**
 * Attempts per batch. Each attempt's Request adds a listener to the batch's
 * signal, and EventTarget walks that list on every add; a bounded batch keeps
 * the walk short.
 */
const MAX_ATTEMPTS_PER_BATCH = 64;

/** The batch new attempts join, while their limits end within its window. */
let openBatch: DeadlineBatch | undefined;

class DeadlineBatch implements DueEntry {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  #joined = 0;
  #active = 0;
  #open = true;
  fired = false;

  /** `dueAt`: when the batch aborts; each member's own limit ends at most its lateness before. */
  constructor(readonly dueAt: number) {
    sharedDeadlines.add(this);
  }

  /** Whether an attempt of `ms` due at `due` may join: the batch aborts at or after `due`, within that limit's lateness. */
  accepts(due: number, ms: number): boolean {
    return !this.fired && this.#joined < MAX_ATTEMPTS_PER_BATCH && due <= this.dueAt && this.dueAt <= due + lateness(ms);
  }

  join(): void {
    this.#joined++;
    this.#active++;
  }

  leave(): void {
    this.#active--;
    this.#forgetIfIdle();
  }

  /** No more members: once the last one leaves, the timer need not fire for it. */
  close(): void {
    this.#open = false;
    this.#forgetIfIdle();
  }

  #forgetIfIdle(): void {
    if (this.#active === 0 && !this.#open) sharedDeadlines.delete(this);
  }

  fire(): void {
    this.fired = true;
    if (openBatch === this) openBatch = undefined;
    this.#controller.abort(new DOMException('attempt timed out', 'TimeoutError'));
  }
}

/** One attempt's share of a batch; `clear()` may be called more than once. */
class BatchMember implements Deadline {
  #left = false;

  constructor(readonly batch: DeadlineBatch) {
    batch.join();
  }

  get signal(): AbortSignal {
    return this.batch.signal;
  }

  timedOut(): boolean {
    return this.batch.fired;
  }

  clear(): void {
    if (this.#left) return;
    this.#left = true;
    this.batch.leave();
  }
}
