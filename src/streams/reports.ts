import { unwrap } from '../core/unwrap.js';
import { walkPages, type PageOptions } from '../core/paginate.js';
import type { components, operations } from '../../generated/types/streams.js';
import type { StreamsClient } from './client.js';

export type Report = components['schemas']['Report'];
export type Stream = components['schemas']['Stream'];
export type DiscoveryFilters = NonNullable<operations['listStreams']['parameters']['query']>;

/** The latest report of a stream. Throws ApiError on failure. */
export async function getLatestReport(client: StreamsClient, feedID: string, signal?: AbortSignal): Promise<Report> {
  const data = await unwrap(client.GET('/api/v1/reports/latest', { params: { query: { feedID } }, signal }));
  return data.report;
}

/** The report of a stream whose span covers `timestamp` (Unix seconds). */
export async function getReportAtTimestamp(
  client: StreamsClient,
  feedID: string,
  timestamp: number,
  signal?: AbortSignal,
): Promise<Report> {
  const data = await unwrap(client.GET('/api/v1/reports', { params: { query: { feedID, timestamp } }, signal }));
  return data.report;
}

export interface BulkReports {
  /** The reports that exist at the timestamp. */
  reports: Report[];
  /** Requested stream IDs with no report at the timestamp (the service answered 206). Empty when complete. */
  missingFeedIDs: string[];
  /** `false` when some requested streams are missing: never mistake partial data for complete data. */
  complete: boolean;
}

/**
 * Reports of several streams at one time. A `206` answer is partial: the
 * missing stream IDs are named in `missingFeedIDs` and `complete` is false.
 */
export async function getBulkReports(
  client: StreamsClient,
  feedIDs: readonly string[],
  timestamp: number,
  signal?: AbortSignal,
): Promise<BulkReports> {
  const result = await client.GET('/api/v1/reports/bulk', {
    params: { query: { feedIDs: [...feedIDs], timestamp } },
    signal,
  });
  const data = await unwrap(result);
  const present = new Set(data.reports.map((report) => report.feedID.toLowerCase()));
  const missingFeedIDs = feedIDs.filter((id) => !present.has(id.toLowerCase()));
  // A 206 always means partial, even if the IDs compare equal (e.g. duplicates requested).
  return { reports: data.reports, missingFeedIDs, complete: result.response.status !== 206 && missingFeedIDs.length === 0 };
}

/** One page of consecutive reports from `startTimestamp`. */
export async function getReportsPage(
  client: StreamsClient,
  query: { feedID: string; startTimestamp: number; limit?: number },
  signal?: AbortSignal,
): Promise<Report[]> {
  const data = await unwrap(client.GET('/api/v1/reports/page', { params: { query }, signal }));
  return data.reports;
}

export interface ReportRange extends PageOptions {
  feedID: string;
  /** Unix seconds of the first report wanted. */
  from: number;
  /** Stop after the last report whose `observationsTimestamp` is at or before this (Unix seconds). Default: until no more reports. */
  to?: number;
}

/**
 * Iterates a stream's reports from `from`, page by page: each next page starts
 * one second past the last report's `observationsTimestamp`, so no report is
 * read twice. Ends at `to`, at `maxItems`, or when a page comes back empty.
 */
export function paginateReports(client: StreamsClient, range: ReportRange): AsyncGenerator<Report, void, undefined> {
  const { feedID, from, to = Number.POSITIVE_INFINITY, pageSize, signal } = range;
  return walkPages<Report[], Report, number>(
    {
      first: from,
      fetchPage: async (startTimestamp) => {
        const page = await getReportsPage(
          client,
          pageSize === undefined ? { feedID, startTimestamp } : { feedID, startTimestamp, limit: pageSize },
          signal,
        );
        return page.filter((report) => report.observationsTimestamp <= to);
      },
      itemsOf: (page) => page,
      nextCursor: (page) => {
        const last = page[page.length - 1]!.observationsTimestamp;
        return last >= to ? undefined : last + 1;
      },
    },
    range,
  );
}

/** The stream catalog, filtered. Anonymous clients see public streams only. */
export async function listStreams(
  client: StreamsClient,
  filters: DiscoveryFilters = {},
  signal?: AbortSignal,
): Promise<Stream[]> {
  const data = await unwrap(client.GET('/api/v1/discovery', { params: { query: filters }, signal }));
  return data.feeds;
}
