import { createHmacSigner } from '../../src/core/hmac/index.js';
import type { CatalogStream } from '../../src/sandbox/streams/catalog.js';
import { loadDonSigner } from '../../src/sandbox/streams/don.js';
import { reportAt } from '../../src/sandbox/streams/history.js';
import type { Report } from '../../src/streams/reports.js';

/**
 * The reports the local report service (report-server.ts) publishes on
 * demand. Each one is the sandbox's own report of that stream and second
 * (`reportAt`, src/sandbox/streams/history.ts): the same encoder and the
 * same deterministic words and signatures, so every report decodes; only the
 * streams differ, made up from a label instead of taken from the catalog.
 */

// The sandbox's DON signer loads lazily (its requests await it); reports are made here without a request.
await loadDonSigner();

// SHA-256 through the SDK's signer: native where the runtime has node:crypto, pure JS elsewhere.
const hasher = createHmacSigner('local report service');
const sha256 = (label: string): string => hasher.sha256Hex(label);

/** A V3 stream ID made from a label (`0x0003` + 30 bytes of its hash). */
export function v3FeedID(label: string): string {
  return `0x0003${sha256(`feed:${label}`).slice(4)}`;
}

/** A made-up stream for a V3 stream ID: a price level of its own, reports from the start of time. */
const streams = new Map<string, CatalogStream>();
function streamOf(feedID: string): CatalogStream {
  let stream = streams.get(feedID);
  if (stream === undefined) {
    const level = 1 + (Number.parseInt(sha256(feedID).slice(0, 8), 16) % 60_000);
    stream = { record: { feedID, created_at: 0 } as CatalogStream['record'], basePrice: String(level) };
    streams.set(feedID, stream);
  }
  return stream;
}

/** One V3 report of `feedID` observed at `t` (valid from the second before, expiring a day later). */
export function makeV3Report(feedID: string, t: number): Report {
  if (!/^0x0003[0-9a-f]{60}$/i.test(feedID)) throw new Error(`the local report service makes V3 reports only, not ${feedID}`);
  return reportAt(streamOf(feedID), t);
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
