/**
 * Whether a report a REST helper received is the one it asked for. A
 * signature proves a report genuine, not that it answers the request: a
 * proxy, a cache or a compromised service can answer a request for ETH/USD
 * with a genuine BTC/USD report, or with a genuine report of another second.
 * So with `verify` the helpers compare the signed feed ID and times with the
 * request, after checking that the unsigned envelope says what the signed
 * report says (the live stream's check, signed-fields.ts), so that the
 * envelope, which the caller reads, can be compared instead of the blob.
 */
import { quoteInput, ReportDecodeError } from '../reports/decode-error.js';
import type { components } from '../../generated/types/streams.js';

type Report = components['schemas']['Report'];
import { envelopeMismatch } from './report-stream/signed-fields.js';

/** What a helper asked for: the streams, and the second a report must cover or the first second of a page. */
export interface AskedFor {
  readonly feedIDs: readonly string[];
  /** A report's span (`validFromTimestamp` to `observationsTimestamp`) must cover it. */
  readonly at?: number;
  /** A report must be observed at or after it. */
  readonly from?: number;
}

/** The stream ID of `asked` that `feedID` is (any case), if any. */
function askedStream(feedID: string, asked: AskedFor): string | undefined {
  const wanted = feedID.toLowerCase();
  return asked.feedIDs.find((id) => typeof id === 'string' && id.toLowerCase() === wanted);
}

/**
 * Why `report` is not an answer to `asked`, or undefined when it is: its
 * envelope disagrees with the signed report, or the signed stream or times
 * are not those asked for.
 */
export function unaskedReport(report: Report, asked: AskedFor): string | undefined {
  const mismatch = envelopeMismatch(report);
  if (mismatch !== undefined) return mismatch;
  // The envelope is now the signed report's own: its fields are the signed ones.
  const { feedID, validFromTimestamp: validFrom, observationsTimestamp: observed } = report;
  if (askedStream(feedID, asked) === undefined) {
    return asked.feedIDs.length === 1
      ? `a report of stream ${feedID.toLowerCase()}, asked for ${String(asked.feedIDs[0])}`
      : `a report of stream ${feedID.toLowerCase()}, not among the streams asked for`;
  }
  if (asked.at !== undefined && !(validFrom <= asked.at && asked.at <= observed)) {
    return `a report of ${feedID.toLowerCase()} signed for seconds ${validFrom} to ${observed}, not ${asked.at} as asked`;
  }
  if (asked.from !== undefined && observed < asked.from) {
    return `a report of ${feedID.toLowerCase()} observed at ${observed}, before ${asked.from}, the first second asked for`;
  }
  return undefined;
}

/**
 * The stream a report's blob must be of when decoded without `verify`: the
 * one asked for (of several, the one its envelope names).
 *
 * @throws {ReportDecodeError} `feed_id_mismatch` when the envelope names a stream not asked for.
 */
export function streamToDecodeAs(report: Report, asked: AskedFor): string {
  if (asked.feedIDs.length === 1) return asked.feedIDs[0]!;
  const stream = askedStream(report.feedID, asked);
  if (stream === undefined) throw new ReportDecodeError('feed_id_mismatch', `a report of stream ${quoteInput(report.feedID)}, not among the streams asked for`, 'feedID');
  return stream;
}
