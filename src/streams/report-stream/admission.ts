import { withDecoded, type Report } from '../reports.js';
import { ReportStreamMessageError } from './errors.js';
import { FEED_ID, parseReportMessage } from './message.js';
import type { StreamStatus } from './stats.js';
import type { ReportTrust } from './trust.js';
import { FeedWatermarks, type FeedState } from './watermarks.js';

/** A message that parsed as a report of one of the stream's feeds. */
export interface ReceivedReport {
  feed: FeedState;
  report: Report;
}

/**
 * Which reports a stream lets through, from any source (a connection, the
 * REST backfill, the held ones): a message must parse as a report of a
 * feed asked for; a report must be newer than every one delivered for its
 * stream and trustworthy (`ReportTrust`); duplicates, conflicts and late
 * reports are counted and reported instead. Admitted reports are decoded
 * when asked and recorded as delivered.
 */
export class ReportAdmission<R extends Report> {
  private readonly watermarks: FeedWatermarks;

  constructor(
    feedIDs: readonly string[],
    private readonly trust: ReportTrust,
    private readonly decode: boolean,
    private readonly status: StreamStatus,
  ) {
    this.watermarks = new FeedWatermarks(feedIDs);
  }

  /** The state of stream `key` (any case), if the stream asked for it. */
  feed(key: string): FeedState | undefined {
    return this.watermarks.find(key);
  }

  /** The newest timestamp delivered for stream `key`, if any. */
  lastDelivered(key: string): number | undefined {
    return this.watermarks.last(key);
  }

  /** Parses a message from `source`; one that is not a report of a stream asked for is skipped (undefined). */
  receive(text: string, source: string): ReceivedReport | undefined {
    let report: Report;
    try {
      report = parseReportMessage(text, source);
    } catch (error) {
      this.status.skip(error as ReportStreamMessageError);
      return undefined;
    }
    const feed = this.watermarks.find(report.feedID);
    if (feed === undefined) {
      this.status.skip(
        FEED_ID.test(report.feedID)
          ? new ReportStreamMessageError('unexpected_feed', source, `a report of ${report.feedID}, which this stream did not ask for`)
          : new ReportStreamMessageError('not_a_report', source, '`report.feedID` is not a stream ID'),
      );
      return undefined;
    }
    return { feed, report };
  }

  /**
   * True when `report` is newer than every report delivered for its stream
   * and trustworthy (its envelope agrees with the signed report, and it is
   * not from the future). Otherwise it is counted: as a duplicate (or a
   * conflict, when its content differs from the copy delivered), or, when it
   * was never delivered, as late, and reported, since it is not delivered
   * (the order per stream comes first) and must not vanish unnoticed.
   * A copy of a delivered report needs no check of its own: it is compared
   * whole with what was delivered.
   */
  isNew(feed: FeedState, report: Report, source: string): boolean {
    const arrival = feed.classify(report.observationsTimestamp);
    if (arrival === 'new') return this.trustworthy(feed, report, source);
    const { counts } = this.status;
    if (arrival === 'duplicate') {
      const delivered = feed.contentAt(report.observationsTimestamp);
      if (delivered !== undefined && delivered !== report.fullReport) {
        counts.conflicts++;
        this.status.emit({ type: 'conflicting-report', feedID: feed.feedID, observationsTimestamp: report.observationsTimestamp, source });
      } else {
        counts.duplicates++;
      }
    } else if (this.trustworthy(feed, report, source)) {
      counts.late++;
      this.status.emit({ type: 'late-report', feedID: feed.feedID, observationsTimestamp: report.observationsTimestamp, lastDelivered: feed.newest });
    }
    return false;
  }

  /**
   * True when a report of the same second was delivered with other content:
   * `isNew` would count it as a conflict. With `verify` its signatures are
   * checked first, so that a forged copy is reported as unverified instead.
   */
  differsFromDelivered(feed: FeedState, report: Report): boolean {
    if (feed.classify(report.observationsTimestamp) !== 'duplicate') return false;
    const delivered = feed.contentAt(report.observationsTimestamp);
    return delivered !== undefined && delivered !== report.fullReport;
  }

  /** Dedup check done by the caller (`isNew`); decodes if asked, then records the report as delivered. */
  admit(feed: FeedState, report: Report, source: string): R | undefined {
    let item: R;
    if (this.decode) {
      try {
        item = withDecoded(report) as unknown as R;
      } catch (error) {
        this.status.skip(new ReportStreamMessageError('undecodable', source, (error as Error).message, { cause: error }));
        return undefined;
      }
    } else {
      item = report as R;
    }
    feed.delivered(report.observationsTimestamp, report.fullReport);
    this.status.counts.accepted++;
    return item;
  }

  /** True when the report can be trusted; otherwise it is skipped and reported. */
  private trustworthy(feed: FeedState, report: Report, source: string): boolean {
    const problem = this.trust.distrust(feed, report, source);
    if (problem === undefined) return true;
    this.status.skip(problem);
    return false;
  }
}
