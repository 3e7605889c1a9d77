// readReportTrust through a real viem PublicClient (http transport) against
// a JSON-RPC server on 127.0.0.1 that caps eth_getLogs as RPC providers do:
// a range of too many blocks (-32602), a query of too many logs (-32005).
// The block range is read in pages, halved where refused, with no block
// read twice or left out; logs a reorganisation removed are ignored; a
// verifier with no ConfigSet of the streams asked for is a
// ConfigurationError naming it and the chain.
import { createPublicClient, http, type Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, DEFAULT_LOG_BLOCK_RANGE, readReportTrust } from '../../src/streams/index.js';
import { startJsonRpcStub, type JsonRpcStub, type JsonRpcStubOptions } from '../support/json-rpc-stub.js';
import { readmeClaim } from '../support/readme-claim.js';
import { rejection } from '../support/rejection.js';
import { testDon } from '../support/signed-reports.js';
import { configSetLog, verifierEventLog } from '../support/verifier-logs.js';

const VERIFIER = '0x2ff010DEbC1297f19579B4246cad07bd24F2488A';
const ETH = `0x0003${'e7'.repeat(30)}` as Hex;
const BTC = `0x0003${'b7'.repeat(30)}` as Hex;
const SEPOLIA = 11_155_111;
const LATEST = 40_000;

const stubs: JsonRpcStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function node(options: Omit<JsonRpcStubOptions, 'chainId' | 'latestBlock'>) {
  const stub = await startJsonRpcStub({ chainId: SEPOLIA, latestBlock: LATEST, ...options });
  stubs.push(stub);
  // No retries: each refusal reaches readReportTrust once.
  return { stub, client: createPublicClient({ transport: http(stub.url, { retryCount: 0 }) }) };
}

/** The eth_getLogs ranges the node answered (not refused), in order, as [from, to]. */
function answeredRanges(stub: JsonRpcStub, options: { maxBlockRange?: number; maxLogs?: number }, logs: readonly { blockNumber: string }[]): [number, number][] {
  return stub.calls
    .filter((call) => call.method === 'eth_getLogs')
    .map((call) => {
      const { fromBlock, toBlock } = call.params[0] as { fromBlock: string; toBlock: string };
      return [Number(fromBlock), Number(toBlock)] as [number, number];
    })
    .filter(([from, to]) => {
      const count = logs.filter((log) => Number(log.blockNumber) >= from && Number(log.blockNumber) <= to).length;
      return to - from + 1 <= (options.maxBlockRange ?? Infinity) && count <= (options.maxLogs ?? Infinity);
    });
}

/** Ranges that tile [0, LATEST]: each starts one block after the last ended. */
function expectTiling(ranges: [number, number][]): void {
  expect(ranges[0]![0]).toBe(0);
  expect(ranges.at(-1)![1]).toBe(LATEST);
  ranges.slice(1).forEach(([from], i) => expect(from).toBe(ranges[i]![1] + 1));
}

const don = testDon(1);
const signers = don.signers.map((s) => s.address);
const place = (feedId: Hex, block: number, logIndex = 0) => ({ verifier: VERIFIER, feedId, block, logIndex });

describe('readReportTrust on providers that cap eth_getLogs', () => {
  it(readmeClaim('(`eth_getLogs` in pages of `blockRange` blocks, default 5,000, halved where the provider refuses a page as too large;'), async () => {
    expect(DEFAULT_LOG_BLOCK_RANGE).toBe(5_000);
    const logs = [configSetLog(place(ETH, 1_234), don.configDigest, don.f, signers), configSetLog(place(BTC, 39_999), `0x0006${'5c'.repeat(30)}`, don.f, signers)];
    const caps = { maxBlockRange: 1_000 };
    const { stub, client } = await node({ logs, ...caps });
    const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: [ETH, BTC], fromBlock: 0n });
    expect(Object.values(trust).map((config) => config.feedID).sort()).toEqual([BTC, ETH]);
    const first = stub.calls.find((call) => call.method === 'eth_getLogs')!.params[0] as { fromBlock: string; toBlock: string };
    expect(Number(first.toBlock) - Number(first.fromBlock) + 1).toBe(DEFAULT_LOG_BLOCK_RANGE);
    const ranges = answeredRanges(stub, caps, logs);
    expectTiling(ranges);
    expect(Math.max(...ranges.map(([from, to]) => to - from + 1))).toBeGreaterThan(caps.maxBlockRange / 2);
  });

  it('halves a page a provider refuses as too many logs, and takes blockRange as the page size', async () => {
    // The configuration is set again and again: 40 logs, 10 a query at most.
    const logs = Array.from({ length: 40 }, (_, i) => configSetLog(place(ETH, 500 + i * 900), testDon(1, 4, 10 + i).configDigest, don.f, signers));
    const caps = { maxLogs: 10 };
    const { stub, client } = await node({ logs, ...caps });
    const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: [ETH], fromBlock: 0, blockRange: 20_000 });
    expect(Object.keys(trust)).toHaveLength(40);
    const first = stub.calls.find((call) => call.method === 'eth_getLogs')!.params[0] as { fromBlock: string; toBlock: string };
    expect(Number(first.toBlock) - Number(first.fromBlock) + 1).toBe(20_000);
    expectTiling(answeredRanges(stub, caps, logs));
  });

  it('ignores logs marked removed (a reorganisation took them back)', async () => {
    const other = testDon(1, 4, 50);
    const logs = [
      configSetLog(place(ETH, 100), don.configDigest, don.f, signers),
      { ...configSetLog(place(ETH, 200), other.configDigest, other.f, other.signers.map((s) => s.address)), removed: true },
      { ...verifierEventLog(place(ETH, 300), 'ConfigDeactivated', don.configDigest), removed: true },
    ];
    const { client } = await node({ logs });
    const trust = await readReportTrust({ client, verifier: VERIFIER, feedIDs: [ETH], fromBlock: 0 });
    expect(Object.keys(trust)).toEqual([don.configDigest.toLowerCase()]);
  });

  it(readmeClaim('throws a `ConfigurationError` naming the verifier and the chain when a stream has no `ConfigSet` there'), async () => {
    const { client } = await node({ logs: [configSetLog(place(ETH, 100), don.configDigest, don.f, signers)] });
    const wrongVerifier = '0x478Aa2aC9F6D65F84e09D9185d126c3a17c2a93C';
    const error = await rejection(readReportTrust({ client, verifier: wrongVerifier, feedIDs: [ETH], fromBlock: 0 }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(wrongVerifier);
    expect((error as Error).message).toContain(`chain ${SEPOLIA}`);
    // The right verifier, but one stream it has no configuration for: named.
    const missing = await rejection(readReportTrust({ client, verifier: VERIFIER, feedIDs: [ETH, BTC], fromBlock: 0 }));
    expect((missing as Error).message).toContain(BTC);
    expect((missing as Error).message).not.toContain(ETH);
  });
});
