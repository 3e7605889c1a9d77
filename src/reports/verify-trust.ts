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
 * or anything with an EIP-1193 `request`) makes the `eth_getLogs` calls,
 * and the logs are decoded here.
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { ConfigurationError, SdkError } from '../core/errors.js';
import { quoteInput } from './decode-error.js';
import { readSignedReport } from './signed-report.js';
import { ReportVerificationError, type ReportConfiguration, type ReportTrust } from './verify-types.js';

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
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

/**
 * Blocks per `eth_getLogs` by default: within what common RPC providers
 * accept for one query (several cap the range at 10,000 blocks or fewer,
 * others the number of logs); a provider that refuses a range gets half of it.
 */
export const DEFAULT_LOG_BLOCK_RANGE = 5_000;

/**
 * What `readReportTrust` needs of a chain client: EIP-1193 `request`, as a
 * viem `PublicClient` has. Typed loosely (viem's is generic over its RPC
 * schema); it is called with `eth_getLogs` and a {@link LogFilter}, with
 * `eth_blockNumber` when no `toBlock` is given, and with `eth_chainId` to
 * name the chain when no configuration is found.
 */
export interface ChainLogReader {
  request(args: { method: 'eth_getLogs'; params: [LogFilter] } | { method: 'eth_blockNumber' | 'eth_chainId' }): Promise<unknown>;
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
  /** The first block to read events from: the verifier's deployment block (each page of blocks is one request). */
  fromBlock: bigint | number;
  /** The last block (default: the latest, asked with `eth_blockNumber`). */
  toBlock?: bigint | number;
  /**
   * Blocks per `eth_getLogs` request (default {@link DEFAULT_LOG_BLOCK_RANGE}).
   * A request the provider refuses as too large (too many blocks or too
   * many logs) is asked again in halves.
   */
  blockRange?: number;
}

/** The contract's logs are not what its events encode, or the chain client failed: the message says which. */
export class ReportTrustReadError extends SdkError {
  override name = 'ReportTrustReadError';
}

