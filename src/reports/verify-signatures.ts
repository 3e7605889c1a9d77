/**
 * The check behind `verifyReport`, given the secp256k1 recovery to use:
 * report verification off-chain, exactly as the Data Streams verifier
 * contract (`Verifier.sol`, llo-feeds) does it on-chain:
 *
 * 1. the configuration is the one of `configDigest = reportContext[0]` set
 *    for the stream the blob names (`bytes32(reportData)`);
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
import { readSignedReport } from './signed-report.js';
import { checkTrustRecord, configurationOf } from './verify-config.js';
import type { InvalidReport, ReportTrust, ReportVerification, ReportVerificationReason } from './verify-types.js';

/** `ecrecover` as secp256k1.ts implements it: the signer's lowercase address, or undefined. */
export type Ecrecover = (hash: Uint8Array, signature: Uint8Array, v: number) => string | undefined;

const invalid = (reason: ReportVerificationReason, message: string): InvalidReport => ({ valid: false, reason, message });

/** Lowercase hex of `length` bytes of `bytes` from `offset`, `0x`-prefixed. */
function hexOf(bytes: Uint8Array, offset: number, length: number): string {
  let hex = '0x';
  for (let i = offset; i < offset + length; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return hex;
}

/** `bytes32(reportData)`: the blob's first 32 bytes, zero-padded when it is shorter (as Solidity converts). */
function blobFeedID(bytes: Uint8Array, blobOffset: number, blobLength: number): string {
  const head = hexOf(bytes, blobOffset, Math.min(blobLength, 32));
  return head.padEnd(66, '0');
}

/**
 * {@link verifyReport}'s check with `ecrecover` passed in. The recovery is a
 * parameter so that this module imports no secp256k1: `verify.ts` (exported)
 * and `verify-loaded.ts` (imported lazily by the SDK) each bind it, and a
 * bundler splitting code keeps libsecp256k1 out of an entry that only
 * re-exports `verifyReport` (esbuild puts a module reached both from an
 * entry's static imports and from a lazy chunk, and what it uses, in a chunk
 * the entry loads).
 */
export function verifySignatures(fullReport: string, trust: ReportTrust, ecrecover: Ecrecover): ReportVerification {
  const report = readSignedReport(fullReport);
  if (typeof report === 'string') {
    checkTrustRecord(trust, 'trust'); // a malformed trust is the caller's bug whatever the report
    return invalid('malformed', report);
  }
  const { bytes } = report;
  const configDigest = hexOf(bytes, 0, 32);
  const configuration = configurationOf(trust, configDigest);
  if (configuration === undefined) return invalid('unknown_config', `the report's config digest ${configDigest} is not one the trust holds`);
  // The contract reads the stream from the blob's first word and looks the digest up under that stream alone.
  const feedID = blobFeedID(bytes, report.blobOffset, report.blobLength);
  if (configuration.feedID !== undefined && configuration.feedID !== feedID) {
    return invalid('unknown_config', `the report is of stream ${feedID}, but the trust holds config digest ${configDigest} for stream ${configuration.feedID}`);
  }
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
