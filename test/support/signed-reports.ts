/**
 * Reports signed like an oracle network's, made with viem only (never the
 * SDK's own code), so the SDK's verification is checked against an
 * independent implementation: viem's ABI encoder, keccak256 and secp256k1
 * signing (`@noble/curves` inside).
 */
import { concat, decodeAbiParameters, encodeAbiParameters, keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** The secp256k1 group order. */
export const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A made-up oracle: its private key and address. */
export interface TestSigner {
  readonly key: Hex;
  readonly address: Hex;
}

/** Private key number `seed` (1-based, never a real key) and its address. */
export function testSigner(seed: number): TestSigner {
  const key = toHex(BigInt(seed) * 0x1000193n + 0xabcdefn, { size: 32 });
  return { key, address: privateKeyToAccount(key).address };
}

/** One signature as the report carries it: r, s and the raw v byte (0 or 1, as rawVs stores v - 27). */
export interface RawSignature {
  r: Hex;
  s: Hex;
  v: number;
}

/** The parts of a `fullReport`, as viem encodes them. */
export interface ReportParts {
  reportContext: [Hex, Hex, Hex];
  reportBlob: Hex;
  signatures: RawSignature[];
  /** Override the rs/ss arrays (to make their lengths differ). */
  rs?: Hex[];
  ss?: Hex[];
}

/** The hash the oracles sign: keccak256(keccak256(blob) ‖ context[0] ‖ context[1] ‖ context[2]). */
export function reportHash(reportContext: readonly [Hex, Hex, Hex], reportBlob: Hex): Hex {
  return keccak256(concat([keccak256(reportBlob), ...reportContext]));
}

/** `signer`'s signature of the report hash (viem's account signing), with v as rawVs stores it. */
export async function signReport(signer: TestSigner, reportContext: readonly [Hex, Hex, Hex], reportBlob: Hex): Promise<RawSignature> {
  const signature = await privateKeyToAccount(signer.key).sign({ hash: reportHash(reportContext, reportBlob) });
  return { r: `0x${signature.slice(2, 66)}`, s: `0x${signature.slice(66, 130)}`, v: Number.parseInt(signature.slice(130, 132), 16) - 27 };
}

/** The same signature with s replaced by n - s and v flipped: ecrecover recovers the same signer (no low-s rule). */
export function highS(signature: RawSignature): RawSignature {
  return { r: signature.r, s: toHex(CURVE_ORDER - BigInt(signature.s), { size: 32 }), v: signature.v ^ 1 };
}

/** The ABI-encoded `fullReport` (viem's encoder). */
export function encodeFullReport(parts: ReportParts): Hex {
  const vs = new Uint8Array(32);
  parts.signatures.forEach((signature, i) => (vs[i] = signature.v));
  return encodeAbiParameters(
    [{ type: 'bytes32[3]' }, { type: 'bytes' }, { type: 'bytes32[]' }, { type: 'bytes32[]' }, { type: 'bytes32' }],
    [parts.reportContext, parts.reportBlob, parts.rs ?? parts.signatures.map((x) => x.r), parts.ss ?? parts.signatures.map((x) => x.s), toHex(vs)],
  );
}

/** A DON configuration made up for tests: 3f + 1 signers, a digest with the verifier's 0x0006 prefix. */
export interface TestDon {
  readonly f: number;
  readonly signers: readonly TestSigner[];
  readonly configDigest: Hex;
  /** The trust a user would pass: `{ [configDigest]: { f, signers } }`. */
  readonly trust: Record<string, { f: number; signers: string[] }>;
}

/** A DON of `n` signers tolerating `f` faults, its signers numbered from `firstSeed`. */
export function testDon(f: number, n = 3 * f + 1, firstSeed = 1): TestDon {
  const signers = Array.from({ length: n }, (_, i) => testSigner(firstSeed + i));
  const configDigest = `0x0006${keccak256(toHex(`don ${f} ${n} ${firstSeed}`)).slice(6)}` as Hex;
  return { f, signers, configDigest, trust: { [configDigest]: { f, signers: signers.map((s) => s.address) } } };
}

/** A V3-looking report blob (feed ID, timestamps, fees, prices): its contents do not matter to the signatures. */
export function testBlob(seed = 1): Hex {
  const feedId = `0x0003${keccak256(toHex(`feed ${seed}`)).slice(6)}` as Hex;
  return encodeAbiParameters(
    [{ type: 'bytes32' }, { type: 'uint32' }, { type: 'uint32' }, { type: 'uint192' }, { type: 'uint192' }, { type: 'uint32' }, { type: 'int192' }, { type: 'int192' }, { type: 'int192' }],
    [feedId, 1_700_000_000 + seed, 1_700_000_000 + seed, 10n ** 15n, 10n ** 15n, 1_700_086_400 + seed, 2_000n * 10n ** 18n + BigInt(seed), 1_999n * 10n ** 18n, 2_001n * 10n ** 18n],
  );
}

/** The report context of a DON's report: its digest, epoch and round, an extra hash. */
export function testContext(don: TestDon, epochAndRound = 0x0102n): [Hex, Hex, Hex] {
  return [don.configDigest, toHex(epochAndRound, { size: 32 }), keccak256(toHex('extra'))];
}

/** A report signed by `signers` (by default the DON's first f + 1), with its context and blob. */
export async function signedReport(don: TestDon, options: { signers?: readonly TestSigner[]; blob?: Hex; context?: [Hex, Hex, Hex] } = {}): Promise<{ fullReport: Hex; parts: ReportParts }> {
  const reportContext = options.context ?? testContext(don);
  const reportBlob = options.blob ?? testBlob();
  const signers = options.signers ?? don.signers.slice(0, don.f + 1);
  const signatures = await Promise.all(signers.map((signer) => signReport(signer, reportContext, reportBlob)));
  const parts: ReportParts = { reportContext, reportBlob, signatures };
  return { fullReport: encodeFullReport(parts), parts };
}

/** `fullReport` (any report, e.g. an unsigned one a test server made) signed anew by `signers` of `don`, under `don`'s context. */
export async function resign(fullReport: Hex, don: TestDon, signers: readonly TestSigner[] = don.signers.slice(0, don.f + 1)): Promise<Hex> {
  const [, reportBlob] = decodeAbiParameters([{ type: 'bytes32[3]' }, { type: 'bytes' }, { type: 'bytes32[]' }, { type: 'bytes32[]' }, { type: 'bytes32' }], fullReport);
  return (await signedReport(don, { blob: reportBlob, signers })).fullReport;
}