/** One log as `eth_getLogs` returns it (the fields used here). */
interface Log {
  topics: string[];
  data: string;
  blockNumber: string;
  logIndex: string;
  removed?: boolean;
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
const quantity = (block: bigint): string => `0x${block.toString(16)}`;

/** The options checked; a mistake is a ConfigurationError naming the option. */
function checkOptions(options: ReadReportTrustOptions): void {
  const { client, verifier, feedIDs, blockRange } = options;
  if (typeof client?.request !== 'function') throw new ConfigurationError('client', 'expected a viem PublicClient (or a client with an EIP-1193 request method)');
  if (typeof verifier !== 'string' || !ADDRESS.test(verifier)) throw new ConfigurationError('verifier', `${quoteInput(verifier)} is not a 20-byte 0x-hex address`);
  if (!Array.isArray(feedIDs) || feedIDs.length === 0) throw new ConfigurationError('feedIDs', 'expected at least one stream ID');
  feedIDs.forEach((id, i) => {
    if (typeof id !== 'string' || !WORD.test(id)) throw new ConfigurationError(`feedIDs[${i}]`, `${quoteInput(id)} is not a 32-byte 0x-hex stream ID`);
  });
  for (const name of ['fromBlock', 'toBlock'] as const) {
    const block = options[name];
    if (block === undefined && name === 'toBlock') continue;
    if (!((typeof block === 'bigint' && block >= 0n) || (typeof block === 'number' && Number.isSafeInteger(block) && block >= 0))) {
      throw new ConfigurationError(name, `expected a block number, got ${quoteInput(block)}`);
    }
  }
  if (options.toBlock !== undefined && BigInt(options.toBlock) < BigInt(options.fromBlock)) {
    throw new ConfigurationError('toBlock', `block ${options.toBlock} is before fromBlock ${options.fromBlock}`);
  }
  if (blockRange !== undefined && !(Number.isSafeInteger(blockRange) && blockRange >= 1)) {
    throw new ConfigurationError('blockRange', `expected a positive whole number of blocks, got ${quoteInput(blockRange)}`);
  }
}

/** The error a client threw, as a sentence without what it may carry besides the node's answer (an RPC URL holds keys). */
function rpcFailure(error: unknown): { code: number | undefined; text: string } {
  const e = (error ?? {}) as { code?: unknown; details?: unknown; shortMessage?: unknown; message?: unknown; cause?: unknown };
  // viem puts the node's own message in `details`; its `message` adds the request and the URL.
  const node = [e.details, e.shortMessage, e.message].find((t): t is string => typeof t === 'string' && t !== '') ?? String(error);
  const code = typeof e.code === 'number' ? e.code : (e.cause as { code?: unknown } | undefined)?.code;
  return { code: typeof code === 'number' ? code : undefined, text: node.split('\n')[0]!.slice(0, 200) };
}

/**
 * Whether a provider refused a query as too large: too many blocks or too
 * many logs (providers say so in words of their own, some with -32005,
 * "limit exceeded", which a rate limit also uses: that is not halved).
 */
function isTooLarge(error: unknown): boolean {
  const { code, text } = rpcFailure(error);
  if (/rate|per second|request count|credits/i.test(text)) return false;
  return code === -32005 || /range|too many|more than|too large|too wide|exceed|response size|limit/i.test(text);
}

/** A client's failure at `what`, as a ReportTrustReadError saying what the node said. */
function readError(what: string, error: unknown): ReportTrustReadError {
  const { code, text } = rpcFailure(error);
  return new ReportTrustReadError(`${what} failed: ${code === undefined ? '' : `${code} `}${text}`);
}

/** A JSON-RPC quantity answer as a bigint. */
function quantityOf(answer: unknown, method: string): bigint {
  if (typeof answer !== 'string' || !QUANTITY.test(answer)) throw new ReportTrustReadError(`${method} did not answer a quantity (got ${quoteInput(answer)})`);
  return BigInt(answer);
}

/**
 * The verifier's logs for `topics` from block `from` to `to`, a page of
 * `range` blocks per request, a page the provider refuses as too large
 * asked again in halves.
 */
async function readLogs(client: ChainLogReader, address: string, topics: LogFilter['topics'], from: bigint, to: bigint, range: number): Promise<Log[]> {
  const logs: Log[] = [];
  let size = BigInt(range);
  for (let start = from; start <= to; ) {
    const end = start + size - 1n < to ? start + size - 1n : to;
    const filter = { address, fromBlock: quantity(start), toBlock: quantity(end), topics };
    let page: unknown;
    try {
      page = await client.request({ method: 'eth_getLogs', params: [filter] });
    } catch (error) {
      if (end > start && isTooLarge(error)) {
        size = (end - start + 1n) / 2n;
        continue;
      }
      throw readError(`eth_getLogs of blocks ${start} to ${end}`, error);
    }
    if (!Array.isArray(page) || !page.every(isLog)) throw new ReportTrustReadError('eth_getLogs did not answer a list of logs');
    logs.push(...page);
    start = end + 1n;
  }
  return logs;
}

/**
 * The trust the events say, in chain order (the last event for a
 * configuration or a stream decides), and the streams that had a
 * `ConfigSet` at all. A configuration is the Verifier's
 * `(feedId, configDigest)`: its deactivation names both.
 */
function trustOf(logs: readonly Log[]): { trust: Record<string, ReportConfiguration>; configured: Set<string> } {
  const ordered = logs
    .filter((log) => log.removed !== true) // a reorganisation took it back
    .sort((a, b) => Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) || Number(BigInt(a.logIndex) - BigInt(b.logIndex)));
  const configs = new Map<string, { feedID: string; f: number; signers: string[]; active: boolean }>();
  const inactiveFeeds = new Set<string>();
  for (const log of ordered) {
    const [event, feedTopic] = log.topics.map((t) => t.toLowerCase());
    if (feedTopic === undefined) continue;
    if (event === EVENTS.configSet) {
      const { digest, signers, f } = decodeConfigSet(log.data);
      configs.set(digest, { feedID: feedTopic, f, signers, active: true });
    } else if (event === EVENTS.configDeactivated || event === EVENTS.configActivated) {
      const config = configs.get(`0x${log.data.slice(2, 66).toLowerCase()}`);
      if (config?.feedID === feedTopic) config.active = event === EVENTS.configActivated;
    } else if (event === EVENTS.feedDeactivated) {
      inactiveFeeds.add(feedTopic);
    } else if (event === EVENTS.feedActivated) {
      inactiveFeeds.delete(feedTopic);
    }
  }
  const trust: Record<string, ReportConfiguration> = {};
  for (const [digest, { feedID, f, signers, active }] of configs) {
    if (active && !inactiveFeeds.has(feedID)) trust[digest] = { feedID, f, signers };
  }
  return { trust, configured: new Set([...configs.values()].map((config) => config.feedID)) };
}

