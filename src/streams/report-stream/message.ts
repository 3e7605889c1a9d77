import type { components } from '../../../generated/types/streams.js';
import type { Report } from '../reports.js';
import { ReportStreamMessageError } from './errors.js';

/** One message of the stream, as the spec describes it (`ReportStreamMessage`). */
export type ReportStreamMessage = components['schemas']['ReportStreamMessage'];

/** A stream ID: `0x` and 64 hex digits. */
export const FEED_ID = /^0x[0-9a-fA-F]{64}$/;

/** Unix seconds as the report blob holds them: a uint32. */
function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

/** What a message starts with, for an error message (never the whole of a large frame). */
function excerpt(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/**
 * The report in one stream message (`ReportStreamMessage` in the spec). The
 * checks are the cheap ones that keep a malformed report away from the
 * caller's code; `feedID` only has to be a string here, as the stream then
 * looks it up among the subscribed ones (whose IDs were checked); the stream
 * then holds the envelope to the blob's signed fields (signed-fields.ts), and
 * `decodeReport` checks the whole blob when the stream decodes. Extra fields
 * are kept (a later version may add some).
 */
export function parseReportMessage(text: string, source: string): Report {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    throw new ReportStreamMessageError('not_json', source, `not JSON: ${excerpt(text)}`);
  }
  const report = (message as Partial<ReportStreamMessage> | null)?.report as Record<string, unknown> | undefined;
  if (report === null || typeof report !== 'object') {
    throw new ReportStreamMessageError('not_a_report', source, `no \`report\` object: ${excerpt(text)}`);
  }
  const { feedID, validFromTimestamp, observationsTimestamp, fullReport } = report;
  if (typeof feedID !== 'string') throw new ReportStreamMessageError('not_a_report', source, '`report.feedID` is not a string');
  if (!isTimestamp(validFromTimestamp) || !isTimestamp(observationsTimestamp)) {
    throw new ReportStreamMessageError('not_a_report', source, '`report.validFromTimestamp` and `report.observationsTimestamp` must be Unix seconds (uint32)');
  }
  // charCodeAt, not startsWith: V8 is slow on the latter for strings JSON.parse made (signed-fields.ts).
  if (typeof fullReport !== 'string' || fullReport.charCodeAt(0) !== 0x30 || fullReport.charCodeAt(1) !== 0x78 || fullReport.length % 2 !== 0 || fullReport.length < 4) {
    throw new ReportStreamMessageError('not_a_report', source, '`report.fullReport` is not 0x-prefixed hex');
  }
  return report as unknown as Report;
}
