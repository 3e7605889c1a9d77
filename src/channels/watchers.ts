import { STATUS_KINDS } from '../../generated/operations/channels.js';
import type { openEnums } from '../../generated/types/channels.js';
import { isKnownStatus, PollFailedError, pollUntil, type PollOptions, type StatusKind, type WithOpenStatus } from '../core/poll.js';
import { unwrap } from '../core/unwrap.js';
import type { ChannelsClient, ChannelsComponents } from './client.js';

/** A watcher as the channels API returns it. */
export type Watcher = WithOpenStatus<ChannelsComponents['schemas']['Watcher'], WatcherStatus>;
/** Every status a watcher can have, or any other string: the service may add a status, so a `switch` over it needs a `default`. */
export type WatcherStatus = openEnums['WatcherStatus'];
/** The watcher statuses this version of the SDK knows (the spec's enum). */
export type KnownWatcherStatus = ChannelsComponents['schemas']['WatcherStatus'];

/** The kind of every known status, from the spec's `x-status-kinds`: a status added to the spec without a kind is a type error here. */
const WATCHER_STATUS_KINDS: Readonly<Record<KnownWatcherStatus, StatusKind>> = STATUS_KINDS.WatcherStatus;

/** True when `status` is one this version of the SDK knows. */
export function isKnownWatcherStatus(status: string): status is KnownWatcherStatus {
  return isKnownStatus(WATCHER_STATUS_KINDS, status);
}

/** Names one watcher: its channel and its ID. */
export interface WatcherRef {
  channel_id: string;
  watcher_id: string;
}

/** Reads one watcher. Throws `ApiError` on an error answer. */
export function getWatcher(channels: ChannelsClient, ref: WatcherRef, signal?: AbortSignal): Promise<Watcher> {
  return unwrap(channels.GET('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: ref }, signal }));
}

/** Starts archiving a watcher (`202`, the watcher in `archiving`). Deprovisioning goes on in the background. */
export function archiveWatcher(channels: ChannelsClient, ref: WatcherRef, signal?: AbortSignal) {
  return unwrap(
    channels.PATCH('/channels/{channel_id}/watchers/{watcher_id}', {
      params: { path: ref },
      body: { status: 'archived' },
      signal,
    }),
  );
}

/** A watcher's archive ended `archive_failed`: `resource` is the watcher. */
export class WatcherArchiveFailedError extends PollFailedError<Watcher, WatcherStatus> {
  override name = 'WatcherArchiveFailedError';
}

/**
 * Polls an archiving watcher until `archived`; throws WatcherArchiveFailedError (a PollFailedError) on `archive_failed`,
 * and UnknownStatusError at once on a status this version of the SDK does not know (unless `onUnknownStatus: 'wait'`).
 */
export function waitForWatcherArchive(
  channels: ChannelsClient,
  ref: WatcherRef,
  options: PollOptions<WatcherStatus> = {},
): Promise<Watcher> {
  return pollUntil(
    {
      what: `watcher ${ref.watcher_id}`,
      read: (signal) => getWatcher(channels, ref, signal),
      statusOf: (watcher) => watcher.status,
      isDone: (status) => status === 'archived',
      isFailed: (status) => status === 'archive_failed',
      client: channels,
      isKnown: isKnownWatcherStatus,
      failure: (what, status, watcher) => new WatcherArchiveFailedError(what, status, watcher),
      operation: 'GET /channels/{channel_id}/watchers/{watcher_id}',
    },
    options,
  );
}
