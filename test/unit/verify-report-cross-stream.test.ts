// The Verifier looks a configuration up by the report's stream, then by its
// digest (s_feedVerifierStates[feedId].s_verificationDataConfigs[configDigest]):
// a report whose blob names another stream than the one its digest was set
// for reverts on-chain, however well signed. The trust keeps each
// configuration's stream (ConfigSet's indexed feedId) and verifyReport
// refuses such a report as `unknown_config`. Vectors made with viem: the
// ConfigSet logs, the blobs and the signatures.
import { createPublicClient, custom, encodeAbiParameters, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { ConfigurationError, readReportTrust, verifyReport } from '../../src/streams/index.js';
import { signedReport, testDon, type TestDon } from '../support/signed-reports.js';
import { readmeClaim } from '../support/readme-claim.js';
import { configSetLog } from '../support/verifier-logs.js';

const VERIFIER = '0x2ff010DEbC1297f19579B4246cad07bd24F2488A';
const ETH = `0x0003${'e7'.repeat(30)}` as Hex;
const BTC = `0x0003${'b7'.repeat(30)}` as Hex;

/** A V3 blob of `feedId` (viem's encoder); the other fields do not matter here. */
function blobOf(feedId: Hex): Hex {
  return encodeAbiParameters(
    [{ type: 'bytes32' }, { type: 'uint32' }, { type: 'uint32' }, { type: 'uint192' }, { type: 'uint192' }, { type: 'uint32' }, { type: 'int192' }, { type: 'int192' }, { type: 'int192' }],
    [feedId, 1_700_000_000, 1_700_000_001, 1n, 1n, 1_700_086_400, 2_000n, 1_999n, 2_001n],
  );
}

/** The same oracle network under two digests, one set for ETH and one for BTC, as readReportTrust reads them. */
async function twoStreams() {
  const ethDon = testDon(1, 4, 1);
  // Same signers, another digest: what a second setConfig for another stream gives.
  const btcDon: TestDon = { ...ethDon, configDigest: `0x0006${'5c'.repeat(30)}` };
  const client = createPublicClient({ transport: custom({ request: async () => [ethDon, btcDon].map((don, i) => configSetLog({ verifier: VERIFIER, feedId: i === 0 ? ETH : BTC, block: 10 + i }, don.configDigest, don.f, don.signers.map((s) => s.address))) }) });
  const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: [ETH, BTC], fromBlock: 0, toBlock: 100 });
  return { ethDon, btcDon, trust };
}

describe('a configuration holds its stream, as the Verifier keys it', () => {
  it('readReportTrust keeps the stream of each ConfigSet', async () => {
    const { ethDon, btcDon, trust } = await twoStreams();
    expect(trust[ethDon.configDigest]).toMatchObject({ feedID: ETH, f: 1 });
    expect(trust[btcDon.configDigest]).toMatchObject({ feedID: BTC, f: 1 });
  });

  it(readmeClaim("the configuration is the one of the report's config digest set for the stream its blob names"), async () => {
    const { ethDon, btcDon, trust } = await twoStreams();
    expect(verifyReport((await signedReport(ethDon, { blob: blobOf(ETH) })).fullReport, trust)).toMatchObject({ valid: true });
    expect(verifyReport((await signedReport(btcDon, { blob: blobOf(BTC) })).fullReport, trust)).toMatchObject({ valid: true });
    // Signed by the same oracles, but the BTC report carries ETH's digest: the Verifier has no such configuration for BTC.
    const crossed = verifyReport((await signedReport(ethDon, { blob: blobOf(BTC) })).fullReport, trust);
    expect(crossed).toMatchObject({ valid: false, reason: 'unknown_config' });
    const { message } = crossed as { message: string };
    expect(message).toContain(BTC);
    expect(message).toContain(ETH);
    expect(message).toContain(ethDon.configDigest);
  });

  it('the sandbox\'s trust names each configuration\'s stream, as readReportTrust does', () => {
    const sandbox = createSandbox();
    try {
      const streams = Object.values(sandbox.reportTrust).map((config) => config.feedID);
      expect(streams).toContain('0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782');
      expect(new Set(streams).size).toBe(streams.length);
    } finally {
      sandbox.close();
    }
  });

  it(readmeClaim('A trust written by hand without a `feedID` per configuration checks the digest and signatures only, not the stream.'), async () => {
    const don = testDon(1);
    expect(don.trust[don.configDigest]).not.toHaveProperty('feedID');
    expect(verifyReport((await signedReport(don, { blob: blobOf(BTC) })).fullReport, don.trust)).toMatchObject({ valid: true });
  });

  it('a stream that is not a 32-byte 0x-hex ID is a ConfigurationError naming it', async () => {
    const don = testDon(1);
    const trust = { [don.configDigest]: { ...don.trust[don.configDigest]!, feedID: 'ETH/USD' } };
    const { fullReport } = await signedReport(don, { blob: blobOf(ETH) });
    expect(() => verifyReport(fullReport, trust)).toThrow(ConfigurationError);
    expect(() => verifyReport(fullReport, trust)).toThrow(/trust\[0x0006[0-9a-f]{60}\]\.feedID/);
  });
});
