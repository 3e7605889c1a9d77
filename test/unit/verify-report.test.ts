// verifyReport against reports signed by an independent library (viem; see
// test/support/signed-reports.ts): what the on-chain Verifier accepts it
// accepts, what the Verifier refuses it refuses, with the reason.
import { recoverAddress, toHex, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHash, useSecp256k1Engine } from '../../src/reports/secp256k1.js';
import * as decoderEntry from '../../src/reports/index.js';
import * as streamsEntry from '../../src/streams/index.js';
import { ConfigurationError, SdkError } from '../../src/core/errors.js';
import {
  CURVE_ORDER,
  encodeFullReport,
  highS,
  reportHash,
  signedReport,
  testContext,
  testDon,
  testSigner,
  type ReportParts,
  type TestDon,
} from '../support/signed-reports.js';

const { verifyReport, ReportVerificationError } = decoderEntry;

/** Flips the lowest bit of byte `index` of a 0x-hex string's data. */
function flipByte(hex: Hex, index: number): Hex {
  const at = 2 + 2 * index;
  const byte = Number.parseInt(hex.slice(at, at + 2), 16) ^ 1;
  return `${hex.slice(0, at)}${byte.toString(16).padStart(2, '0')}${hex.slice(at + 2)}` as Hex;
}

/** The reason of a refused verification (fails the test if it was valid). */
function reasonOf(result: ReturnType<typeof verifyReport>): string {
  if (result.valid) throw new Error('expected the report to be refused, it was valid');
  return result.reason;
}

// Every vector with both implementations: libsecp256k1 (WebAssembly) and, where a runtime compiles no
// WebAssembly, @noble/curves.
describe.each(['wasm', 'js'] as const)('verifyReport, f = 1 (4 signers, 2 signatures), %s engine', (engine) => {
  beforeAll(() => void useSecp256k1Engine(engine));
  afterAll(() => void useSecp256k1Engine('wasm'));
  let don: TestDon;
  let valid: { fullReport: Hex; parts: ReportParts };
  beforeAll(async () => {
    don = testDon(1);
    valid = await signedReport(don);
  });

  it('accepts a report signed by f + 1 of the configuration\'s signers, naming them in order, lowercase', async () => {
    const result = verifyReport(valid.fullReport, don.trust);
    const expected = don.signers.slice(0, 2).map((s) => s.address.toLowerCase());
    expect(result).toEqual({ valid: true, configDigest: don.configDigest.toLowerCase(), signers: expected });
    // The independent check: viem recovers the same addresses from the same hash.
    const hash = reportHash(valid.parts.reportContext, valid.parts.reportBlob);
    for (const [i, sig] of valid.parts.signatures.entries()) {
      const recovered = await recoverAddress({ hash, signature: `${sig.r}${sig.s.slice(2)}${toHex(sig.v + 27).slice(2)}` as Hex });
      expect(recovered.toLowerCase()).toBe(expected[i]);
    }
  });

  it('accepts signers in another order (any f + 1 of them)', async () => {
    const { fullReport } = await signedReport(don, { signers: [don.signers[3]!, don.signers[1]!] });
    const result = verifyReport(fullReport, don.trust);
    expect(result).toEqual({ valid: true, configDigest: don.configDigest.toLowerCase(), signers: [don.signers[3]!.address.toLowerCase(), don.signers[1]!.address.toLowerCase()] });
  });

  it('reads the digest, the addresses and the report in any case', () => {
    const [digest, config] = Object.entries(don.trust)[0]!;
    const mixed = { [`0x${digest.slice(2).toUpperCase()}`]: { f: config.f, signers: config.signers.map((a, i) => (i % 2 ? a.toUpperCase().replace('0X', '0x') : a)) } };
    expect(verifyReport(`0x${valid.fullReport.slice(2).toUpperCase()}`, mixed).valid).toBe(true);
  });

  it('accepts a high-s signature, as ecrecover does (no low-s rule)', () => {
    const parts = { ...valid.parts, signatures: [highS(valid.parts.signatures[0]!), valid.parts.signatures[1]!] };
    expect(BigInt(parts.signatures[0]!.s)).toBeGreaterThan(0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n);
    expect(verifyReport(encodeFullReport(parts), don.trust)).toMatchObject({ valid: true, signers: don.signers.slice(0, 2).map((s) => s.address.toLowerCase()) });
  });

  it('refuses a report whose blob has one byte changed: the signatures recover strangers', () => {
    const blobAt = 32 * 9; // the blob's data: after the 5-word head and its length word... well inside it
    const result = verifyReport(flipByte(valid.fullReport, blobAt), don.trust);
    expect(reasonOf(result)).toBe('not_a_signer');
  });

  it('refuses a report whose context (epoch and round) was changed after signing', () => {
    const context = testContext(don, 0x0103n);
    const parts = { ...valid.parts, reportContext: context };
    expect(reasonOf(verifyReport(encodeFullReport(parts), don.trust))).toBe('not_a_signer');
  });

  it('refuses a stranger\'s signature among the signers\' ones, naming the stranger\'s address', async () => {
    const stranger = testSigner(1000);
    const { fullReport } = await signedReport(don, { signers: [don.signers[0]!, stranger] });
    const result = verifyReport(fullReport, don.trust);
    expect(reasonOf(result)).toBe('not_a_signer');
    expect(!result.valid && result.message).toContain(stranger.address.toLowerCase());
  });

  it('refuses one signer\'s signature given twice', () => {
    const first = valid.parts.signatures[0]!;
    const parts = { ...valid.parts, signatures: [first, first] };
    expect(reasonOf(verifyReport(encodeFullReport(parts), don.trust))).toBe('duplicate_signer');
  });

  it('refuses a signer who signed twice even with the high-s twin of its signature', () => {
    const first = valid.parts.signatures[0]!;
    const parts = { ...valid.parts, signatures: [first, highS(first)] };
    expect(reasonOf(verifyReport(encodeFullReport(parts), don.trust))).toBe('duplicate_signer');
  });

  it('refuses f signatures and f + 2 signatures: exactly f + 1 are required', async () => {
    const tooFew = await signedReport(don, { signers: don.signers.slice(0, 1) });
    const tooMany = await signedReport(don, { signers: don.signers.slice(0, 3) });
    expect(reasonOf(verifyReport(tooFew.fullReport, don.trust))).toBe('signature_count');
    expect(reasonOf(verifyReport(tooMany.fullReport, don.trust))).toBe('signature_count');
  });

  it('refuses rs and ss of different lengths', () => {
    const parts = { ...valid.parts, ss: [...valid.parts.signatures.map((x) => x.s), valid.parts.signatures[0]!.s] };
    const result = verifyReport(encodeFullReport(parts), don.trust);
    expect(reasonOf(result)).toBe('signature_count');
    expect(!result.valid && result.message).toMatch(/2 r.*3 s|rs.*2.*ss.*3/);
  });

  it('refuses a digest the trust does not hold, naming it', () => {
    const other = testDon(1, 4, 50);
    const result = verifyReport(valid.fullReport, other.trust);
    expect(reasonOf(result)).toBe('unknown_config');
    expect(!result.valid && result.message).toContain(don.configDigest.toLowerCase());
  });

  it('refuses a raw v of 27 (so v = 54, which ecrecover recovers nothing from)', () => {
    const parts = { ...valid.parts, signatures: [{ ...valid.parts.signatures[0]!, v: 27 }, valid.parts.signatures[1]!] };
    expect(reasonOf(verifyReport(encodeFullReport(parts), don.trust))).toBe('not_a_signer');
  });

  it('refuses r or s of zero or not below the group order, as the precompile does', () => {
    const sig = valid.parts.signatures[0]!;
    const n = toHex(CURVE_ORDER, { size: 32 });
    for (const bad of [{ ...sig, r: toHex(0n, { size: 32 }) }, { ...sig, s: toHex(0n, { size: 32 }) }, { ...sig, s: n }, { ...sig, r: n }]) {
      const parts = { ...valid.parts, signatures: [bad, valid.parts.signatures[1]!] };
      expect(reasonOf(verifyReport(encodeFullReport(parts), don.trust))).toBe('not_a_signer');
    }
  });

  it('refuses truncated input and input that is not hex as malformed', () => {
    for (const input of [valid.fullReport.slice(0, valid.fullReport.length - 64), valid.fullReport.slice(0, 200), '0x', 'nothex', `${valid.fullReport}0`, 42 as unknown as string]) {
      expect(reasonOf(verifyReport(input, don.trust))).toBe('malformed');
    }
  });

  it('throws a ConfigurationError naming the part of the trust that is wrong', () => {
    const [digest] = Object.keys(don.trust);
    expect(() => verifyReport(valid.fullReport, { [digest!]: { f: 0, signers: [] } })).toThrow(ConfigurationError);
    expect(() => verifyReport(valid.fullReport, { [digest!]: { f: 1, signers: ['0x1234', ...don.signers.slice(1).map((x) => x.address)] } })).toThrow(/signers\[0\]/);
    expect(() => verifyReport(valid.fullReport, null as never)).toThrow(ConfigurationError);
  });
});

