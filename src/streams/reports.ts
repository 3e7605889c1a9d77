import { expectBody, isArrayOf, isRecord } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import { walkPages, type PageOptions } from '../core/paginate.js';
import type { components, operations } from '../../generated/types/streams.js';
import type { StreamsClient } from './client.js';
import { decodeReport } from '../reports/decode.js';
import type { DecodedReport } from '../reports/decoded.js';
import { loadVerifier, type ReportVerifier } from '../reports/verify-lazy.js';
import { ReportVerificationError, type ReportTrust } from '../reports/verify-types.js';

/** A report as the streams API returns it: `feedID`, its timestamps and the signed `fullReport`. */
export type Report = components['schemas']['Report'];
/** A stream of the catalog, as `listStreams` returns it. */
export type Stream = components['schemas']['Stream'];
/** The catalog's filters, as `listStreams` takes them. */
export type DiscoveryFilters = NonNullable<operations['listStreams']['parameters']['query']>;

/** A report with its `fullReport` decoded (every field typed, see `decodeReport`). */
export type ReportWithDecoded = Report & { decoded: DecodedReport };

/** Options of the report helpers: decoding, verification, and a signal. */
export interface ReportOptions {
  signal?: AbortSignal;
  /**
   * Also decode each report's `fullReport` into `decoded`. A blob that does
   * not decode, or whose feed ID differs from the report's, throws a
   * ReportDecodeError naming what was wrong.
   */
  decode?: boolean;
  /**
   * Also verify each report's signatures against these oracle network
   * configurations, as the on-chain verifier would (`verifyReport`): a
   * report that fails throws a ReportVerificationError with the reason, and
   * a bulk answer or a page holding one such report throws whole. Without
   * it, nothing checks that a report was signed by the oracle network.
   */
  verify?: ReportTrust;
}

/** The report, or the report with `decoded`, depending on `decode`. */
export type ReportOf<O extends ReportOptions | undefined> = O extends { decode: true } ? ReportWithDecoded : Report;

/** Adds `decoded` to a report, checking the blob against the report's own feed ID. */
export function withDecoded(report: Report): ReportWithDecoded {
  return { ...report, decoded: decodeReport(report.fullReport, report.feedID) };
}

/** What the helpers rely on in a report: its blob and feed ID as strings, its times as numbers. */
function isReport(value: Record<string, unknown>): boolean {
  return (
    typeof value.fullReport === 'string' &&
    typeof value.feedID === 'string' &&
    typeof value.observationsTimestamp === 'number' &&
    typeof value.validFromTimestamp === 'number'
  );
}

const hasReport = (body: Record<string, unknown>) => isRecord(body.report) && isReport(body.report);
const hasReports = (body: Record<string, unknown>) => isArrayOf(body.reports, isReport);

/**
 * The verifier when the options ask for verification, else undefined: loaded
 * only then (a dynamic import), so the helpers load no secp256k1 without `verify`.
 */
async function verifierFor(options: ReportOptions | undefined): Promise<ReportVerifier | undefined> {
  return options?.verify === undefined ? undefined : loadVerifier();
}

/** The report as the options ask: verified first with `verifier` (throwing ReportVerificationError), then decoded. */
function maybeDecode<O extends ReportOptions | undefined>(report: Report, options: O | undefined, verifier: ReportVerifier | undefined): ReportOf<O> {
  if (options?.verify !== undefined) {
    // Every caller loads the verifier when `verify` is given (verifierFor): never skip a check silently.
    const verification = verifier!(report.fullReport, options.verify);
    if (!verification.valid) throw new ReportVerificationError(verification);
  }
  return (options?.decode ? withDecoded(report) : report) as ReportOf<O>;
}

/** The latest report of a stream. Throws ApiError on failure. */
export async function getLatestReport<O extends ReportOptions | undefined = undefined>(
  client: StreamsClient,
  feedID: string,
  options?: O,
): Promise<ReportOf<O>> {
  const verifier = await verifierFor(options);
  const data = expectBody<{ report: Report }>(
    await unwrap(client.GET('/api/v1/reports/latest', { params: { query: { feedID } }, signal: options?.signal })),
    'GET /api/v1/reports/latest',
    'a report',
    hasReport,
  );
  return maybeDecode<O>(data.report, options, verifier);
}

/** The report of a stream whose span covers `timestamp` (Unix seconds). */
export async function getReportAtTimestamp<O extends ReportOptions | undefined = undefined>(
  client: StreamsClient,
  feedID: string,
  timestamp: number,
  options?: O,
): Promise<ReportOf<O>> {
  const verifier = await verifierFor(options);
  const data = expectBody<{ report: Report }>(
    await unwrap(client.GET('/api/v1/reports', { params: { query: { feedID, timestamp } }, signal: options?.signal })),
    'GET /api/v1/reports',
    'a report',
    hasReport,
  );
  return maybeDecode<O>(data.report, options, verifier);
}

