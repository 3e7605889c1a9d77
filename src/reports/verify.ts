/**
 * Report verification off-chain, exactly as the Data Streams verifier
 * contract (`Verifier.sol`, llo-feeds) does it on-chain:
 *
 * 1. the configuration is the one of `configDigest = reportContext[0]`;
 * 2. `rs.length` must equal `f + 1`, and `ss.length` must equal `rs.length`;
 * 3. `h = keccak256(keccak256(reportBlob) ‖ reportContext[0] ‖ reportContext[1] ‖ reportContext[2])`;
 * 4. signer i is `ecrecover(h, uint8(rawVs[i]) + 27, rs[i], ss[i])`; each
 *    must be a signer of the configuration (checked in order: the first
 *    stranger is named), and all distinct (checked after all, as the
 *    contract's signed-count mask is).
 *
 * No low-s rule (the precompile has none), and a v byte other than 0 or 1
 * recovers no address, so the signature is a stranger's.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ConfigurationError } from '../core/errors.js';
import { quoteInput } from './decode-error.js';
import { ecrecover } from './secp256k1.js';
import { readSignedReport } from './signed-report.js';
import type { InvalidReport, ReportTrust, ReportVerification, ReportVerificationReason } from './verify-types.js';

const DIGEST = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The verifier's limit on a configuration's size (OCR2's `MAX_NUM_ORACLES`). */
const MAX_ORACLES = 31;

/** A configuration as the check uses it: f and a set of lowercase signers. */
interface Configuration {
  readonly f: number;
  readonly signers: ReadonlySet<string>;
}

const invalid = (reason: ReportVerificationReason, message: string): InvalidReport => ({ valid: false, reason, message });

/** Lowercase hex of `length` bytes of `bytes` from `offset`, `0x`-prefixed. */
function hexOf(bytes: Uint8Array, offset: number, length: number): string {
  let hex = '0x';
  for (let i = offset; i < offset + length; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return hex;
}

/** `trust` itself is a record (the first check of every use of it). */
function checkTrustRecord(trust: unknown, option: string): asserts trust is ReportTrust {
  if (typeof trust !== 'object' || trust === null || Array.isArray(trust)) {
    throw new ConfigurationError(option, `expected a record of config digest to { f, signers }, got ${quoteInput(trust)}`);
  }
}

/**
 * The configuration under `key` of `trust`, checked.
 *
 * @throws {ConfigurationError} naming `option[key]…` when it is not well formed.
 */
function checkedConfiguration(trust: ReportTrust, key: string, option: string): Configuration {
  const where = `${option}[${key}]`;
  if (!DIGEST.test(key)) throw new ConfigurationError(option, `${quoteInput(key)} is not a 32-byte 0x-hex config digest`);
  const { f, signers } = (trust[key] ?? {}) as { f?: unknown; signers?: unknown };
  if (typeof f !== 'number' || !Number.isInteger(f) || f < 1) throw new ConfigurationError(`${where}.f`, `expected a positive integer, got ${quoteInput(f)}`);
  if (!Array.isArray(signers)) throw new ConfigurationError(`${where}.signers`, `expected an array of addresses, got ${quoteInput(signers)}`);
  if (signers.length <= 3 * f || signers.length > MAX_ORACLES) {
    throw new ConfigurationError(`${where}.signers`, `${signers.length} signers for f = ${f}: the verifier requires more than 3f and at most ${MAX_ORACLES}`);
  }
  const set = new Set<string>();
  signers.forEach((address: unknown, i) => {
    if (typeof address !== 'string' || !ADDRESS.test(address)) throw new ConfigurationError(`${where}.signers[${i}]`, `${quoteInput(address)} is not a 20-byte 0x-hex address`);
    set.add(address.toLowerCase());
  });
  if (set.size !== signers.length) throw new ConfigurationError(`${where}.signers`, 'lists a signer twice');
  return { f, signers: set };
}

/**
 * The configuration of `digest` (lowercase) in `trust`, checked, or
 * undefined. Keys may be in any case: the exact key is tried first.
 *
 * @throws {ConfigurationError} when the trust or that configuration is not well formed.
 */
function configurationOf(trust: ReportTrust, digest: string): Configuration | undefined {
  checkTrustRecord(trust, 'trust');
  let key: string | undefined = Object.hasOwn(trust, digest) ? digest : undefined;
  if (key === undefined) {
    for (const candidate of Object.keys(trust)) if (candidate.toLowerCase() === digest) key = candidate;
  }
  return key === undefined ? undefined : checkedConfiguration(trust, key, 'trust');
}

/**
 * Checks every configuration of a trust up front (where an option takes one,
 * so a mistake is reported when the option is given, not at the first report).
 *
 * @throws {ConfigurationError} naming `option` and the part that is wrong.
 */
export function checkReportTrust(trust: unknown, option: string): ReportTrust {
  checkTrustRecord(trust, option);
  for (const key of Object.keys(trust)) checkedConfiguration(trust, key, option);
  return trust;
}

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
  const report = readSignedReport(fullReport);
  if (typeof report === 'string') {
    checkTrustRecord(trust, 'trust'); // a malformed trust is the caller's bug whatever the report
    return invalid('malformed', report);
  }
  const { bytes } = report;
  const configDigest = hexOf(bytes, 0, 32);
  const configuration = configurationOf(trust, configDigest);
  if (configuration === undefined) return invalid('unknown_config', `the report's config digest ${configDigest} is not one the trust holds`);
  const expected = configuration.f + 1;
  if (report.rsCount !== expected) {
    return invalid('signature_count', `the report carries ${report.rsCount} signatures (r values); configuration ${configDigest} (f = ${configuration.f}) requires exactly ${expected}`);
  }
  if (report.ssCount !== report.rsCount) return invalid('signature_count', `the report carries ${report.rsCount} r values but ${report.ssCount} s values`);

  // h = keccak256(keccak256(blob) ‖ the three context words): the context is the first 96 bytes.
  const signed = new Uint8Array(128);
  signed.set(keccak_256(bytes.subarray(report.blobOffset, report.blobOffset + report.blobLength)), 0);
  signed.set(bytes.subarray(0, 96), 32);
  const h = keccak_256(signed);

  const signature = new Uint8Array(64);
  const signers: string[] = [];
  for (let i = 0; i < expected; i++) {
    signature.set(bytes.subarray(report.rsOffset + 32 * i, report.rsOffset + 32 * i + 32), 0);
    signature.set(bytes.subarray(report.ssOffset + 32 * i, report.ssOffset + 32 * i + 32), 32);
    const vByte = bytes[report.vsOffset + i]!;
    const signer = ecrecover(h, signature, vByte + 27);
    if (signer === undefined) {
      return invalid('not_a_signer', `signature ${i} recovers no address (r or s out of range, or v byte ${vByte}, not 0 or 1)`);
    }
    if (!configuration.signers.has(signer)) return invalid('not_a_signer', `signature ${i} was made by ${signer}, not a signer of configuration ${configDigest}`);
    signers.push(signer);
  }
  const distinct = new Set(signers);
  if (distinct.size !== signers.length) {
    const twice = signers.find((signer, i) => signers.indexOf(signer) !== i)!;
    return invalid('duplicate_signer', `${twice} signed the report more than once; ${expected} distinct signers are required`);
  }
  return { valid: true, configDigest, signers };
}
