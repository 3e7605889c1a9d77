/**
 * The verifier as the SDK loads it lazily (verify-lazy.ts imports this module
 * dynamically): the same check as `verifyReport`, bound to libsecp256k1 here
 * rather than re-exported from verify.ts, which the entries re-export (see
 * verify-signatures.ts for why that would put libsecp256k1 in their initial load).
 */
import { ecrecover } from './secp256k1.js';
import { verifySignatures } from './verify-signatures.js';
import type { ReportTrust, ReportVerification } from './verify-types.js';

/** `verifyReport`, for the SDK's lazy loader. */
export const verifier = (fullReport: string, trust: ReportTrust): ReportVerification => verifySignatures(fullReport, trust, ecrecover);
