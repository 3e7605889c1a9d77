/**
 * The vocabulary of report verification: the trust a report is checked
 * against, the verification's result and the error of the throwing paths.
 * A module of its own so the REST helpers and the live stream can name them
 * without the verifier itself.
 */
import { SdkError } from '../core/sdk-error.js';

/**
 * The oracle network configurations a report may be signed under, by config
 * digest (`0x`-hex, any case): each one's stream `feedID`, its fault
 * tolerance `f` and its signer addresses (any case). A report of digest D is
 * valid when its blob is of D's stream and exactly `f + 1` distinct signers
 * of D's configuration signed it.
 *
 * It is what the verifier contract emitted (`ConfigSet`: stream, digest,
 * signers, `f`) for each stream; {@link readReportTrust} reads it from a
 * chain. A configuration without `feedID` (a trust written by hand) binds no
 * stream: a report of any stream signed under its digest is accepted, which
 * the contract would refuse for a stream the digest was not set for.
 */
export type ReportTrust = Readonly<Record<string, ReportConfiguration>>;

/** One configuration of a {@link ReportTrust}. */
export interface ReportConfiguration {
  /** The stream the configuration was set for (`ConfigSet`'s `feedId`, `0x`-hex, any case). */
  readonly feedID?: string;
  readonly f: number;
  readonly signers: readonly string[];
}

/**
 * Why a report is not valid. `verifyReport` gives the first five:
 * - `malformed`: not `0x`-hex, or not an ABI encoding of
 *   `(bytes32[3], bytes, bytes32[], bytes32[], bytes32)`;
 * - `unknown_config`: its config digest (`reportContext[0]`) is not in the trust,
 *   or is there for another stream than the one its blob names;
 * - `signature_count`: not exactly `f + 1` r values, or not as many s values as r values;
 * - `not_a_signer`: a signature recovers an address that is not a signer of
 *   the configuration, or none at all (r or s out of range, a v byte that is
 *   not 0 or 1);
 * - `duplicate_signer`: one signer signed twice.
 *
 * Where the SDK verifies for you (the REST helpers' and the stream's `verify`), also:
 * - `unexpected_report`: a genuine report that is not the one asked for (another
 *   stream, times that do not cover the time asked for, or an envelope
 *   that disagrees with the signed report);
 * - `verifier_unavailable`: the verifier's module could not be loaded (it is
 *   tried again at the next report).
 */
export type ReportVerificationReason =
  | 'malformed'
  | 'unknown_config'
  | 'signature_count'
  | 'not_a_signer'
  | 'duplicate_signer'
  | 'unexpected_report'
  | 'verifier_unavailable';

/** A report the trust vouches for: its config digest and the signers who signed it (recovered, in signature order, lowercase). */
export interface ValidReport {
  readonly valid: true;
  readonly configDigest: string;
  readonly signers: readonly string[];
}

/** A report the on-chain verifier would refuse, why, and a sentence saying so. */
export interface InvalidReport {
  readonly valid: false;
  readonly reason: ReportVerificationReason;
  readonly message: string;
}

/** What {@link verifyReport} returns. */
export type ReportVerification = ValidReport | InvalidReport;

/** A report failed verification where the SDK throws (`getLatestReport(…, { verify })` and its kin). */
export class ReportVerificationError extends SdkError {
  override readonly name = 'ReportVerificationError';
  /** Why the report was refused. */
  readonly reason: ReportVerificationReason;

  constructor(failure: InvalidReport) {
    super(`report not verified (${failure.reason}): ${failure.message}`);
    this.reason = failure.reason;
  }
}
