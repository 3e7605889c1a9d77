/**
 * How long each asynchronous step takes, in sandbox milliseconds after the
 * step before it. Short by default, so every flow ends within a few seconds
 * at pace 1; tests at pace 0 move the clock with `sandbox.advance(ms)`.
 */
export interface ChannelsTimings {
  /** Wallet: `pending` → `deploying` → `deployed` (or `failed`). */
  walletDeploying: number;
  walletDeployed: number;
  /** Watcher: `pending` → `active` (or `failed`). */
  watcherActive: number;
  /** Watcher: `archiving` → `archived` (or `archive_failed`). */
  watcherArchived: number;
  /** Operation: `accepted` → `sending` → `sent` → `broadcasting`, then one step per finality stage. */
  operationSending: number;
  operationSent: number;
  operationBroadcasting: number;
  operationConfirmedLatest: number;
  operationConfirmedSafe: number;
  operationConfirmed: number;
  /** Query: `accepted` → `sending` → `sent` → `completed` (or `failed`). */
  querySending: number;
  querySent: number;
  queryResult: number;
  /** A query with no result by then becomes `expired` (its `expires_at`, rounded up to a whole second). */
  queryTimeToLive: number;
}

export const DEFAULT_CHANNELS_TIMINGS: Readonly<ChannelsTimings> = Object.freeze({
  walletDeploying: 100,
  walletDeployed: 300,
  watcherActive: 200,
  watcherArchived: 300,
  operationSending: 100,
  operationSent: 100,
  operationBroadcasting: 100,
  operationConfirmedLatest: 200,
  operationConfirmedSafe: 200,
  operationConfirmed: 300,
  querySending: 100,
  querySent: 100,
  queryResult: 300,
  queryTimeToLive: 5_000,
});
