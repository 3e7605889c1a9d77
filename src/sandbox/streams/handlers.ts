/**
 * The report and discovery operations of the report API, over the catalog
 * and sandbox time: latest, at a time, bulk (`206` with only the reports that
 * exist when some streams have none at that time), a page from a start time,
 * and discovery.
 *
 * A stream that is not in the catalog is a `401`, as the spec says of a
 * stream that does not exist or that the key may not read. A single report
 * that does not exist (before the stream's first report, after it was
 * decommissioned, or in the future) is a `400 NO_REPORT`: the spec documents
 * no other refusal for these operations.
 */
import type { SandboxClock } from '../clock.js';
import { SandboxHttpError, type OperationHandler } from '../types.js';
import { findStream, SANDBOX_STREAMS, type CatalogStream } from './catalog.js';
import { discover } from './discovery.js';
import { firstSecond, hasReportAt, lastSecond, reportAt, reportsFrom } from './history.js';
import { feedIdArgument, feedIdsArgument, optionalIntegerArgument, secondsArgument } from './query.js';

/** Reports in a page when `limit` is not given. */
export const DEFAULT_PAGE_LIMIT = 100;
/**
 * The most reports one page holds. The spec sets no maximum, so a larger
 * `limit` is not refused: the page holds this many, which its "at most"
 * allows, and the caller reads on from the last one.
 */
export const MAX_PAGE_REPORTS = 1_000;

export type ReportOperation = 'getLatestReport' | 'getReportAtTimestamp' | 'getBulkReports' | 'getReportsPage' | 'listStreams';

/** The catalog stream of a requested ID; a stream the sandbox does not have is the spec's 401. */
export function requireStream(feedID: string): CatalogStream {
  const stream = findStream(feedID);
  if (stream === undefined) {
    throw new SandboxHttpError(401, 'UNAUTHORIZED', `authentication failed: this key may not read stream ${feedID} (or it does not exist)`, 'STREAM_NOT_ALLOWED');
  }
  return stream;
}

function noReport(stream: CatalogStream, t: number | undefined, nowSeconds: number): SandboxHttpError {
  const first = firstSecond(stream);
  const last = lastSecond(stream, nowSeconds);
  const range = last < first ? `its first report is at ${first}` : `its reports run from ${first} to ${last}`;
  const what = t === undefined ? 'has no report yet' : `has no report at ${t}`;
  return new SandboxHttpError(400, 'BAD_REQUEST', `stream ${stream.record.feedID} ${what}: ${range}`, 'NO_REPORT');
}

export function createReportHandlers(clock: SandboxClock): Record<ReportOperation, OperationHandler> {
  const nowSeconds = () => Math.floor(clock.now() / 1000);

  return {
    getLatestReport({ query, reportSigning }) {
      const stream = requireStream(feedIdArgument(query, 'feedID'));
      const now = nowSeconds();
      const last = lastSecond(stream, now);
      if (last < firstSecond(stream)) throw noReport(stream, undefined, now);
      return { status: 200, body: { report: reportAt(stream, last, reportSigning) } };
    },

    getReportAtTimestamp({ query, reportSigning }) {
      const stream = requireStream(feedIdArgument(query, 'feedID'));
      const t = secondsArgument(query, 'timestamp');
      const now = nowSeconds();
      if (!hasReportAt(stream, t, now)) throw noReport(stream, t, now);
      return { status: 200, body: { report: reportAt(stream, t, reportSigning) } };
    },

    getBulkReports({ query, reportSigning }) {
      const streams = feedIdsArgument(query, 'feedIDs').map((feedID) => requireStream(feedID));
      const t = secondsArgument(query, 'timestamp');
      const now = nowSeconds();
      const present = streams.filter((stream) => hasReportAt(stream, t, now));
      return { status: present.length === streams.length ? 200 : 206, body: { reports: present.map((stream) => reportAt(stream, t, reportSigning)) } };
    },

    getReportsPage({ query, reportSigning }) {
      const stream = requireStream(feedIdArgument(query, 'feedID'));
      const from = secondsArgument(query, 'startTimestamp');
      const limit = Math.min(optionalIntegerArgument(query, 'limit') ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_REPORTS);
      return { status: 200, body: { reports: reportsFrom(stream, from, limit, nowSeconds(), reportSigning) } };
    },

    listStreams({ query, authenticated }) {
      return { status: 200, body: { feeds: discover(SANDBOX_STREAMS, query, authenticated) } };
    },
  };
}
