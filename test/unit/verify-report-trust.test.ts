// readReportTrust against a JSON-RPC stub (a real viem PublicClient on a
// custom transport) answering eth_getLogs with ConfigSet logs that viem
// encodes; verifierPayload against viem's abi.encode.
import { createPublicClient, custom, encodeAbiParameters, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { readReportTrust, ReportVerificationError, verifierPayload, verifyReport } from '../../src/streams/index.js';
import { signedReport, testDon } from '../support/signed-reports.js';
import { configSetLog, verifierEventLog } from '../support/verifier-logs.js';

const VERIFIER = '0x2ff010DEbC1297f19579B4246cad07bd24F2488A';
const FEED = `0x0003${'ab'.repeat(30)}` as Hex;
const at = (block: number) => ({ verifier: VERIFIER, feedId: FEED, block });

/** A PublicClient whose node answers eth_getLogs with `logs` (and block 100 as the latest), recording the filters. */
function stubClient(logs: unknown[]) {
  const filters: unknown[] = [];
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params: unknown[] }) {
        if (method === 'eth_blockNumber') return '0x64';
        if (method !== 'eth_getLogs') throw new Error(`unexpected ${method}`);
        filters.push(params[0]);
        return logs;
      },
    }),
  });
  return { client, filters };
}

describe('readReportTrust', () => {
  it('reads each ConfigSet (stream, digest, signers, f) of the streams asked for, and verifyReport accepts the DON\'s reports with it', async () => {
    const don = testDon(1);
    const old = testDon(1, 4, 70);
    const { client, filters } = stubClient([configSetLog(at(10), old.configDigest, old.f, old.signers.map((s) => s.address)), configSetLog(at(20), don.configDigest, don.f, don.signers.map((s) => s.address))]);
    const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 5n });
    expect(trust).toEqual({
      [old.configDigest.toLowerCase()]: { feedID: FEED, f: 1, signers: old.signers.map((s) => s.address.toLowerCase()) },
      [don.configDigest.toLowerCase()]: { feedID: FEED, f: 1, signers: don.signers.map((s) => s.address.toLowerCase()) },
    });
    expect(filters[0]).toMatchObject({ address: VERIFIER.toLowerCase(), fromBlock: '0x5', toBlock: '0x64' });
    expect((filters[0] as { topics: unknown[] }).topics[1]).toEqual([FEED]);
    const { fullReport } = await signedReport(don, { blob: `0x${FEED.slice(2)}${'00'.repeat(64)}` });
    expect(verifyReport(fullReport, trust).valid).toBe(true);
  });

  it('leaves out a configuration deactivated afterwards', async () => {
    const don = testDon(1);
    const { client } = stubClient([verifierEventLog(at(30), 'ConfigDeactivated', don.configDigest), configSetLog(at(20), don.configDigest, don.f, don.signers.map((s) => s.address))]);
    expect(await readReportTrust({ client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 0 })).toEqual({});
  });

  it('takes a configuration back when it is activated again, and every configuration of a stream deactivated and activated again', async () => {
    const don = testDon(1);
    const set = configSetLog(at(20), don.configDigest, don.f, don.signers.map((s) => s.address));
    const trusted = { [don.configDigest.toLowerCase()]: { feedID: FEED, f: 1, signers: don.signers.map((s) => s.address.toLowerCase()) } };
    const read = async (logs: unknown[]) => readReportTrust({ client: stubClient(logs).client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 0 });
    expect(await read([set, verifierEventLog(at(30), 'ConfigDeactivated', don.configDigest), verifierEventLog(at(40), 'ConfigActivated', don.configDigest)])).toEqual(trusted);
    expect(await read([set, verifierEventLog(at(30), 'FeedDeactivated')])).toEqual({});
    expect(await read([set, verifierEventLog(at(30), 'FeedDeactivated'), verifierEventLog(at(40), 'FeedActivated')])).toEqual(trusted);
  });

  it('names the option that is wrong', async () => {
    const { client } = stubClient([]);
    await expect(readReportTrust({ client, verifier: '0x12', feedIDs: [FEED], fromBlock: 0 })).rejects.toThrow(ConfigurationError);
    await expect(readReportTrust({ client, verifier: VERIFIER, feedIDs: ['nope'], fromBlock: 0 })).rejects.toThrow(/feedIDs\[0\]/);
    await expect(readReportTrust({ client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 0, blockRange: 0 })).rejects.toThrow(/blockRange/);
    await expect(readReportTrust({ client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 10, toBlock: 9 })).rejects.toThrow(/toBlock/);
  });
});

describe('verifierPayload', () => {
  it('is the report as it came and abi.encode(feeToken), as the verifier proxy takes them', async () => {
    const { fullReport } = await signedReport(testDon(1));
    const token = '0x779877A7B0D9E8603169DdbD7836e478b4624789';
    expect(verifierPayload(fullReport, token)).toEqual({ payload: fullReport, parameterPayload: encodeAbiParameters([{ type: 'address' }], [token]).toLowerCase() });
    expect(() => verifierPayload('0x1234', token)).toThrow(ReportVerificationError);
    expect(() => verifierPayload(fullReport, 'LINK')).toThrow(ConfigurationError);
  });
});
