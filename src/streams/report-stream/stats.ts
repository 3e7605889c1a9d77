import type { ReportStreamMessageError } from './errors.js';
import type { StreamMetrics } from './metrics.js';
import type { ReportStreamEvent } from './options.js';

/** A stream's counters: `stream.stats` returns a copy. */
export interface ReportStreamStats {
  /** Messages received, over every connection. */
  received: number;
  /** Reports handed to the buffer: live and backfilled, each once. */
  accepted: number;
  /** Copies dropped by deduplication (one per extra origin, resends, overlaps with the backfill). */
  duplicates: number;
  /**
   * Reports not delivered because a newer one of their stream already was
   * (delivering them would break the order), and that were not delivered
   * themselves: each is also reported as a `late-report` event.
   */
  late: number;
  /** Reports read from the REST API to fill gaps (included in `accepted`). */
  backfilled: number;
  /** Reports discarded by `overflow: 'latest-per-feed'` because the consumer was behind. */
  dropped: number;
  /** Reports waiting for the consumer now (at most `bufferSize`): how far behind it is. */
  buffered: number;
  /**
   * Messages and backfilled reports skipped: malformed, of another stream,
   * disagreeing with their signed report, from the future, outside a gap, too
   * large, unverified; each is also reported as a `message-skipped` event.
   */
  skipped: number;
  /** Reports of a second already delivered, with other content: the first is kept; each is also a `conflicting-report` event. */
  conflicts: number;
  /** Open connections that were lost. */
  connectionsLost: number;
  /** With `verify`: distinct reports whose signatures were checked (a copy of one is not checked again), passed or not. */
  checked: number;
  /** With `verify`: checked reports whose signatures passed. */
  verified: number;
  /**
   * With `verify`: reports refused, skipped as `unverified` (also counted in
   * `skipped`): their signatures failed the check, or they came while the
   * verification backlog was full and were not checked.
   */
  unverified: number;
}

/** The counters a stream keeps itself; `dropped` and `buffered` are read from its buffers. */
export type StreamCounts = Omit<ReportStreamStats, 'dropped' | 'buffered'>;

/**
 * Where every part of a stream (connections, admission, delivery, backfill)
 * counts what happened and tells the `onStatus` listener (and the metrics,
 * with a `meter`), so a count and its event never part ways.
 */
export class StreamStatus {
  readonly counts: StreamCounts = { received: 0, accepted: 0, duplicates: 0, late: 0, backfilled: 0, skipped: 0, conflicts: 0, connectionsLost: 0, checked: 0, verified: 0, unverified: 0 };

  constructor(
    private readonly onStatus: ((event: ReportStreamEvent) => void) | undefined,
    /** With the `meter` option: the same events as metrics. */
    readonly metrics?: StreamMetrics,
  ) {}

  emit(event: ReportStreamEvent): void {
    try {
      this.metrics?.event(event);
    } catch {
      // Nor must a meter's.
    }
    try {
      this.onStatus?.(event);
    } catch {
      // A status listener's failure must not break the stream.
    }
  }

  /** A message or report not delivered: counted in `skipped` and reported as `message-skipped`. */
  skip(error: ReportStreamMessageError): void {
    this.counts.skipped++;
    this.emit({ type: 'message-skipped', error });
  }
}
