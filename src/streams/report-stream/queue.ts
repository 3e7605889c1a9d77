import type { OverflowPolicy } from './options.js';
import { ReportStreamOverflowError } from './errors.js';

type Waiter<T> = { resolve(result: IteratorResult<T, undefined>): void; reject(error: unknown): void };

/**
 * The bounded buffer between the sockets and a consumer that may be slower
 * than the stream. At most `capacity` reports wait; when a live report finds
 * it full, `latest-per-feed` keeps only the newest waiting report of each
 * stream (so a consumer that falls behind catches up on current prices, in
 * order per stream) and counts the rest in `dropped`, while `error` fails.
 * Backfilled reports wait for room instead (`pushWhenRoom`), so a long
 * backfill never overflows the buffer.
 */
export class ReportQueue<T extends { feedID: string }> {
  private items: T[] = [];
  private head = 0;
  private readonly waiters: Waiter<T>[] = [];
  private readonly roomWaiters: (() => void)[] = [];
  private ended = false;
  private endError: unknown;
  dropped = 0;

  constructor(
    private readonly capacity: number,
    private readonly policy: OverflowPolicy,
    private readonly onOverflow: (error: ReportStreamOverflowError) => void,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  /** A live report. */
  push(item: T): void {
    if (this.ended) return;
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      waiter.resolve({ value: item, done: false });
      return;
    }
    if (this.size >= this.capacity) {
      if (this.policy === 'error') {
        this.onOverflow(new ReportStreamOverflowError(this.capacity));
        return;
      }
      this.compact(item.feedID.toLowerCase());
    }
    this.items.push(item);
  }

  /** A backfilled report: waits until there is room rather than dropping anything. */
  async pushWhenRoom(item: T): Promise<void> {
    while (!this.ended && this.waiters.length === 0 && this.size >= this.capacity) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    this.push(item);
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.size > 0) {
      const value = this.items[this.head] as T;
      this.items[this.head] = undefined as unknown as T;
      this.head++;
      if (this.head === this.items.length) {
        // Drained: start over at the front, so the array does not creep.
        this.items.length = 0;
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      this.roomWaiters.shift()?.();
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) {
      const error = this.endError;
      // Thrown once; later calls see a plain end, as with any iterator.
      this.endError = undefined;
      return error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(error);
    }
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** No more reports: the waiting ones are still delivered, then `error` (if any) is thrown once, then the end. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.endError = error;
    for (const resume of this.roomWaiters.splice(0)) resume();
    for (const waiter of this.waiters.splice(0)) {
      const pending = this.endError;
      this.endError = undefined;
      if (pending === undefined) waiter.resolve({ value: undefined, done: true });
      else waiter.reject(pending);
    }
  }

  /** The consumer stopped: nothing more is delivered. */
  clear(): void {
    this.items = [];
    this.head = 0;
    this.endError = undefined;
    this.end();
  }

  /**
   * Keeps only the newest waiting report of each stream. If every waiting
   * report is already the only one of its stream (as many streams as
   * places), the one of `incomingKey` makes room for its newer report.
   */
  private compact(incomingKey: string): void {
    const before = this.size;
    const seen = new Set<string>();
    const kept: T[] = [];
    for (let i = this.items.length - 1; i >= this.head; i--) {
      const item = this.items[i] as T;
      const key = item.feedID.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(item);
    }
    kept.reverse();
    if (kept.length >= this.capacity) {
      const index = kept.findIndex((item) => item.feedID.toLowerCase() === incomingKey);
      kept.splice(index < 0 ? 0 : index, 1);
    }
    this.items = kept;
    this.head = 0;
    this.dropped += before - kept.length;
  }
}
