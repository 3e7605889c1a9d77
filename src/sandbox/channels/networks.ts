/**
 * The networks the sandbox supports, the same after every reset. Each has
 * the number of finality stages its operations report: with three, an
 * operation goes `confirmed_latest` → `confirmed_safe` → `confirmed`; with
 * one (Arbitrum Sepolia here), straight to `confirmed`, as on a chain with a
 * single finality stage.
 */
import type { Network } from './model.js';

export interface SandboxNetwork extends Network {
  /** 3: latest, safe, finalized; 1: finalized only. */
  readonly finalityStages: 1 | 3;
  /** Seconds between blocks, for the block numbers of results and events. */
  readonly blockSeconds: number;
}

const CREATED = 1_756_814_400; // 2025-09-02

function network(
  id: string,
  name: string,
  chainSelector: string,
  chainId: string,
  type: 'mainnet' | 'testnet',
  finalityStages: 1 | 3,
  blockSeconds: number,
): SandboxNetwork {
  return {
    id,
    name,
    chain_selector: chainSelector,
    chain_id: chainId,
    chain_family: 'evm',
    type,
    created_at: CREATED,
    updated_at: CREATED,
    finalityStages,
    blockSeconds,
  };
}

export const SANDBOX_NETWORKS: readonly SandboxNetwork[] = Object.freeze([
  network('0a6b2c8d-4e1f-4a37-9b5c-6d8e0f1a2b3c', 'Ethereum Sepolia', '16015286601757825753', '11155111', 'testnet', 3, 12),
  network('6c1e9b3a-2f4d-4c58-8a7e-1d0b9c8f7e6a', 'Base Sepolia', '10344971235874465080', '84532', 'testnet', 3, 2),
  network('9e2d4f6a-8b1c-4d3e-a5f7-0c9b8a7d6e5f', 'Arbitrum Sepolia', '3478487238524512106', '421614', 'testnet', 1, 1),
  network('1b3d5f7a-9c2e-4f60-8b4d-6e8f0a2c4e6b', 'Ethereum Mainnet', '5009297550715157269', '1', 'mainnet', 3, 12),
  network('3d5f7a9b-1c2e-4f60-8a4b-9c0d1e2f3a4b', 'Base Mainnet', '15971525489660198786', '8453', 'mainnet', 3, 2),
]);

const BY_SELECTOR = new Map(SANDBOX_NETWORKS.map((entry) => [entry.chain_selector, entry]));

export function findNetwork(chainSelector: string): SandboxNetwork | undefined {
  return BY_SELECTOR.get(chainSelector);
}

/** The network as the API answers it (without the sandbox's own fields). */
export function publicNetwork({ finalityStages: _stages, blockSeconds: _block, ...rest }: SandboxNetwork): Network {
  return rest;
}

/** The chain's block number at a sandbox time, growing with time. */
export function blockNumberAt(chainSelector: string, timeMs: number): string {
  const blockSeconds = findNetwork(chainSelector)?.blockSeconds ?? 12;
  return String(Math.floor(timeMs / 1000 / blockSeconds));
}
