/**
 * The sandbox's made-up oracle network (DON): 3f + 1 = 4 signers tolerating
 * f = 1 fault, keys derived from fixed labels (never real keys). It signs
 * every report as a DON does, so `verifyReport` and the `verify` options
 * accept the sandbox's reports with {@link SANDBOX_REPORT_TRUST}: f + 1
 * signatures of `keccak256(keccak256(reportBlob) ‖ reportContext)`, under a
 * config digest per stream with the verifier's `0x0006` prefix.
 *
 * Signing costs two secp256k1 signatures (~0.1–0.3 ms), so signed reports
 * are kept in a bounded cache: the live stream, the REST routes and several
 * clients ask for the same seconds.
 *
 * The signer is `@noble/curves` (secp256k1-js.ts: a 15 kB gzipped lazy
 * chunk, ~0.9 ms per report where libsecp256k1 takes ~0.2 ms but weighs
 * 1.2 MB: with the cache, size matters more), imported on first need, not
 * with the sandbox: the streams API's requests and live subscriptions await
 * {@link loadDonSigner} before a report is made, so `createSandbox` (and
 * `sandbox.reportTrust`, addresses written out here) loads none of it.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { createHmacSigner } from '../../core/hmac/index.js';
import { encodeFullReport, encodeReportBlob, type ReportFieldValue } from '../../reports/encode.js';
import { SdkError } from '../../core/sdk-error.js';
import type { ReportTrust } from '../../reports/verify-types.js';
import { SANDBOX_STREAMS } from './catalog.js';

/** The DON's fault tolerance: reports carry f + 1 = 2 signatures. */
export const SANDBOX_DON_F = 1;

/** Who signs a report: the DON (the default), a stranger in place of one signer, or too few signers (f). */
export type ReportSigning = 'don' | 'stranger' | 'too_few_signatures';

const privateKey = (label: string): Uint8Array => keccak_256(utf8ToBytes(`service-sdk sandbox ${label}`));
/** The DON's 3f + 1 keys, and one key that is no signer's. */
const DON_KEYS = Array.from({ length: 3 * SANDBOX_DON_F + 1 }, (_, i) => privateKey(`oracle ${i}`));
const STRANGER_KEY = privateKey('stranger');

/**
 * The DON's signer addresses (lowercase), the addresses of DON_KEYS: written
 * out (a test derives them again) so that making a sandbox compiles no
 * WebAssembly, which some runtimes refuse.
 */
const SIGNERS: readonly string[] = Object.freeze([
  '0x2a9f0e0dc255c518484a4514400909bd43257e7e',
  '0x5d3e29d1ca069021e94ba8622b35f67c92ccb513',
  '0x2166ad49ad08efa4f1b296ea4316f027647ef53e',
  '0x873c50011c7c20ec89980839e8f74fbdc98fd23f',
]);

// SHA-256 through the SDK's signer, as history.ts hashes its words (the key is unused).
const hasher = createHmacSigner('sandbox report words');

/** The DON config digest of a stream: a hash of it under the verifier's digest prefix (0x0006). */
const configDigests = new Map<string, string>();
export function configDigestOf(feedID: string): string {
  let digest = configDigests.get(feedID);
  if (digest === undefined) {
    digest = `0x0006${hasher.sha256Hex(`sandbox config digest:${feedID}`).slice(4)}`;
    configDigests.set(feedID, digest);
  }
  return digest;
}

let trust: ReportTrust | undefined;
/** The sandbox's trust: every catalog stream's configuration (digest → the stream, f and the DON's signers), as `readReportTrust` reads one. */
export function sandboxReportTrust(): ReportTrust {
  trust ??= Object.freeze(
    Object.fromEntries(
      SANDBOX_STREAMS.map(({ record: { feedID } }) => [configDigestOf(feedID), Object.freeze({ feedID, f: SANDBOX_DON_F, signers: SIGNERS })]),
    ),
  );
  return trust;
}

/** The keys are checked once: the DON's are fixed, hashes of labels (valid scalars, a test derives their addresses). */
type SignHash = (hash: Uint8Array, privateKey: Uint8Array) => { signature: Uint8Array; recoveryId: number };
let signHash: SignHash | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the DON's signer (once; later calls share the first load). Reports
 * can be signed once it resolves; the next call tries again after a failure.
 */
export function loadDonSigner(): Promise<void> {
  loading ??= import('../../reports/secp256k1-js.js').then(
    (module) => void (signHash = module.signHashJs),
    (cause: unknown) => {
      loading = undefined;
      throw new SdkError(`the sandbox cannot sign reports: its signer's module did not load (${String(cause)})`);
    },
  );
  return loading;
}

/** Signed reports kept (each ~1.5 kB): a few minutes of every stream's seconds. */
const CACHE_SIZE = 4_096;
const cache = new Map<string, string>();

/** The keys that sign under `signing`: the first f + 1 of the DON, one replaced by a stranger, or only f. */
function keysFor(signing: ReportSigning): readonly Uint8Array[] {
  const keys = DON_KEYS.slice(0, SANDBOX_DON_F + 1);
  if (signing === 'stranger') return [...keys.slice(0, SANDBOX_DON_F), STRANGER_KEY];
  if (signing === 'too_few_signatures') return keys.slice(0, SANDBOX_DON_F);
  return keys;
}

/**
 * The `fullReport` of `fields` in `reportContext`, signed under `signing`.
 * `cacheKey` names the report (stream and second): the same key must mean
 * the same fields and context.
 */
export function signedFullReport(
  cacheKey: string,
  fields: Readonly<Record<string, ReportFieldValue>>,
  reportContext: readonly [string, string, string],
  signing: ReportSigning = 'don',
): string {
  const key = `${signing}:${cacheKey}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const reportBlob = encodeReportBlob(fields);
  const signed = new Uint8Array(128);
  signed.set(keccak_256(hexToBytes(reportBlob.slice(2))), 0);
  reportContext.forEach((word, i) => signed.set(hexToBytes(word.slice(2)), 32 + 32 * i));
  const hash = keccak_256(signed);
  if (signHash === undefined) throw new SdkError('the sandbox signed a report before its signer was loaded: await loadDonSigner() first');
  const sign = signHash;
  const signatures = keysFor(signing).map((k) => sign(hash, k));
  const rawVs = new Uint8Array(32);
  signatures.forEach(({ recoveryId }, i) => (rawVs[i] = recoveryId));
  const fullReport = encodeFullReport(reportBlob, {
    reportContext,
    rawRs: signatures.map(({ signature }) => `0x${bytesToHex(signature.subarray(0, 32))}`),
    rawSs: signatures.map(({ signature }) => `0x${bytesToHex(signature.subarray(32))}`),
    rawVs: `0x${bytesToHex(rawVs)}`,
  });
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, fullReport);
  return fullReport;
}
