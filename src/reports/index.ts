/**
 * The report codec's public side: decoding a Data Streams `fullReport` of any
 * schema version (V2 to V13), reading its values and verifying its
 * signatures (`verifyReport`). It is the package's
 * `./report-decoder` entry on its own, and part of `./streams`.
 */
export { decodeReport, reportVersionOf } from './decode.js';
export { ReportDecodeError, type ReportDecodeErrorReason } from './decode-error.js';
export {
  MarketStatus,
  Ripcord,
  type DecodedReport,
  type DecodedReportBase,
  type DecodedReportOf,
  type DecodedReportV2,
  type DecodedReportV3,
  type DecodedReportV4,
  type DecodedReportV5,
  type DecodedReportV6,
  type DecodedReportV7,
  type DecodedReportV8,
  type DecodedReportV9,
  type DecodedReportV10,
  type DecodedReportV11,
  type DecodedReportV12,
  type DecodedReportV13,
} from './decoded.js';
export { isReportExpired } from './expiry.js';
export { formatScaled } from './format.js';
export {
  DEFAULT_HEADLINE_DECIMALS,
  HEADLINE_FIELDS,
  headlineValues,
  ReportValueError,
  type HeadlineName,
  type HeadlineOptions,
  type HeadlineValue,
  type HeadlineValues,
} from './headline.js';
export {
  COMMON_REPORT_FIELDS,
  FULL_REPORT_ABI,
  REPORT_SCHEMAS,
  REPORT_VERSIONS,
  reportBlobAbi,
  reportVersionId,
  type ReportField,
  type ReportFieldType,
  type ReportVersion,
} from './layouts.js';
export { verifyReport } from './verify.js';
export {
  DEFAULT_LOG_BLOCK_RANGE,
  readReportTrust,
  ReportTrustReadError,
  verifierPayload,
  type ChainLogReader,
  type LogFilter,
  type ReadReportTrustOptions,
  type VerifierPayload,
} from './verify-trust.js';
export {
  ReportVerificationError,
  type InvalidReport,
  type ReportConfiguration,
  type ReportTrust,
  type ReportVerification,
  type ReportVerificationReason,
  type ValidReport,
} from './verify-types.js';