/** What `getBulkReports` resolves to: the reports found, the stream IDs that had none, and whether every stream answered. */
export interface BulkReports<R = Report> {
  /** The reports that exist at the timestamp. */
  reports: R[];
  /** Requested stream IDs with no report at the timestamp (the service answered 206). Empty when complete. */
  missingFeedIDs: string[];
  /** `false` when some requested streams are missing: never mistake partial data for complete data. */
  complete: boolean;
}

/**
 * Reports of several streams at one time. A `206` answer is partial: the
 * missing stream IDs are named in `missingFeedIDs` and `complete` is false.
 */
export async function getBulkReports<O extends ReportOptions | undefined = undefined>(
  client: StreamsClient,
  feedIDs: readonly string[],
  timestamp: number,
  options?: O,
): Promise<BulkReports<ReportOf<O>>> {
  const verifier = await verifierFor(options);
  const pending = client.GET('/api/v1/reports/bulk', {
    params: { query: { feedIDs: [...feedIDs], timestamp } },
    signal: options?.signal,
  });
  const data = expectBody<{ reports: Report[] }>(await unwrap(pending), 'GET /api/v1/reports/bulk', 'a list of reports', hasReports);
  const result = await pending;
  const present = new Set(data.reports.map((report) => report.feedID.toLowerCase()));
  const missingFeedIDs = feedIDs.filter((id) => !present.has(id.toLowerCase()));
  return {
    reports: data.reports.map((report) => maybeDecode<O>(report, options, verifier)),
    missingFeedIDs,
    // A 206 always means partial, even if the IDs compare equal (e.g. duplicates requested).
    complete: result.response.status !== 206 && missingFeedIDs.length === 0,
  };
}

/** One page of consecutive reports from `startTimestamp`. */
export async function getReportsPage<O extends ReportOptions | undefined = undefined>(
  client: StreamsClient,
  query: { feedID: string; startTimestamp: number; limit?: number },
  options?: O,
): Promise<ReportOf<O>[]> {
  const verifier = await verifierFor(options);
  const data = expectBody<{ reports: Report[] }>(
    await unwrap(client.GET('/api/v1/reports/page', { params: { query }, signal: options?.signal })),
    'GET /api/v1/reports/page',
    'a list of reports',
    hasReports,
  );
  return data.reports.map((report) => maybeDecode<O>(report, options, verifier));
}

/** The stream and time range `paginateReports` walks. */
export interface ReportRange extends PageOptions {
  feedID: string;
  /** Unix seconds of the first report wanted. */
  from: number;
  /** Stop after the last report whose `observationsTimestamp` is at or before this (Unix seconds). Default: until no more reports. */
  to?: number;
  /** Yield reports with `decoded`. */
  decode?: boolean;
  /** Verify each report's signatures against these configurations (see `ReportOptions.verify`); a report that fails throws. */
  verify?: ReportTrust;
}

/**
 * Iterates a stream's reports from `from`, page by page: each next page starts
 * one second past the last report's `observationsTimestamp`, so no report is
 * read twice. Ends at `to`, at `maxItems`, or when a page comes back empty.
 */
export function paginateReports<R extends ReportRange>(
  client: StreamsClient,
  range: R,
): AsyncGenerator<ReportOf<R>, void, undefined> {
  const { feedID, from, to = Number.POSITIVE_INFINITY, pageSize, signal } = range;
  // Set by the first page's fetch (before any page's reports are yielded) when `verify` is given.
  let verifier: ReportVerifier | undefined;
  return walkPages<Report[], ReportOf<R>, number>(
    {
      first: from,
      fetchPage: async (startTimestamp) => {
        const query = pageSize === undefined ? { feedID, startTimestamp } : { feedID, startTimestamp, limit: pageSize };
        verifier ??= await verifierFor(range);
        const page = await getReportsPage(client, query, { signal });
        return page.filter((report) => report.observationsTimestamp <= to);
      },
      // Decoding happens per page as it is yielded, so memory stays bounded by one page.
      itemsOf: (page) => page.map((report) => maybeDecode<R>(report, range, verifier)),
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
  options: { signal?: AbortSignal } = {},
): Promise<Stream[]> {
  const data = expectBody<{ feeds: Stream[] }>(
    await unwrap(client.GET('/api/v1/discovery', { params: { query: filters }, signal: options.signal })),
    'GET /api/v1/discovery',
    'a list of streams',
    (body) => isArrayOf(body.feeds, (feed) => typeof feed.feedID === 'string'),
  );
  return data.feeds;
}
