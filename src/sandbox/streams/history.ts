/**
 * The reports of a catalog stream: one per second, observed at every whole
 * second from the stream's `created_at` until it was decommissioned, or until
 * now (sandbox time). Nothing is stored: a report is encoded when asked for,
 * from the stream and the second alone (`report-values.ts`), so any second of
 * any stream is available and memory stays flat.
 *
 * Each `fullReport` is a real encoding (the SDK's report encoder) that the
 * decoders accept, signed by the sandbox's made-up oracle network (`don.ts`):
 * it verifies against `sandbox.reportTrust`, not against any chain's verifier.
 */
import type { components } from '../../../generated/types/streams.js';
import { createHmacSigner } from '../../core/hmac/index.js';
import type { CatalogStream } from './catalog.js';
import { configDigestOf, signedFullReport, type ReportSigning } from './don.js';
import { reportFields } from './report-values.js';

export type Report = components['schemas']['Report'];

// SHA-256 through the SDK's signer: native where the runtime has node:crypto, pure JS elsewhere (the key is unused).
const hasher = createHmacSigner('sandbox report words');
const hash = (label: string): string => hasher.sha256Hex(label);
const word = (hex: string): string => `0x${hex.padStart(64, '0')}`;

/** The second of the stream's first report. */
export function firstSecond(stream: CatalogStream): number {
  return stream.record.created_at;
}

/** The second of the stream's newest report at sandbox time `nowSeconds` (before `firstSecond` when it has none yet). */
export function lastSecond(stream: CatalogStream, nowSeconds: number): number {
  return Math.min(nowSeconds, stream.record.decommissioned_at ?? Number.POSITIVE_INFINITY);
}

/** Whether the stream has a report observed at second `t`, at sandbox time `nowSeconds`. */
export function hasReportAt(stream: CatalogStream, t: number, nowSeconds: number): boolean {
  return t >= firstSecond(stream) && t <= lastSecond(stream, nowSeconds);
}

/**
 * The report the stream publishes at second `t` (whether it exists yet is
 * `hasReportAt`'s question), signed by the DON, or as `signing` says (the
 * report faults: a stranger's signature, too few signatures).
 */
export function reportAt(stream: CatalogStream, t: number, signing: ReportSigning = 'don'): Report {
  const fields = reportFields(stream, t);
  const feedID = stream.record.feedID;
  // Epoch in the high bytes, round in the last one.
  const context = [configDigestOf(feedID), word(((BigInt(t) << 8n) | 1n).toString(16)), word(hash(`extra hash:${feedID}:${t}`))] as const;
  return {
    feedID,
    validFromTimestamp: fields.validFromTimestamp as number,
    observationsTimestamp: t,
    fullReport: signedFullReport(`${feedID}:${t}`, fields, context, signing),
  };
}

/**
 * Up to `limit` consecutive reports of the stream from second `from` (or from
 * its first report, if later), in time order; empty when there are none yet.
 */
export function reportsFrom(stream: CatalogStream, from: number, limit: number, nowSeconds: number, signing: ReportSigning = 'don'): Report[] {
  const start = Math.max(from, firstSecond(stream));
  const end = Math.min(lastSecond(stream, nowSeconds), start + limit - 1);
  const reports: Report[] = [];
  for (let t = start; t <= end; t++) reports.push(reportAt(stream, t, signing));
  return reports;
}
