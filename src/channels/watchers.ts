import { PollFailedError, pollUntil, type PollOptions } from '../core/poll.js';
import { unwrap } from '../core/unwrap.js';
import type { ChannelsClient, ChannelsComponents } from './client.js';

/** A watcher as the channels API returns it. */
export type Watcher = ChannelsComponents['schemas']['Watcher'];
/** Every status a watcher can have. */
export type WatcherStatus = ChannelsComponents['schemas']['WatcherStatus'];

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

/** Polls an archiving watcher until `archived`; throws WatcherArchiveFailedError (a PollFailedError) on `archive_failed`. */
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
      failure: (what, status, watcher) => new WatcherArchiveFailedError(what, status, watcher),
      operation: 'GET /channels/{channel_id}/watchers/{watcher_id}',
    },
    options,
  );
}
