import { createHash } from 'node:crypto';
import { encodeReport } from '../streams/report-encoder.js';
import type { Report } from '../streams/reports.js';

/**
 * The reports a local report service publishes: real V3 encodings made by
 * the SDK's own encoder (src/streams/report-encoder.ts, the one the sandbox
 * and the example script use), so every one decodes. Signatures and context
 * words are deterministic hashes: the reports decode, they do not verify
 * onchain. One report per stream per second of `observationsTimestamp`,
 * consecutive.
 */

const E18 = 10n ** 18n;
const sha256 = (label: string): string => createHash('sha256').update(label).digest('hex');
const word = (hex: string): `0x${string}` => `0x${hex.padStart(64, '0')}`;
const CONFIG_DIGEST = `0x0006${sha256('local report service config digest').slice(4)}` as const;
/** secp256k1 group order / 2: a canonical signature has s at or below it. */
const HALF_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n / 2n;

/** A V3 stream ID made from a label (`0x0003` + 30 bytes of its hash). */
export function v3FeedID(label: string): string {
  return `0x0003${sha256(`feed:${label}`).slice(4)}`;
}

/** A plausible, deterministic price for a stream at a time: its own level, moving a little each second. */
function priceAt(feedID: string, t: number): bigint {
  const level = 1 + (Number.parseInt(sha256(feedID).slice(0, 8), 16) % 60_000);
  const cents = Math.round(level * 100 * (1 + 0.002 * Math.sin(t / 7)));
  return (BigInt(cents) * E18) / 100n;
}

/** One V3 report of `feedID` observed at `t` (valid from the second before, expiring a day later). */
export function makeV3Report(feedID: string, t: number): Report {
  if (!/^0x0003[0-9a-f]{60}$/i.test(feedID)) throw new Error(`the local report service makes V3 reports only, not ${feedID}`);
  const price = priceAt(feedID, t);
  const spread = price / 10_000n;
  const label = `${feedID}:${t}`;
  const fullReport = encodeReport(
    {
      feedId: feedID,
      validFromTimestamp: t - 1,
      observationsTimestamp: t,
      nativeFee: 28_000_000_000_000n, // 0.000028 ETH (wei)
      linkFee: 5_600_000_000_000_000n, // 0.0056 LINK (juels)
      expiresAt: t + 86_400,
      price,
      bid: price - spread,
      ask: price + spread,
    },
    {
      reportContext: [CONFIG_DIGEST, word((BigInt(t) * 256n).toString(16)), word(sha256(`extra hash:${label}`))],
      rawRs: [word(sha256(`r:${label}`))],
      rawSs: [word((BigInt(`0x${sha256(`s:${label}`)}`) % HALF_N).toString(16))],
      rawVs: word('01'.padEnd(64, '0')),
    },
  );
  return { feedID, validFromTimestamp: t - 1, observationsTimestamp: t, fullReport };
}

/**
 * The published reports of each stream, oldest first, at most `limit` per
 * stream (the oldest go first), with the next ones made ahead of time on
 * request so a fast publisher spends no time encoding.
 */
export class ReportHistory {
  private readonly published = new Map<string, Report[]>();
  private readonly prepared = new Map<string, Report[]>();
  private readonly nextTimestamp = new Map<string, number>();

  constructor(
    readonly feeds: readonly string[],
    firstTimestamp: number,
    private readonly limit: number,
  ) {
    for (const feed of feeds) {
      this.published.set(feed.toLowerCase(), []);
      this.prepared.set(feed.toLowerCase(), []);
      this.nextTimestamp.set(feed.toLowerCase(), firstTimestamp);
    }
  }

  has(feedID: string): boolean {
    return this.published.has(feedID.toLowerCase());
  }

  /** Encodes the next `count` reports of every stream now; `publish` then only sends them. */
  prepare(count: number): void {
    for (const feed of this.feeds) {
      const key = feed.toLowerCase();
      const queue = this.prepared.get(key) as Report[];
      let t = this.nextTimestamp.get(key) as number;
      for (let i = 0; i < count; i++) queue.push(makeV3Report(feed, t++));
      this.nextTimestamp.set(key, t);
    }
  }

  /** The next report of a stream, now part of its history. */
  publish(feedID: string): Report {
    const key = feedID.toLowerCase();
    const queue = this.prepared.get(key);
    if (queue === undefined) throw new Error(`unknown stream ${feedID}`);
    let report = queue.shift();
    if (report === undefined) {
      const t = this.nextTimestamp.get(key) as number;
      this.nextTimestamp.set(key, t + 1);
      report = makeV3Report(this.feeds.find((f) => f.toLowerCase() === key) as string, t);
    }
    const list = this.published.get(key) as Report[];
    list.push(report);
    if (list.length > this.limit) list.splice(0, list.length - this.limit);
    return report;
  }

  /** Every published report of a stream, oldest first. */
  of(feedID: string): readonly Report[] {
    return this.published.get(feedID.toLowerCase()) ?? [];
  }

  /** What `GET /api/v1/reports/page` answers: up to `limit` consecutive reports from `startTimestamp`. */
  page(feedID: string, startTimestamp: number, limit: number): Report[] {
    const list = this.of(feedID);
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((list[mid] as Report).observationsTimestamp < startTimestamp) low = mid + 1;
      else high = mid;
    }
    return list.slice(low, low + limit);
  }
}
