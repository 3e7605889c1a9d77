/**
 * Where a {@link ReportTrust} comes from: the verifier contract's own events.
 * The configuration a report is checked against is what the Data Streams
 * verifier contract (`Verifier.sol`, llo-feeds) emitted for each stream:
 * `ConfigSet(feedId, …, configDigest, …, signers, …, f, …)`, later
 * `ConfigDeactivated` / `ConfigActivated` for one digest, and
 * `FeedDeactivated` / `FeedActivated` for a whole stream. The contract
 * verifies only against active configurations of active streams; so does
 * the trust read here.
 *
 * No chain library is imported: the caller's client (a viem `PublicClient`,
 * or anything with an EIP-1193 `request`) makes the one `eth_getLogs` call,
 * and the logs are decoded here.
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { ConfigurationError, SdkError } from '../core/errors.js';
import { quoteInput } from './decode-error.js';
import { readSignedReport } from './signed-report.js';
import { ReportVerificationError, type ReportTrust } from './verify-types.js';

/**
 * The verifier's events that make or change a configuration, by topic: the
 * keccak256 of each event's signature, written out so that importing this
 * module hashes nothing and bundlers can drop it from apps that never read
 * a trust (the unit tests build these logs with viem's own topics).
 */
const EVENTS = {
  /** ConfigSet(bytes32,uint32,bytes32,uint64,address[],bytes32[],uint8,bytes,uint64,bytes) */
  configSet: '0xa23a88453230b183877098801ff5a8f771a120e2573eea559ce6c4c2e305a4da',
  /** ConfigDeactivated(bytes32,bytes32) */
  configDeactivated: '0x0e173bea63a8c59ec70bf87043f2a729693790183f16a1a54b705de9e989cc4c',
  /** ConfigActivated(bytes32,bytes32) */
  configActivated: '0x54f8872b9b94ebea6577f33576d55847bd8ea22641ccc886b965f6e50bfe7746',
  /** FeedDeactivated(bytes32) */
  feedDeactivated: '0xfc4f79b8c65b6be1773063461984c0974400d1e99654c79477a092ace83fd061',
  /** FeedActivated(bytes32) */
  feedActivated: '0xf438564f793525caa89c6e3a26d41e16aa39d1e589747595751e3f3df75cb2b4',
} as const;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;

/**
 * What `readReportTrust` needs of a chain client: EIP-1193 `request`, as a
 * viem `PublicClient` has. Typed loosely (viem's is generic over its RPC
 * schema); it is called once, with `eth_getLogs` and a {@link LogFilter}.
 */
export interface ChainLogReader {
  request(args: { method: 'eth_getLogs'; params: [LogFilter] }): Promise<unknown>;
}

/** Any client whose `request` takes `{ method, params }`: a viem `PublicClient` is one. */
type AnyRequestClient = { request: (args: never) => Promise<unknown> };

/** An `eth_getLogs` filter, as JSON-RPC takes it. */
export interface LogFilter {
  address: string;
  fromBlock: string;
  toBlock: string;
  topics: (string | string[] | null)[];
}

/** Where to read the trust from. */
export interface ReadReportTrustOptions {
  /** A viem `PublicClient` of the chain (or any client with an EIP-1193 `request`). */
  client: ChainLogReader | AnyRequestClient;
  /** The verifier contract's address (not the proxy's): the one that emits `ConfigSet`. */
  verifier: string;
  /** The streams whose configurations to read. */
  feedIDs: readonly string[];
  /** The first block to read events from (the verifier's deployment block is enough). */
  fromBlock: bigint | number;
  /** The last block (default `latest`). */
  toBlock?: bigint | number;
}

/** The contract's logs are not what its events encode: the chain client answered something else. */
export class ReportTrustReadError extends SdkError {
  override name = 'ReportTrustReadError';
}

/** One log as `eth_getLogs` returns it (the fields used here). */
interface Log {
  topics: string[];
  data: string;
  blockNumber: string;
  logIndex: string;
}

const isLog = (value: unknown): value is Log => {
  const log = value as Log;
  return (
    typeof value === 'object' && value !== null && Array.isArray(log.topics) && log.topics.every((t) => typeof t === 'string') &&
    typeof log.data === 'string' && typeof log.blockNumber === 'string' && typeof log.logIndex === 'string'
  );
};

/** A word of `data` (bytes) as a bigint. */
function word(data: Uint8Array, index: number): bigint {
  const at = index * 32;
  if (at + 32 > data.length) throw new ReportTrustReadError(`a ConfigSet log's data ends before word ${index}`);
  return BigInt(`0x${bytesToHex(data.subarray(at, at + 32))}`);
}

/** The digest, signers and f of a `ConfigSet` log's data (its non-indexed fields, ABI-encoded). */
function decodeConfigSet(hex: string): { digest: string; signers: string[]; f: number } {
  const data = hexToBytes(hex.slice(2));
  // Head: previousConfigBlockNumber, configDigest, configCount, signers (offset), transmitters (offset), f, ...
  const digest = `0x${word(data, 1).toString(16).padStart(64, '0')}`;
  const signersAt = Number(word(data, 3)) / 32;
  const count = Number(word(data, signersAt));
  if (!Number.isSafeInteger(signersAt) || count > 255) throw new ReportTrustReadError('a ConfigSet log\'s signers are not an address array');
  const signers: string[] = [];
  for (let i = 0; i < count; i++) signers.push(`0x${word(data, signersAt + 1 + i).toString(16).padStart(40, '0')}`);
  const f = Number(word(data, 5));
  return { digest, signers, f };
}

