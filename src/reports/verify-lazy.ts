/**
 * The report verifier, loaded on first need. `verifyReport` carries
 * libsecp256k1 (83 kB of WebAssembly, as base64 in browsers) and
 * `@noble/curves`, a 53 kB gzipped chunk: the REST
 * helpers, the live stream and the CLI load it through this dynamic import
 * only when a `verify` option is given, so importing `./streams` loads
 * none of it (a bundler puts it in a chunk of its own: the specifier is a
 * static string).
 */
import { ReportVerificationError, type ReportTrust, type ReportVerification } from './verify-types.js';

/** `verifyReport`'s signature. */
export type ReportVerifier = (fullReport: string, trust: ReportTrust) => ReportVerification;

let loading: Promise<ReportVerifier> | undefined;

/**
 * `verifyReport`, imported once (later calls share the first import).
 *
 * @throws {ReportVerificationError} `verifier_unavailable` when the
 *   verifier's module cannot be loaded (a chunk the app's server no longer
 *   serves); the next call tries again.
 */
export function loadVerifier(): Promise<ReportVerifier> {
  loading ??= import('./verify-loaded.js').then(
    (module) => module.verifier,
    (cause: unknown) => {
      loading = undefined;
      throw new ReportVerificationError({ valid: false, reason: 'verifier_unavailable', message: `the report verifier's module did not load (${String(cause)})` });
    },
  );
  return loading;
}
