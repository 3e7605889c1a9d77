import type { Report } from '../reports.js';
import { ReportStreamMessageError } from './errors.js';
import { envelopeMismatch } from './signed-fields.js';
import type { FeedState } from './watermarks.js';

/**
 * Whether a report can be believed before it may move its stream's
 * watermark: its envelope agrees with the signed report, and it is not from
 * the future (beyond `maxFutureMs`). So neither a message that lies nor a
 * clock that runs ahead can push genuine reports out as late.
 */
export class ReportTrust {
  /** A bound `latestSecond()` gave earlier (see `notInTheFuture`). */
  private knownLatestSecond = -1;

  constructor(
    private readonly maxFutureMs: number,
    /** The clock reports are dated by, in Unix ms: this machine's, or a sandbox's. */
    private readonly now: () => number,
  ) {}

  /** The latest second a report may be observed at now (see `maxFutureMs`). */
  latestSecond(): number {
    return Math.floor((this.now() + this.maxFutureMs) / 1000);
  }

  /** Why `report` cannot be trusted (to be skipped and reported), or undefined when it can. */
  distrust(feed: FeedState, report: Report, source: string): ReportStreamMessageError | undefined {
    const mismatch = envelopeMismatch(report, feed.signedHead);
    if (mismatch !== undefined) return new ReportStreamMessageError('envelope_mismatch', source, mismatch);
    if (!this.notInTheFuture(report.observationsTimestamp)) {
      const ahead = report.observationsTimestamp - Math.floor(this.now() / 1000);
      return new ReportStreamMessageError(
        'from_the_future',
        source,
        `a report of ${report.feedID} observed at ${report.observationsTimestamp}, ${ahead} s ahead of this clock (maxFutureMs: ${this.maxFutureMs})`,
      );
    }
    return undefined;
  }

  /**
   * Whether second `t` is not in the future. The bound only grows, so one
   * seen earlier still holds: the clock is read only for reports beyond it.
   */
  private notInTheFuture(t: number): boolean {
    if (t <= this.knownLatestSecond) return true;
    this.knownLatestSecond = this.latestSecond();
    return t <= this.knownLatestSecond;
  }
}
