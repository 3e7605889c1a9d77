import { expectBody, isArrayOf, isRecord } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import { walkPages, type PageOptions } from '../core/paginate.js';
import type { components, operations } from '../../generated/types/streams.js';
import type { StreamsClient } from './client.js';
import { decodeReport } from '../reports/decode.js';
import type { DecodedReport } from '../reports/decoded.js';
import { checkReportTrust } from '../reports/verify-config.js';
import { loadVerifier, type ReportVerifier } from '../reports/verify-lazy.js';
import { ReportVerificationError, type ReportTrust } from '../reports/verify-types.js';
import { streamToDecodeAs, unaskedReport, type AskedFor } from './asked-for.js';

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
   * not decode, or whose feed ID is not the stream asked for, throws a
   * ReportDecodeError naming what was wrong.
   */
  decode?: boolean;
  /**
   * Also verify each report's signatures against these oracle network
   * configurations, as the on-chain verifier would (`verifyReport`), and
   * that it is the report asked for: its signed stream is the one asked
   * for, its signed times cover the time asked for (a page's: at or after
   * its start), and its envelope says what the signed report says. A report
   * that fails throws a ReportVerificationError with the reason
   * (`unexpected_report` for a genuine report that is not the one asked
   * for), and a bulk answer or a page holding one such report throws whole.
   * A malformed trust throws ConfigurationError before any request. Without
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
 * The verifier when the options ask for verification, else undefined: the
 * trust is checked first (a malformed one is refused before any request),
 * and the verifier loaded only then (a dynamic import), so the helpers load
 * no secp256k1 without `verify`.
 */
async function verifierFor(options: ReportOptions | undefined): Promise<ReportVerifier | undefined> {
  if (options?.verify === undefined) return undefined;
  checkReportTrust(options.verify, 'verify');
  return loadVerifier();
}

/**
 * The report as the options ask. With `verify`: its signatures verified with
 * `verifier`, then it must be the report `asked` for (signed stream and
 * times, an envelope agreeing with them), else ReportVerificationError. Then
 * decoded when asked, its blob compared with the stream asked for.
 */
function checked<O extends ReportOptions | undefined>(report: Report, options: O | undefined, verifier: ReportVerifier | undefined, asked: AskedFor): ReportOf<O> {
  if (options?.verify !== undefined) {
    // Every caller loads the verifier when `verify` is given (verifierFor): never skip a check silently.
    const verification = verifier!(report.fullReport, options.verify);
    if (!verification.valid) throw new ReportVerificationError(verification);
    const unasked = unaskedReport(report, asked);
    if (unasked !== undefined) throw new ReportVerificationError({ valid: false, reason: 'unexpected_report', message: unasked });
  }
  if (!options?.decode) return report as ReportOf<O>;
  return { ...report, decoded: decodeReport(report.fullReport, streamToDecodeAs(report, asked)) } as ReportOf<O>;
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
  return checked<O>(data.report, options, verifier, { feedIDs: [feedID] });
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
  return checked<O>(data.report, options, verifier, { feedIDs: [feedID], at: timestamp });
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
    reports: data.reports.map((report) => checked<O>(report, options, verifier, { feedIDs, at: timestamp })),
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
  const asked = { feedIDs: [query.feedID], from: query.startTimestamp };
  return data.reports.map((report) => checked<O>(report, options, verifier, asked));
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
  /** Verify each report against these configurations, and that it is of `feedID` and not before its page's start (see `ReportOptions.verify`); a report that fails throws. */
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
  return walkPages<{ start: number; reports: Report[] }, ReportOf<R>, number>(
    {
      first: from,
      fetchPage: async (startTimestamp) => {
        const query = pageSize === undefined ? { feedID, startTimestamp } : { feedID, startTimestamp, limit: pageSize };
        verifier ??= await verifierFor(range);
        const page = await getReportsPage(client, query, { signal });
        return { start: startTimestamp, reports: page.filter((report) => report.observationsTimestamp <= to) };
      },
      // Checked and decoded per page as it is yielded, so memory stays bounded by one page.
      itemsOf: ({ start, reports }) => reports.map((report) => checked<R>(report, range, verifier, { feedIDs: [feedID], from: start })),
      nextCursor: ({ reports }) => {
        const last = reports[reports.length - 1]!.observationsTimestamp;
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
