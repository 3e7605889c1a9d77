import type { SdkError } from '../../core/errors.js';
import type { Report } from '../reports.js';
import type { ReportAdmission } from './admission.js';
import { ReportStreamOverflowError } from './errors.js';
import type { OverflowPolicy } from './options.js';
import type { ReportQueue } from './queue.js';
import type { StreamStatus } from './stats.js';
import type { StreamVerification } from './verification.js';
import type { FeedState } from './watermarks.js';

/** What delivery needs from the stream besides admission and the buffer. */
export interface DeliveryHost {
  /** Whether stream `key` is being backfilled now (its live reports are held meanwhile). */
  isFilling(key: string): boolean;
  /** Ends the stream with `error` (held reports overflowed with `overflow: 'error'`). */
  fail(error: SdkError): void;
}

/**
 * Hands admitted reports to the consumer's buffer, in time order per
 * stream: a live report goes straight in unless its stream is being
 * backfilled, in which case it is held (bounded by `bufferSize`) until the
 * backfill ends, then released after the backfilled ones.
 */
export class ReportDelivery<R extends Report> {
  private readonly held = new Map<string, Report[]>();
  private heldDropped = 0;
  private stopped = false;

  constructor(
    private readonly admission: ReportAdmission<R>,
    private readonly queue: ReportQueue<R>,
    private readonly limits: { readonly bufferSize: number; readonly overflow: OverflowPolicy },
    private readonly status: StreamStatus,
    private readonly host: DeliveryHost,
    /** With `verify`: a new report goes on only once its signatures are verified. */
    private readonly verification?: StreamVerification,
  ) {}

  /**
   * With `verify`, a copy that differs from the report delivered for its
   * second is verified before it counts as a conflict: a forged copy is
   * then skipped as unverified, a genuine one comes back through `again`
   * (whose verdict is now known) and is counted as a conflict. True while
   * the copy is held back for that, or refused.
   */
  private verifyingCopy(feed: FeedState, report: Report, source: string, again: () => void): boolean {
    if (this.verification === undefined || !this.admission.differsFromDelivered(feed, report)) return false;
    const verified = this.verification.verified(report, source);
    if (verified === true) return false;
    if (verified !== false) void verified.then((valid) => valid && !this.stopped && again());
    return true;
  }

  /** Held reports discarded by `overflow: 'latest-per-feed'` (the buffer counts its own). */
  get dropped(): number {
    return this.heldDropped;
  }

  /** A live report from a connection (`source`), parsed and of a stream asked for. */
  live(feed: FeedState, report: Report, source: string): void {
    if (this.verifyingCopy(feed, report, source, () => this.live(feed, report, source))) return;
    if (!this.admission.isNew(feed, report, source)) return;
    const verified = this.verification?.verified(report, source) ?? true;
    if (verified !== true) {
      // Verified later, off the socket's path: then it comes through here again (a copy delivered meanwhile makes it a duplicate).
      if (verified !== false) void verified.then((valid) => valid && !this.stopped && this.live(feed, report, source));
      return;
    }
    if (this.host.isFilling(feed.key)) {
      this.hold(feed.key, report);
      return;
    }
    const item = this.admission.admit(feed, report, source);
    if (item !== undefined) this.queue.push(item);
  }

  /** A report of stream `key` read from the REST API: delivered when new, waiting for room. True when it was. */
  async backfilled(key: string, report: Report): Promise<boolean> {
    const feed = this.admission.feed(key);
    if (this.stopped || feed === undefined) return false;
    if (this.verifyingCopy(feed, report, 'rest', () => void this.backfilled(key, report))) return false;
    if (!this.admission.isNew(feed, report, 'rest')) return false;
    const verified = this.verification?.verified(report, 'rest') ?? true;
    if (verified !== true && !(verified !== false && (await verified))) return false;
    // Still new after the wait? (A live copy may have been delivered meanwhile.)
    if (verified !== true && (this.stopped || !this.admission.isNew(feed, report, 'rest'))) return false;
    const item = this.admission.admit(feed, report, 'rest');
    if (item === undefined) return false;
    this.status.counts.backfilled++;
    await this.queue.pushWhenRoom(item);
    return true;
  }

  /** The oldest live report held while `key` is filled: where the backfill meets the live stream. */
  liveEdge(key: string): number | undefined {
    return this.held.get(key)?.[0]?.observationsTimestamp;
  }

  /** The backfill of `key` is over: delivers the live reports held meanwhile. */
  release(key: string): void {
    const list = this.held.get(key);
    const feed = this.admission.feed(key);
    this.held.delete(key);
    if (feed === undefined || list === undefined) return;
    // Held in arrival order, which two origins can interleave (one behind the
    // other); in time order, none of them is late only because of that.
    list.sort((a, b) => a.observationsTimestamp - b.observationsTimestamp);
    for (const report of list) {
      if (this.stopped) return;
      if (!this.admission.isNew(feed, report, 'held')) continue;
      const item = this.admission.admit(feed, report, 'held');
      if (item !== undefined) this.queue.push(item);
    }
  }

  /**
   * Every connection was lost: reports held for a stream being filled no
   * longer join up with what comes after this gap; the backfill reads them
   * again from the REST API.
   */
  dropHeld(): void {
    this.held.clear();
  }

  /** The stream ended: nothing more is delivered. */
  stop(): void {
    this.stopped = true;
    this.held.clear();
    this.verification?.stop();
  }

  private hold(key: string, report: Report): void {
    let list = this.held.get(key);
    if (list === undefined) this.held.set(key, (list = []));
    if (list.length >= this.limits.bufferSize) {
      if (this.limits.overflow === 'error') {
        this.host.fail(new ReportStreamOverflowError(this.limits.bufferSize));
        return;
      }
      list.shift();
      this.heldDropped++;
    }
    list.push(report);
  }
}