/** The latest block's number. */
async function latestBlock(client: ChainLogReader): Promise<bigint> {
  let answer: unknown;
  try {
    answer = await client.request({ method: 'eth_blockNumber' });
  } catch (error) {
    throw readError('eth_blockNumber', error);
  }
  return quantityOf(answer, 'eth_blockNumber');
}

/** The chain's ID for a message, or a sentence saying it could not be asked. */
async function chainName(client: ChainLogReader): Promise<string> {
  try {
    return `chain ${quantityOf(await client.request({ method: 'eth_chainId' }), 'eth_chainId')}`;
  } catch {
    return 'the chain of the client (eth_chainId failed)';
  }
}

/**
 * Read the oracle network configurations the verifier contract holds for
 * `feedIDs`, from its events: every `ConfigSet` since `fromBlock`, minus
 * configurations and streams deactivated since (and not reactivated), and
 * minus logs a reorganisation removed. Each configuration keeps its stream.
 * The result is the `trust` that `verifyReport`, the REST helpers' `verify`
 * and the stream's `verify` take. The block range is read in pages of
 * `blockRange` blocks (one `eth_getLogs` each); read it again when the
 * oracle network is reconfigured (a report under a new digest then fails
 * with `unknown_config`).
 *
 * @throws {ConfigurationError} for a malformed option, and when a stream
 *   asked for has no `ConfigSet` at that verifier in that range (a wrong
 *   address, chain or block): the message names the verifier and the chain.
 * @throws {ReportTrustReadError} when the client fails or its answer is not the contract's logs.
 */
export async function readReportTrust(options: ReadReportTrustOptions): Promise<ReportTrust> {
  checkOptions(options);
  const client = options.client as ChainLogReader;
  const verifier = options.verifier.toLowerCase();
  const feedIDs = options.feedIDs.map((id) => id.toLowerCase());
  const from = BigInt(options.fromBlock);
  const to = options.toBlock === undefined ? await latestBlock(client) : BigInt(options.toBlock);
  const logs = await readLogs(client, verifier, [Object.values(EVENTS), feedIDs], from, to, options.blockRange ?? DEFAULT_LOG_BLOCK_RANGE);
  const { trust, configured } = trustOf(logs);
  const unset = [...new Set(feedIDs)].filter((id) => !configured.has(id));
  if (unset.length > 0) {
    throw new ConfigurationError(
      'verifier',
      `no ConfigSet of stream ${unset.join(', ')} at verifier ${options.verifier} on ${await chainName(client)} in blocks ${from} to ${to}: ` +
        'check the verifier address (the verifier contract, not its proxy), the chain of the client, and fromBlock (at or before the verifier\'s deployment)',
    );
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
