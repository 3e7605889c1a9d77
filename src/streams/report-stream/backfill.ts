import { SdkError } from '../../core/errors.js';
import type { StreamsClient } from '../client.js';
import { getReportsPage, type Report } from '../reports.js';
import { ReportStreamMessageError } from './errors.js';
import type { ReportStreamEvent } from './options.js';

/** What the backfill needs from the stream. */
export interface BackfillHost {
  readonly client: StreamsClient;
  readonly pageSize: number | undefined;
  /** Aborted when the stream ends. */
  readonly signal: AbortSignal;
  /** The newest timestamp delivered for the stream, if any. */
  lastDelivered(key: string): number | undefined;
  /** Where a stream with nothing delivered yet starts: the Unix second the stream first connected. */
  startSecond(): number;
  /** The latest second a report may be observed at now: this machine's clock plus `maxFutureMs`. */
  latestSecond(): number;
  /** The oldest live report held while `key` is filled: where the backfill meets the live stream. */
  liveEdge(key: string): number | undefined;
  /**
   * Checks (signed fields, time), deduplicates, decodes and queues one
   * backfilled report of stream `key`, waiting for room. True when it was queued.
   */
  deliverBackfilled(key: string, report: Report): Promise<boolean>;
  /** A backfilled report that was not delivered, and why. */
  skip(error: ReportStreamMessageError): void;
  /** The backfill of `key` is over: deliver the live reports held meanwhile. */
  release(key: string): void;
  emit(event: ReportStreamEvent): void;
}

/** REST calls at once, so a stream of many feeds does not send one burst per feed. */
const CONCURRENCY = 4;

/**
 * Fills the gap a reconnect may leave (what the origin sent while it was
 * down, or everything, when no connection was open): for each stream,
 * `GET /api/v1/reports/page` from one past the newest report delivered,
 * page after page (the client's signing and retries), up to the oldest live
 * report received since, or up to now (plus `maxFutureMs`) when none came.
 * While a stream is being filled its live reports are held, then released,
 * so backfilled reports come first and the order per stream holds. A new
 * gap found while a stream is still being filled makes that stream go round
 * once more.
 *
 * The REST API is held to what was asked: a report of another stream, or
 * outside the gap, is skipped and reported, and the walk ends at the gap's
 * end. Each page must move the start on, so a fill makes at most one
 * request per second of its gap, and delivers at most one report per second.
 */
export class GapFiller {
  private readonly filling = new Set<string>();
  private readonly again = new Set<string>();
  private readonly waiting: string[] = [];
  private active = 0;

  constructor(
    private readonly host: BackfillHost,
    private readonly feedIDs: ReadonlyMap<string, string>,
  ) {}

  isFilling(key: string): boolean {
    return this.filling.has(key);
  }

  fillAll(): void {
    for (const key of this.feedIDs.keys()) {
      if (this.filling.has(key)) {
        this.again.add(key);
        continue;
      }
      this.filling.add(key);
      this.waiting.push(key);
    }
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.active < CONCURRENCY && this.waiting.length > 0 && !this.host.signal.aborted) {
      const key = this.waiting.shift() as string;
      this.active++;
      void this.fill(key).finally(() => {
        this.active--;
        this.startWaiting();
      });
    }
  }

  private async fill(key: string): Promise<void> {
    const { host } = this;
    const feedID = this.feedIDs.get(key) as string;
    const first = this.nextSecond(key);
    let from = first;
    let reports = 0;
    try {
      do {
        this.again.delete(key);
        from = this.nextSecond(key);
        reports += await this.walk(key, feedID, from);
      } while (this.again.has(key) && !host.signal.aborted);
      if (!host.signal.aborted) host.emit({ type: 'gap-filled', feedID, from: first, reports });
    } catch (error) {
      if (host.signal.aborted) return;
      const failure = error instanceof SdkError ? error : new SdkError('the backfill failed', { cause: error });
      host.emit({ type: 'gap-unfilled', feedID, from, error: failure });
    } finally {
      this.filling.delete(key);
      this.again.delete(key);
      if (!host.signal.aborted) host.release(key);
    }
  }

  private nextSecond(key: string): number {
    return (this.host.lastDelivered(key) ?? this.host.startSecond() - 1) + 1;
  }

  /** Reads the gap of one stream from second `from` on; resolves to the number of reports delivered. */
  private async walk(key: string, feedID: string, from: number): Promise<number> {
    const { host } = this;
    let delivered = 0;
    let cursor = from;
    while (!host.signal.aborted) {
      // Where the gap ends: the live stream's first report, or, with none yet, the latest time a report may have.
      const edge = host.liveEdge(key);
      const end = edge === undefined ? host.latestSecond() : edge - 1;
      if (cursor > end) return delivered;
      const query = { feedID, startTimestamp: cursor, ...(host.pageSize === undefined ? {} : { limit: host.pageSize }) };
      const page = await getReportsPage(host.client, query, { signal: host.signal });
      let next = cursor;
      for (const report of page) {
        const t = report.observationsTimestamp;
        if (typeof report.feedID !== 'string' || report.feedID.toLowerCase() !== key) {
          host.skip(new ReportStreamMessageError('unexpected_feed', 'rest', `a report of ${String(report.feedID)} in the backfill of ${feedID}`));
          continue;
        }
        if (!Number.isInteger(t) || t < cursor) {
          host.skip(new ReportStreamMessageError('outside_gap', 'rest', `a report observed at ${t}, before the ${cursor} asked for (${feedID})`));
          continue;
        }
        const liveEdge = host.liveEdge(key);
        // Met the live stream: the held reports go on from here.
        if (liveEdge !== undefined && t >= liveEdge) return delivered;
        if (t > end) {
          host.skip(new ReportStreamMessageError('outside_gap', 'rest', `a report observed at ${t}, past the gap's end at ${end} (${feedID})`));
          return delivered;
        }
        if (await host.deliverBackfilled(key, report)) delivered++;
        if (t + 1 > next) next = t + 1;
      }
      // An empty page, or one with nothing past the start: the gap holds nothing more.
      if (next === cursor) return delivered;
      cursor = next;
    }
    return delivered;
  }
}
