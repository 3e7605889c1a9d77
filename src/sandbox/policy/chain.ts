/**
 * A stand-in for the chains the policy APIs write to: every onchain write of
 * the sandbox (a deployment, a registration, a stored permit, a protected
 * call) becomes a transaction in a block of its chain, so the reporting API
 * can answer with block numbers, hashes and timestamps that agree with the
 * sandbox's clock. Blocks come once a second on every chain; a block's number
 * follows from its time, so two writes in one second share a block and get
 * successive log indexes.
 */
import { bytes32Of } from './hex.js';

/** Where an onchain write landed. `time` is the block's timestamp, Unix ms (whole seconds). */
export interface BlockRef {
  readonly chainSelector: string;
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly txHash: string;
  readonly logIndex: number;
  readonly time: number;
}

/** Block 0 of every sandbox chain: 2024-01-01T00:00:00Z. */
const GENESIS_MS = Date.UTC(2024, 0, 1);

export interface Chains {
  /** Records one transaction on `chainSelector` at sandbox time `timeMs`. */
  write(chainSelector: string, timeMs: number, what: string): BlockRef;
  clear(): void;
}

export function createChains(): Chains {
  let transactions = 0;
  const logIndexes = new Map<string, number>();
  return {
    write(chainSelector, timeMs, what) {
      const seconds = Math.max(0, Math.floor((timeMs - GENESIS_MS) / 1000));
      // Chains start at different heights, as real ones do, so numbers of two chains never read alike.
      const blockNumber = 1_000_000 + (Number(chainSelector.slice(-6)) % 900_000) * 10 + seconds;
      const blockKey = `${chainSelector}:${blockNumber}`;
      const logIndex = logIndexes.get(blockKey) ?? 0;
      logIndexes.set(blockKey, logIndex + 1);
      transactions += 1;
      return {
        chainSelector,
        blockNumber,
        blockHash: bytes32Of('block', chainSelector, String(blockNumber)),
        txHash: bytes32Of('tx', chainSelector, String(transactions), what),
        logIndex,
        time: GENESIS_MS + seconds * 1000,
      };
    },
    clear() {
      transactions = 0;
      logIndexes.clear();
    },
  };
}

/** An instant as the reporting API writes it (RFC 3339, UTC). */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** The block fields every reporting record carries. */
export function blockFields(block: BlockRef) {
  return { block_number: block.blockNumber, block_hash: block.blockHash, tx_hash: block.txHash };
}
