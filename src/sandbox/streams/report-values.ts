/**
 * What a sandbox report says: every blob field of the stream's schema
 * version, computed from the stream and the second alone, so a test can
 * predict any report and two sandboxes agree on it.
 *
 * The price moves as a triangle wave around the stream's base price:
 * ±0.5% over a 200-second period, by 0.01% a second, its phase set by the
 * feed ID. Integer arithmetic only (no `Math.sin`), so every runtime gives
 * the same digits. The other fields follow the price: bid and ask one basis
 * point either side, volumes, rates and NAVs from it, market open, ripcord
 * normal.
 */
import { REPORT_VERSIONS, type ReportVersion } from '../../reports/layouts.js';
import type { ReportFieldValue } from '../../reports/encode.js';
import type { CatalogStream } from './catalog.js';

const E18 = 10n ** 18n;
const NS_PER_SECOND = 1_000_000_000n;
const MAX_UINT32 = 2 ** 32 - 1;
/** How long a report stays verifiable, in seconds. */
export const REPORT_LIFETIME_SECONDS = 86_400;
const WAVE_PERIOD = 200;
const MARKET_OPEN = 2;
const RIPCORD_NORMAL = 0;

/** A decimal string as an integer scaled by 10^18, exactly. */
export function scaled(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * E18 + BigInt(fraction.padEnd(18, '0').slice(0, 18));
}

const basePrices = new WeakMap<CatalogStream, bigint>();
function basePriceOf(stream: CatalogStream): bigint {
  let base = basePrices.get(stream);
  if (base === undefined) {
    base = scaled(stream.basePrice);
    basePrices.set(stream, base);
  }
  return base;
}

/** The wave's offset at second `t`, from -50 to 50 (hundredths of a percent). */
function waveAt(feedID: string, t: number): number {
  const phase = (t + (Number.parseInt(feedID.slice(-4), 16) % WAVE_PERIOD)) % WAVE_PERIOD;
  return phase < WAVE_PERIOD / 2 ? phase - 50 : 150 - phase;
}

/**
 * The stream's price at second `t`, scaled by 10^18:
 * `base + base × wave / 10000`, where `wave` runs from -50 to 50 and back over
 * 200 seconds (`phase = (t + last four hex digits of the feed ID mod 200) mod 200`,
 * `wave = phase - 50` for a phase below 100, else `150 - phase`).
 */
export function priceAt(stream: CatalogStream, t: number): bigint {
  const base = basePriceOf(stream);
  return base + (base * BigInt(waveAt(stream.record.feedID, t))) / 10_000n;
}

/** The schema version of a catalog stream, from its feed ID. */
export function versionOf(stream: CatalogStream): ReportVersion {
  return REPORT_VERSIONS[Number.parseInt(stream.record.feedID.slice(2, 6), 16) - 2]!;
}

/**
 * Every blob field of the report the stream publishes at second `t`, by name
 * (the encoder's input). `validFrom` is the previous report's time (the
 * stream's first report starts its own span).
 */
export function reportFields(stream: CatalogStream, t: number): Record<string, ReportFieldValue> {
  const price = priceAt(stream, t);
  const spread = price / 10_000n;
  const nanos = BigInt(t) * NS_PER_SECOND;
  const day = BigInt(t - (t % 86_400)) * NS_PER_SECOND;
  const common = {
    feedId: stream.record.feedID,
    validFromTimestamp: t === stream.record.created_at ? t : t - 1,
    observationsTimestamp: t,
    nativeFee: 28_000_000_000_000n, // 0.000028 ETH (wei)
    linkFee: 5_600_000_000_000_000n, // 0.0056 LINK (juels)
    expiresAt: Math.min(t + REPORT_LIFETIME_SECONDS, MAX_UINT32),
  };
  switch (versionOf(stream)) {
    case 'V2':
      return { ...common, price };
    case 'V3':
      return { ...common, price, bid: price - spread, ask: price + spread };
    case 'V4':
      return { ...common, price, marketStatus: MARKET_OPEN };
    case 'V5':
      return { ...common, rate: price, timestamp: t, duration: 86_400 };
    case 'V6':
      return {
        ...common,
        price,
        price2: price + (price * 1n) / 1_000n,
        price3: price + (price * 2n) / 1_000n,
        price4: price + (price * 3n) / 1_000n,
        price5: price + (price * 4n) / 1_000n,
      };
    case 'V7':
      return { ...common, exchangeRate: price };
    case 'V8':
      return { ...common, lastUpdateTimestamp: nanos, midPrice: price, marketStatus: MARKET_OPEN };
    case 'V9':
      return { ...common, navPerShare: price, navDate: day, aum: price * 25_000_000n, ripcord: RIPCORD_NORMAL };
    case 'V10':
      return {
        ...common,
        lastUpdateTimestamp: nanos,
        price,
        marketStatus: MARKET_OPEN,
        currentMultiplier: E18,
        newMultiplier: E18,
        activationDateTime: 0,
        tokenizedPrice: price,
      };
    case 'V11':
      return {
        ...common,
        mid: price,
        lastSeenTimestampNs: nanos,
        bid: price - spread,
        bidVolume: 1_250n * E18,
        ask: price + spread,
        askVolume: 1_100n * E18,
        lastTradedPrice: price,
        marketStatus: MARKET_OPEN,
      };
    case 'V12':
      return { ...common, navPerShare: price, nextNavPerShare: price + spread, navDate: day, ripcord: RIPCORD_NORMAL };
    case 'V13':
      return { ...common, bestAsk: price + spread, bestBid: price - spread, askVolume: 1_100n, bidVolume: 1_250n, lastTradedPrice: price };
  }
}
