/**
 * The sandbox's stream catalog: one or more streams of every report schema
 * version (V2 to V13), public and hidden, active, retiring and retired, on
 * both deployments, so that every discovery filter has something to select.
 * Each stream publishes one report per second from `created_at` to
 * `decommissioned_at` (or to now); `basePrice` is the centre of its
 * deterministic price (see `report-values.ts`).
 */
import type { components } from '../../../generated/types/streams.js';

export type StreamRecord = components['schemas']['Stream'];

export interface CatalogStream {
  /** The discovery record, exactly as `listStreams` answers it. */
  readonly record: Readonly<StreamRecord> & { readonly feedID: string; readonly created_at: number };
  /** The centre of the stream's price, as a decimal (18 decimals once scaled). */
  readonly basePrice: string;
}

interface Seed {
  feedID: string;
  pair: `${string}/${string}`;
  asset_class: string;
  feed_type: string;
  attribute_type: string;
  network_type?: 'testnet' | 'mainnet';
  hidden?: boolean;
  created_at: number;
  expected_decommission_at?: number;
  decommissioned_at?: number;
  basePrice: string;
}

const SEEDS: readonly Seed[] = [
  // V3, crypto: the streams of the spec's examples, with their IDs.
  { feedID: '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782', pair: 'ETH/USD', asset_class: 'crypto', feed_type: 'price', attribute_type: 'mid_price', created_at: 1_715_680_800, basePrice: '3000' },
  { feedID: '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439', pair: 'BTC/USD', asset_class: 'crypto', feed_type: 'price', attribute_type: 'mid_price', created_at: 1_715_680_800, basePrice: '65000' },
  { feedID: '0x0003c2ad9b9e46b1a3bc36ba2c02e0f1bd0e0f1c5cd6e7b2f8d1b5a4f3e2d1c0', pair: 'LINK/ETH', asset_class: 'crypto', feed_type: 'price', attribute_type: 'mid_price', created_at: 1_698_913_800, expected_decommission_at: 1_801_353_600, basePrice: '0.0045' },
  { feedID: '0x0003a1f4e6d2c8b7a59e0d3c4b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a', pair: 'MATIC/USD', asset_class: 'crypto', feed_type: 'price', attribute_type: 'mid_price', created_at: 1_698_913_800, expected_decommission_at: 1_727_740_800, decommissioned_at: 1_727_744_400, basePrice: '0.4' },
  { feedID: '0x0003bbc9e0d506ff2ea7c624233e548d35592501d5e2e612a8cfe40c2538d1e9', pair: 'ARB/USD', asset_class: 'crypto', feed_type: 'price', attribute_type: 'mid_price', network_type: 'mainnet', created_at: 1_722_470_400, basePrice: '0.75' },
  // One stream of each other version.
  { feedID: '0x000249c604db7aa8533fc055213bbb62daefb61f8743c1161c6d30171aa0ddd5', pair: 'AVAX/USD', asset_class: 'crypto', feed_type: 'price', attribute_type: 'benchmark_price', created_at: 1_704_067_200, basePrice: '28' },
  { feedID: '0x0004c137e91c18a93ccaeea2662de9c7be7af36e21be07481d9ae72847d38afe', pair: 'XAU/USD', asset_class: 'commodities', feed_type: 'price', attribute_type: 'mid_price', created_at: 1_719_792_000, basePrice: '2400' },
  { feedID: '0x00055a80d20549cf3b33c40f765e7303c57e4181fcff5975a8105adda66b28ff', pair: 'SOFR/PCT', asset_class: 'rates', feed_type: 'interest_rate', attribute_type: 'rate', created_at: 1_725_148_800, basePrice: '0.053' },
  { feedID: '0x0006c318cffaaffa29edbf1576d269fb5d5d1294f7933ae3e2663d4590078ac3', pair: 'ETH/USD', asset_class: 'crypto', feed_type: 'multi_price', attribute_type: 'mid_price', created_at: 1_727_740_800, basePrice: '3000' },
  { feedID: '0x0007db353698c314d61e2c56177527e146665bab5297dad5765d67a1c2156f27', pair: 'WSTETH/STETH', asset_class: 'crypto', feed_type: 'exchange_rate', attribute_type: 'exchange_rate', created_at: 1_730_419_200, basePrice: '1.19' },
  { feedID: '0x0008a7c539e059bbd9efcfa3058822c7a7a46c6226bc8cc5100e3f07f287ac40', pair: 'AAPL/USD', asset_class: 'equities', feed_type: 'price', attribute_type: 'mid_price', created_at: 1_733_011_200, basePrice: '230' },
  { feedID: '0x0009b2e9c4d1a6f3e0b7c5d2a9f6e3b0c7d4a1e8f5b2c9d6a3e0f7b4c1d8a5e2', pair: 'USTB/USD', asset_class: 'rwa', feed_type: 'nav', attribute_type: 'nav_per_share', hidden: true, created_at: 1_738_368_000, basePrice: '10.4' },
  { feedID: '0x000ad414d253e0b5484288bfc2e5aa7ffed6a9d946baf913bff082966224a28f', pair: 'TSLAX/USD', asset_class: 'equities', feed_type: 'tokenized_price', attribute_type: 'price', network_type: 'mainnet', created_at: 1_740_787_200, basePrice: '250' },
  { feedID: '0x000b2d0081efc4f3a51bd3bf0bf294370a67c2363d65a095c57f29a1f5664e39', pair: 'EUR/USD', asset_class: 'forex', feed_type: 'price', attribute_type: 'bid_ask', created_at: 1_743_465_600, basePrice: '1.08' },
  { feedID: '0x000c0740186fdc77ace8156e2ce98047261282117c1b0518772ec31007321c72', pair: 'BUIDL/USD', asset_class: 'rwa', feed_type: 'nav', attribute_type: 'nav_per_share', hidden: true, created_at: 1_746_057_600, basePrice: '1' },
  { feedID: '0x000d2cb59283567a19b283635c0dfb04795a9a02d5e3ee0c68a5ef6ab35f0eb1', pair: 'SOL/USD', asset_class: 'crypto', feed_type: 'price', attribute_type: 'best_bid_ask', created_at: 1_748_736_000, basePrice: '150' },
];

function statusOf(seed: Seed): string {
  if (seed.decommissioned_at !== undefined) return 'decommissioned';
  if (seed.expected_decommission_at !== undefined) return 'expected_decommission';
  return 'active';
}

function toStream(seed: Seed): CatalogStream {
  const [base_asset, quote_asset] = seed.pair.split('/') as [string, string];
  const record = Object.freeze({
    feedID: seed.feedID,
    base_asset,
    quote_asset,
    status: statusOf(seed),
    asset_class: seed.asset_class,
    feed_type: seed.feed_type,
    attribute_type: seed.attribute_type,
    network_type: seed.network_type ?? 'testnet',
    hidden: seed.hidden ?? false,
    created_at: seed.created_at,
    expected_decommission_at: seed.expected_decommission_at ?? null,
    decommissioned_at: seed.decommissioned_at ?? null,
  });
  return Object.freeze({ record, basePrice: seed.basePrice });
}

/** Every stream of the sandbox, in the order discovery lists them. */
export const SANDBOX_STREAMS: readonly CatalogStream[] = Object.freeze(SEEDS.map(toStream));

const BY_ID = new Map(SANDBOX_STREAMS.map((stream) => [stream.record.feedID, stream]));

/** The stream with this ID (hex digits of either case), or `undefined`. */
export function findStream(feedID: string): CatalogStream | undefined {
  return BY_ID.get(feedID.toLowerCase());
}