describe('verifyReport, f = 5 (16 signers, 6 signatures)', () => {
  it('accepts 6 of 16 signers and refuses 5 of them plus a stranger', async () => {
    const don = testDon(5, 16, 200);
    const good = await signedReport(don, { signers: [10, 3, 15, 0, 7, 12].map((i) => don.signers[i]!) });
    expect(verifyReport(good.fullReport, don.trust)).toMatchObject({ valid: true });
    const bad = await signedReport(don, { signers: [...don.signers.slice(0, 5), testSigner(9999)] });
    expect(reasonOf(verifyReport(bad.fullReport, don.trust))).toBe('not_a_signer');
  });
});

describe('ReportVerificationError', () => {
  it('is an SdkError carrying the reason, and both entries export the verification', () => {
    const error = new ReportVerificationError({ valid: false, reason: 'not_a_signer', message: 'signature 1 recovers 0xabc' });
    expect(error).toBeInstanceOf(SdkError);
    expect(error.name).toBe('ReportVerificationError');
    expect(error.reason).toBe('not_a_signer');
    expect(error.message).toContain('signature 1 recovers 0xabc');
    expect(streamsEntry.verifyReport).toBe(verifyReport);
    expect(streamsEntry.ReportVerificationError).toBe(ReportVerificationError);
  });
});

describe('the two secp256k1 engines', () => {
  it('sign alike (RFC 6979, low s): the sandbox serves the same bytes in every runtime', () => {
    const hash = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    const key = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    const wasm = signHash(hash, key);
    useSecp256k1Engine('js');
    try {
      expect(signHash(hash, key)).toEqual(wasm);
    } finally {
      useSecp256k1Engine('wasm');
    }
  });
});
