/**
 * The Data Streams Verifier's events (Verifier.sol, llo-feeds) as a node
 * returns their logs, encoded by viem (never by the SDK's own code).
 */
import { encodeAbiParameters, encodeEventTopics, parseAbi, toHex, type Hex } from 'viem';

export const VERIFIER_ABI = parseAbi([
  'event ConfigSet(bytes32 indexed feedId, uint32 previousConfigBlockNumber, bytes32 configDigest, uint64 configCount, address[] signers, bytes32[] offchainTransmitters, uint8 f, bytes onchainConfig, uint64 offchainConfigVersion, bytes offchainConfig)',
  'event ConfigDeactivated(bytes32 indexed feedId, bytes32 configDigest)',
  'event ConfigActivated(bytes32 indexed feedId, bytes32 configDigest)',
  'event FeedDeactivated(bytes32 indexed feedId)',
  'event FeedActivated(bytes32 indexed feedId)',
]);

/** Where and in which block a log is. */
export interface LogPlace {
  verifier: string;
  feedId: Hex;
  block: number;
  logIndex?: number;
}

function logAt({ verifier, block, logIndex = 0 }: LogPlace, topics: readonly unknown[], data: Hex) {
  return {
    address: verifier.toLowerCase(),
    topics: topics as string[],
    data: data as string,
    blockNumber: toHex(block),
    logIndex: toHex(logIndex),
    transactionHash: toHex(block * 1000 + logIndex, { size: 32 }),
    blockHash: toHex(block, { size: 32 }),
    transactionIndex: '0x0',
    removed: false,
  };
}

/** A ConfigSet log: `feedId`'s configuration `digest` of `signers` tolerating `f`. */
export function configSetLog(place: LogPlace, digest: Hex, f: number, signers: readonly Hex[]) {
  return logAt(
    place,
    encodeEventTopics({ abi: VERIFIER_ABI, eventName: 'ConfigSet', args: { feedId: place.feedId } }),
    encodeAbiParameters(
      [{ type: 'uint32' }, { type: 'bytes32' }, { type: 'uint64' }, { type: 'address[]' }, { type: 'bytes32[]' }, { type: 'uint8' }, { type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
      [Math.max(place.block - 1, 0), digest, 1n, [...signers], signers.map((_, i) => toHex(i, { size: 32 })), f, '0x01', 1n, '0xdeadbeef'],
    ),
  );
}

/** A log of one of the Verifier's other events, with the digest as its data where it has one. */
export function verifierEventLog(place: LogPlace, eventName: 'ConfigDeactivated' | 'ConfigActivated' | 'FeedDeactivated' | 'FeedActivated', digest?: Hex) {
  return logAt(
    place,
    encodeEventTopics({ abi: VERIFIER_ABI, eventName, args: { feedId: place.feedId } }),
    digest === undefined ? '0x' : encodeAbiParameters([{ type: 'bytes32' }], [digest]),
  );
}
