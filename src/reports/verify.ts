/**
 * `verifyReport`: the check of verify-signatures.ts with libsecp256k1's
 * recovery (secp256k1.ts). An app that calls it loads libsecp256k1 with it;
 * the SDK's own `verify` options load it lazily (verify-lazy.ts).
 */
import { ecrecover } from './secp256k1.js';
import { verifySignatures } from './verify-signatures.js';
import type { ReportTrust, ReportVerification } from './verify-types.js';

export { checkReportTrust } from './verify-config.js';

/**
 * Verify a `fullReport`'s signatures against the oracle network
 * configurations in `trust`, as the on-chain verifier contract would: the
 * same hash, exactly `f + 1` signatures, each recovered (`ecrecover`, high-s
 * accepted, v other than 27/28 refused) to a distinct signer of the report's
 * configuration. Synchronous; no chain and no fee.
 *
 * It checks signatures only: decode the report (`decodeReport`) for its
 * values, and mind its timestamps (`isReportExpired`).
 *
 * @param fullReport - the report as the API returns it (`0x`-hex, any case).
 * @param trust - the configurations the report may be signed under (see {@link ReportTrust}).
 * @returns `{ valid: true, configDigest, signers }` (lowercase) or
 *   `{ valid: false, reason, message }`; a report is never thrown about.
 * @throws {ConfigurationError} only when `trust` itself is not well formed.
 */
export function verifyReport(fullReport: string, trust: ReportTrust): ReportVerification {
  return verifySignatures(fullReport, trust, ecrecover);
}
