// readReportTrust against a JSON-RPC stub (a real viem PublicClient on a
// custom transport) answering eth_getLogs with ConfigSet logs that viem
// encodes; verifierPayload against viem's abi.encode.
import { createPublicClient, custom, encodeAbiParameters, encodeEventTopics, parseAbi, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { readReportTrust, ReportVerificationError, verifierPayload, verifyReport } from '../../src/streams/index.js';
import { signedReport, testDon } from '../support/signed-reports.js';

const ABI = parseAbi([
  'event ConfigSet(bytes32 indexed feedId, uint32 previousConfigBlockNumber, bytes32 configDigest, uint64 configCount, address[] signers, bytes32[] offchainTransmitters, uint8 f, bytes onchainConfig, uint64 offchainConfigVersion, bytes offchainConfig)',
  'event ConfigDeactivated(bytes32 indexed feedId, bytes32 configDigest)',
  'event ConfigActivated(bytes32 indexed feedId, bytes32 configDigest)',
  'event FeedDeactivated(bytes32 indexed feedId)',
  'event FeedActivated(bytes32 indexed feedId)',
]);
const VERIFIER = '0x2ff010DEbC1297f19579B4246cad07bd24F2488A';
const FEED = `0x0003${'ab'.repeat(30)}` as Hex;

/** A ConfigSet log as a node returns it. */
function configSetLog(block: number, digest: Hex, f: number, signers: readonly Hex[]) {
  return {
    address: VERIFIER.toLowerCase(),
    topics: encodeEventTopics({ abi: ABI, eventName: 'ConfigSet', args: { feedId: FEED } }),
    data: encodeAbiParameters(
      [{ type: 'uint32' }, { type: 'bytes32' }, { type: 'uint64' }, { type: 'address[]' }, { type: 'bytes32[]' }, { type: 'uint8' }, { type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
      [block - 1, digest, 1n, [...signers], signers.map((_, i) => toHex(i, { size: 32 })), f, '0x01', 1n, '0xdeadbeef'],
    ),
    blockNumber: toHex(block),
    logIndex: '0x0',
    transactionHash: toHex(block, { size: 32 }),
    blockHash: toHex(block, { size: 32 }),
    transactionIndex: '0x0',
    removed: false,
  };
}

/** A PublicClient whose node answers eth_getLogs with `logs`, recording the filter. */
function stubClient(logs: unknown[]) {
  const filters: unknown[] = [];
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params: unknown[] }) {
        if (method !== 'eth_getLogs') throw new Error(`unexpected ${method}`);
        filters.push(params[0]);
        return logs;
      },
    }),
  });
  return { client, filters };
}

describe('readReportTrust', () => {
  it('reads each ConfigSet (digest, signers, f) of the streams asked for, and verifyReport accepts the DON\'s reports with it', async () => {
    const don = testDon(1);
    const old = testDon(1, 4, 70);
    const { client, filters } = stubClient([configSetLog(10, old.configDigest, old.f, old.signers.map((s) => s.address)), configSetLog(20, don.configDigest, don.f, don.signers.map((s) => s.address))]);
    const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 5n });
    expect(trust).toEqual({
      [old.configDigest.toLowerCase()]: { f: 1, signers: old.signers.map((s) => s.address.toLowerCase()) },
      [don.configDigest.toLowerCase()]: { f: 1, signers: don.signers.map((s) => s.address.toLowerCase()) },
    });
    expect(filters[0]).toMatchObject({ address: VERIFIER.toLowerCase(), fromBlock: '0x5', toBlock: 'latest' });
    expect((filters[0] as { topics: unknown[] }).topics[1]).toEqual([FEED]);
    const { fullReport } = await signedReport(don);
    expect(verifyReport(fullReport, trust).valid).toBe(true);
  });

  it('leaves out a configuration deactivated afterwards', async () => {
    const don = testDon(1);
    const deactivated = {
      ...configSetLog(30, don.configDigest, 1, []),
      topics: encodeEventTopics({ abi: ABI, eventName: 'ConfigDeactivated', args: { feedId: FEED } }),
      data: encodeAbiParameters([{ type: 'bytes32' }], [don.configDigest]),
    };
    const { client } = stubClient([deactivated, configSetLog(20, don.configDigest, don.f, don.signers.map((s) => s.address))]);
    expect(await readReportTrust({ client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 0 })).toEqual({});
  });

  /** A log of one of the verifier's other events at `block`, with the digest as its data where it has one. */
  function eventLog(block: number, eventName: 'ConfigDeactivated' | 'ConfigActivated' | 'FeedDeactivated' | 'FeedActivated', digest?: Hex) {
    return {
      ...configSetLog(block, `0x${'00'.repeat(32)}`, 1, []),
      topics: encodeEventTopics({ abi: ABI, eventName, args: { feedId: FEED } }),
      data: digest === undefined ? '0x' : encodeAbiParameters([{ type: 'bytes32' }], [digest]),
    };
  }

  it('takes a configuration back when it is activated again, and every configuration of a stream deactivated and activated again', async () => {
    const don = testDon(1);
    const set = configSetLog(20, don.configDigest, don.f, don.signers.map((s) => s.address));
    const trusted = { [don.configDigest.toLowerCase()]: { f: 1, signers: don.signers.map((s) => s.address.toLowerCase()) } };
    const read = async (logs: unknown[]) => readReportTrust({ client: stubClient(logs).client, verifier: VERIFIER, feedIDs: [FEED], fromBlock: 0 });
    expect(await read([set, eventLog(30, 'ConfigDeactivated', don.configDigest), eventLog(40, 'ConfigActivated', don.configDigest)])).toEqual(trusted);
    expect(await read([set, eventLog(30, 'FeedDeactivated')])).toEqual({});
    expect(await read([set, eventLog(30, 'FeedDeactivated'), eventLog(40, 'FeedActivated')])).toEqual(trusted);
  });

  it('names the option that is wrong', async () => {
    const { client } = stubClient([]);
    await expect(readReportTrust({ client, verifier: '0x12', feedIDs: [FEED], fromBlock: 0 })).rejects.toThrow(ConfigurationError);
    await expect(readReportTrust({ client, verifier: VERIFIER, feedIDs: ['nope'], fromBlock: 0 })).rejects.toThrow(/feedIDs\[0\]/);
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
