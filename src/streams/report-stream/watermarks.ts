import { signedHeadOf } from './signed-fields.js';

/**
 * How far back, in seconds of `observationsTimestamp`, a stream remembers
 * which reports it delivered. Copies from another origin or a resend come
 * within seconds of the original; 1,024 s leaves room for an origin lagging
 * minutes behind, in 128 bytes per stream.
 */
export const RECENT_WINDOW_SECONDS = 1024;

/**
 * How many of the newest delivered reports a stream keeps whole, to tell a
 * copy from a conflicting report of the same second (same stream and time,
 * other content). Copies come from the other origin within moments, so the
 * last few suffice; older seconds are still told apart as delivered or not.
 */
export const RECENT_CONTENTS = 8;

/** What a report is to its stream: `new` goes on; a `duplicate` was delivered already; a `late` one was not, but a newer one was. */
export type Arrival = 'new' | 'duplicate' | 'late';

/**
 * One subscribed stream: its ID as the caller gave it, the newest report
 * delivered, and which of the last `RECENT_WINDOW_SECONDS` seconds before it
 * were delivered too (one bit per second, in a ring indexed by the second).
 */
export class FeedState {
  /** What its signed reports hold from the `feedId` word on (see `signedHeadOf`). */
  readonly signedHead: string;
  /** `observationsTimestamp` of the newest report delivered; -1 before the first. */
  private latest = -1;
  private readonly recent = new Uint32Array(RECENT_WINDOW_SECONDS / 32);
  /** `fullReport` of the last RECENT_CONTENTS delivered reports and their seconds, in a ring indexed by second. */
  private readonly contentTimes = new Float64Array(RECENT_CONTENTS).fill(-1);
  private readonly contents: string[] = new Array<string>(RECENT_CONTENTS).fill('');

  constructor(
    /** The ID in lowercase, the stream's key everywhere. */
    readonly key: string,
    /** The ID as the caller gave it. */
    readonly feedID: string,
  ) {
    this.signedHead = signedHeadOf(key);
  }

  /** `observationsTimestamp` of the newest report delivered; -1 before the first. */
  get newest(): number {
    return this.latest;
  }

  /**
   * A report newer than every delivered one is new. An older one is a
   * duplicate when its second is remembered as delivered, and late
   * otherwise: it cannot be delivered without breaking the order. Beyond the
   * window nothing is remembered, so an older report there counts as late:
   * the stream cannot show it was delivered, and a late report is reported.
   */
  classify(observationsTimestamp: number): Arrival {
    if (observationsTimestamp > this.latest) return 'new';
    if (observationsTimestamp === this.latest) return 'duplicate'; // the usual copy, from the other origin
    if (observationsTimestamp <= this.latest - RECENT_WINDOW_SECONDS) return 'late';
    return this.bit(observationsTimestamp) ? 'duplicate' : 'late';
  }

  /**
   * The `fullReport` delivered for second `t`, when it is one of the last
   * few delivered (see RECENT_CONTENTS); `undefined` when not known.
   */
  contentAt(t: number): string | undefined {
    const slot = t % RECENT_CONTENTS;
    return this.contentTimes[slot] === t ? this.contents[slot] : undefined;
  }

  /** Records a delivered report; it must be `new` (newer than every delivered one). */
  delivered(observationsTimestamp: number, fullReport?: string): void {
    if (fullReport !== undefined) {
      const slot = observationsTimestamp % RECENT_CONTENTS;
      this.contentTimes[slot] = observationsTimestamp;
      this.contents[slot] = fullReport;
    }
    const from = this.latest;
    if (from < 0 || observationsTimestamp - from >= RECENT_WINDOW_SECONDS) {
      this.recent.fill(0);
    } else {
      // The seconds skipped over reuse slots of seconds that just left the window: clear them.
      for (let t = from + 1; t < observationsTimestamp; t++) this.setBit(t, false);
    }
    this.setBit(observationsTimestamp, true);
    this.latest = observationsTimestamp;
  }

  private bit(t: number): boolean {
    const slot = t % RECENT_WINDOW_SECONDS;
    return ((this.recent[slot >>> 5] as number) & (1 << (slot & 31))) !== 0;
  }

  private setBit(t: number, on: boolean): void {
    const slot = t % RECENT_WINDOW_SECONDS;
    const word = slot >>> 5;
    const mask = 1 << (slot & 31);
    this.recent[word] = on ? (this.recent[word] as number) | mask : (this.recent[word] as number) & ~mask;
  }
}

/**
 * Deduplication on (feedID, observationsTimestamp), in order per stream:
 * only a report newer than the newest delivered goes on, so what is
 * delivered is in time order per stream. An older one is told apart as a
 * copy (another origin's, a resend, or a backfilled one already seen) or a
 * late report that was never delivered (see `FeedState.classify`). Memory is
 * one fixed-size record per subscribed stream, for as long as the stream
 * runs: reports of other streams find no record and are refused.
 */
export class FeedWatermarks {
  /** Each stream under its lowercase ID and under the ID as given, so the usual lookup allocates nothing. */
  private readonly byId = new Map<string, FeedState>();

  constructor(feedIDs: readonly string[]) {
    for (const feedID of feedIDs) {
      const state = new FeedState(feedID.toLowerCase(), feedID);
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
