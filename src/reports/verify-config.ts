/**
 * The checks of a trust (`ReportTrust`) itself, without the verifier: the
 * stream's and the CLI's options check it when given, and loading these
 * checks loads no secp256k1 (the verifier is a lazy chunk).
 */
import { ConfigurationError } from '../core/errors.js';
import { quoteInput } from './decode-error.js';
import type { ReportTrust } from './verify-types.js';

const DIGEST = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The verifier's limit on a configuration's size (OCR2's `MAX_NUM_ORACLES`). */
const MAX_ORACLES = 31;

/** A configuration as the check uses it: its stream (lowercase, when the trust names one), f and a set of lowercase signers. */
export interface Configuration {
  readonly feedID: string | undefined;
  readonly f: number;
  readonly signers: ReadonlySet<string>;
}

/** `trust` itself is a record (the first check of every use of it). */
export function checkTrustRecord(trust: unknown, option: string): asserts trust is ReportTrust {
  if (typeof trust !== 'object' || trust === null || Array.isArray(trust)) {
    throw new ConfigurationError(option, `expected a record of config digest to { feedID, f, signers }, got ${quoteInput(trust)}`);
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
  const { feedID, f, signers } = (trust[key] ?? {}) as { feedID?: unknown; f?: unknown; signers?: unknown };
  if (feedID !== undefined && (typeof feedID !== 'string' || !DIGEST.test(feedID))) {
    throw new ConfigurationError(`${where}.feedID`, `${quoteInput(feedID)} is not a 32-byte 0x-hex stream ID`);
  }
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
  return { feedID: typeof feedID === 'string' ? feedID.toLowerCase() : undefined, f, signers: set };
}

/**
 * The configuration of `digest` (lowercase) in `trust`, checked, or
 * undefined. Keys may be in any case: the exact key is tried first.
 *
 * @throws {ConfigurationError} when the trust or that configuration is not well formed.
 */
export function configurationOf(trust: ReportTrust, digest: string): Configuration | undefined {
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