/** A block number as JSON-RPC takes it. */
const quantity = (block: bigint | number): string => `0x${BigInt(block).toString(16)}`;

/**
 * Read the oracle network configurations the verifier contract holds for
 * `feedIDs`, from its events: every `ConfigSet` since `fromBlock`, minus
 * configurations and streams deactivated since (and not reactivated). The
 * result is the `trust` that `verifyReport`, the REST helpers' `verify` and
 * the stream's `verify` take. One `eth_getLogs` call through `client`; read
 * it again when the oracle network is reconfigured (a report under a new
 * digest then fails with `unknown_config`).
 *
 * @throws {ConfigurationError} for a malformed verifier address, stream ID or block.
 * @throws {ReportTrustReadError} when the client's answer is not the contract's logs.
 */
export async function readReportTrust(options: ReadReportTrustOptions): Promise<ReportTrust> {
  const { client, verifier, feedIDs, fromBlock, toBlock } = options;
  if (typeof client?.request !== 'function') throw new ConfigurationError('client', 'expected a viem PublicClient (or a client with an EIP-1193 request method)');
  if (typeof verifier !== 'string' || !ADDRESS.test(verifier)) throw new ConfigurationError('verifier', `${quoteInput(verifier)} is not a 20-byte 0x-hex address`);
  if (!Array.isArray(feedIDs) || feedIDs.length === 0) throw new ConfigurationError('feedIDs', 'expected at least one stream ID');
  feedIDs.forEach((id, i) => {
    if (typeof id !== 'string' || !WORD.test(id)) throw new ConfigurationError(`feedIDs[${i}]`, `${quoteInput(id)} is not a 32-byte 0x-hex stream ID`);
  });
  for (const [name, block] of [['fromBlock', fromBlock], ['toBlock', toBlock]] as const) {
    if (block === undefined && name === 'toBlock') continue;
    if (!((typeof block === 'bigint' && block >= 0n) || (typeof block === 'number' && Number.isSafeInteger(block) && block >= 0))) {
      throw new ConfigurationError(name, `expected a block number, got ${quoteInput(block)}`);
    }
  }
  const logs = await (client as ChainLogReader).request({
    method: 'eth_getLogs',
    params: [
      {
        address: verifier.toLowerCase(),
        fromBlock: quantity(fromBlock),
        toBlock: toBlock === undefined ? 'latest' : quantity(toBlock),
        topics: [Object.values(EVENTS), feedIDs.map((id) => id.toLowerCase())],
      },
    ],
  });
  if (!Array.isArray(logs) || !logs.every(isLog)) throw new ReportTrustReadError('eth_getLogs did not answer a list of logs');
  // Chain order: the last event for a digest or a stream decides.
  const ordered = [...logs].sort((a, b) => Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) || Number(BigInt(a.logIndex) - BigInt(b.logIndex)));
  const configs = new Map<string, { feed: string; f: number; signers: string[]; active: boolean }>();
  const inactiveFeeds = new Set<string>();
  for (const log of ordered) {
    const [event, feedTopic] = log.topics.map((t) => t.toLowerCase());
    if (feedTopic === undefined) continue;
    if (event === EVENTS.configSet) {
      const { digest, signers, f } = decodeConfigSet(log.data);
      configs.set(digest, { feed: feedTopic, f, signers, active: true });
    } else if (event === EVENTS.configDeactivated || event === EVENTS.configActivated) {
      const digest = `0x${log.data.slice(2, 66).toLowerCase()}`;
      const config = configs.get(digest);
      if (config !== undefined) config.active = event === EVENTS.configActivated;
    } else if (event === EVENTS.feedDeactivated) {
      inactiveFeeds.add(feedTopic);
    } else if (event === EVENTS.feedActivated) {
      inactiveFeeds.delete(feedTopic);
    }
  }
  const trust: Record<string, { f: number; signers: string[] }> = {};
  for (const [digest, config] of configs) {
    if (config.active && !inactiveFeeds.has(config.feed)) trust[digest] = { f: config.f, signers: config.signers };
  }
  return trust;
}

/** The two arguments of the verifier proxy's `verify(bytes payload, bytes parameterPayload)`, `0x`-hex. */
export interface VerifierPayload {
  /** The signed report itself (`fullReport`, lowercase). */
  payload: string;
  /** `abi.encode(feeToken)`: the token the verification fee is paid in. */
  parameterPayload: string;
}

/**
 * What an on-chain consumer passes to the verifier proxy's
 * `verify(payload, parameterPayload)`: the report as it came, and the fee
 * token ABI-encoded (`abi.encode(feeToken)`, one 32-byte word).
 *
 * @throws {ReportVerificationError} `malformed` when `fullReport` is not an encoded report.
 * @throws {ConfigurationError} when `feeToken` is not an address.
 */
export function verifierPayload(fullReport: string, feeToken: string): VerifierPayload {
  const report = readSignedReport(fullReport);
  if (typeof report === 'string') throw new ReportVerificationError({ valid: false, reason: 'malformed', message: report });
  if (typeof feeToken !== 'string' || !ADDRESS.test(feeToken)) throw new ConfigurationError('feeToken', `${quoteInput(feeToken)} is not a 20-byte 0x-hex address`);
  return { payload: fullReport.toLowerCase(), parameterPayload: `0x${feeToken.slice(2).toLowerCase().padStart(64, '0')}` };
}
