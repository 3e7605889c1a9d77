import { SdkError } from '../../core/errors.js';
import type { StreamsClient } from '../client.js';
import { paginateReports, type Report } from '../reports.js';
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
  /** The oldest live report held while `key` is filled: where the backfill meets the live stream. */
  liveEdge(key: string): number | undefined;
  /** Deduplicates, decodes and queues one backfilled report, waiting for room. True when it was queued. */
  deliverBackfilled(key: string, report: Report): Promise<boolean>;
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
 * page after page (the client's own pagination, signing and retries) until
 * it meets the oldest live report received since, or a page comes back
 * empty. While a stream is being filled its live reports are held, then
 * released, so backfilled reports come first and the order per stream
 * holds. A new gap found while a stream is still being filled makes that
 * stream go round once more.
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
    const first = (host.lastDelivered(key) ?? host.startSecond() - 1) + 1;
    let from = first;
    let reports = 0;
    try {
      do {
        this.again.delete(key);
        from = (host.lastDelivered(key) ?? host.startSecond() - 1) + 1;
        const pages = paginateReports(host.client, {
          feedID,
          from,
          signal: host.signal,
          ...(host.pageSize === undefined ? {} : { pageSize: host.pageSize }),
        });
        for await (const report of pages) {
          const edge = host.liveEdge(key);
          // Met the live stream: the held reports go on from here.
          if (edge !== undefined && report.observationsTimestamp >= edge) break;
          if (await host.deliverBackfilled(key, report)) reports++;
        }
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
}
