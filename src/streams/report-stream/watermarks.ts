/** One subscribed stream: its ID as the caller gave it, and the newest report delivered. */
export interface FeedState {
  /** The ID in lowercase, the stream's key everywhere. */
  readonly key: string;
  /** The ID as the caller gave it. */
  readonly feedID: string;
  /** `observationsTimestamp` of the newest report delivered; -1 before the first. */
  newest: number;
}

/**
 * Deduplication on (feedID, observationsTimestamp): per stream, the newest
 * `observationsTimestamp` already delivered. A report at or below it is a
 * copy (another origin's, a resend, or a backfilled one already seen), so
 * it is dropped; everything delivered is therefore in time order per stream.
 * Memory is one record per subscribed stream, for as long as the stream runs:
 * reports of other streams find no record and are refused.
 */
export class FeedWatermarks {
  /** Each stream under its lowercase ID and under the ID as given, so the usual lookup allocates nothing. */
  private readonly byId = new Map<string, FeedState>();

  constructor(feedIDs: readonly string[]) {
    for (const feedID of feedIDs) {
      const state: FeedState = { key: feedID.toLowerCase(), feedID, newest: -1 };
      this.byId.set(state.key, state);
      this.byId.set(feedID, state);
    }
  }

  /** The stream a report belongs to, in any letter case; `undefined` when not subscribed. */
  find(feedID: string): FeedState | undefined {
    return this.byId.get(feedID) ?? this.byId.get(feedID.toLowerCase());
  }

  /** The newest timestamp delivered for the stream of `key`, or `undefined` when none was. */
  last(key: string): number | undefined {
    const newest = this.byId.get(key)?.newest;
    return newest === undefined || newest < 0 ? undefined : newest;
  }
}
