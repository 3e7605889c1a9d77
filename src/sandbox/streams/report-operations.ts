/**
 * The streams operations that carry reports, which a `reports` fault forges:
 * the REST reads (latest, at a time, bulk, page) and the live stream
 * (`streamReports`, whose reports come over its WebSocket, one message per
 * stream and second). Other requests carry no report, so a report fault
 * neither applies to them nor is used up by them.
 */
import type { ReportOperation } from './handlers.js';

export const REST_REPORT_OPERATIONS: readonly Exclude<ReportOperation, 'listStreams'>[] = ['getLatestReport', 'getReportAtTimestamp', 'getBulkReports', 'getReportsPage'];

/** The live stream's operation: its upgrade request carries no report, the reports it then delivers do. */
export const LIVE_REPORT_OPERATION = 'streamReports';
