import { InvalidResponseBodyError } from '../core/errors.js';
import { durationOption } from '../core/options.js';
import { PaginationCycleError } from '../core/paginate.js';
import {
  DEFAULT_POLL,
  intervalOption,
  PollFailedError,
  PollTimeoutError,
  readBefore,
  UnknownStatusError,
  unknownStatusOption,
  warnUnknownStatus,
  type UnknownStatusChoice,
} from '../core/poll.js';
import { abortableSleep } from '../core/retry.js';
import { unwrap } from '../core/unwrap.js';
import type { ChannelsClient, ChannelsComponents } from './client.js';
import { hasReachedStage, isKnownOperationStatus, OPERATION_FAILURE_STATUSES, type OperationStage } from './operations.js';
import { isKnownQueryStatus } from './queries.js';
import { isKnownWatcherStatus } from './watchers.js';

type Schemas = ChannelsComponents['schemas'];
/** An event of a channel's event log, as the channels API returns it. */
export type ChannelEvent = Schemas['Event'];
/** Every event type the channels API documents. */
export type EventType = Schemas['EventType'];

/** The event of each kind, so a check on `headers.type` narrows the payload. */
export interface EventsByType {
  'operation.status': Schemas['OperationStatusEvent'];
  'query.status': Schemas['QueryStatusEvent'];
  'watcher.status': Schemas['WatcherStatusEvent'];
  'watcher.event': Schemas['WatcherChainEvent'];
  'wallet.status': Schemas['WalletStatusEvent'];
}

/** Narrows an event by its kind (the kind lives in `headers.type`, which TypeScript cannot narrow on by itself). */
export function isEventOfType<T extends EventType>(event: ChannelEvent, type: T): event is EventsByType[T] {
  return event.headers.type === type;
}

/** Options of `waitForEvent` and the event waits built on it. */
export interface WaitForEventOptions {
  /** Read the stream from this position (`headers.offset`) on. Default: the latest page, then what follows. */
  fromOffset?: number;
  /** Wait between two reads when nothing new came, in ms. Default 1,000. */
  intervalMs?: number;
  /** Give up after this many ms. Default 300,000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Events per read (1-200). */
  limit?: number;
  /**
   * What a status wait (`waitForOperationEvent`, …) does with a status this
   * version of the SDK does not know: `'throw'` (the default) ends it at once
   * with UnknownStatusError; `'wait'` reads on, as for a status in progress.
   * Either way the client's logger (if any) warns, once per such status.
   */
  onUnknownStatus?: UnknownStatusChoice;
}

/**
 * Reads a channel's event stream until `match` returns true for an event of
 * kind `type`, and resolves with that event. Instead of polling a resource,
 * this follows the channel's events: one request per interval covers every
 * resource of the channel. `match` may throw to end the wait (e.g. on a
 * failure status). A stream whose position does not move forward is a
 * PaginationCycleError.
 */
export async function waitForEvent<T extends EventType>(
  channels: ChannelsClient,
  channelId: string,
  type: T,
  match: (event: EventsByType[T]) => boolean,
  options: WaitForEventOptions = {},
): Promise<EventsByType[T]> {
  const timeoutMs = durationOption('timeoutMs', options.timeoutMs ?? DEFAULT_POLL.timeoutMs);
  const intervalMs = intervalOption('intervalMs', options.intervalMs ?? DEFAULT_POLL.intervalMs);
  const deadline = Date.now() + timeoutMs;
  const timeoutError = () => new PollTimeoutError(`waiting for a ${type} event`, timeoutMs, undefined, undefined);
  let position = options.fromOffset;

  for (let read = 0; ; read++) {
    // Every read after the first waits its interval, whatever the page said
    // (`has_more` included): a server cannot make this loop spin.
    if (read > 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw timeoutError();
      await abortableSleep(Math.min(intervalMs, remaining), options.signal);
    }
    options.signal?.throwIfAborted();
    const query = {
      ...(position === undefined ? {} : { offset: position }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    };
    const page = await readBefore(
      deadline,
      options.signal,
      (signal) => unwrap(channels.GET('/channels/{channel_id}/events', { params: { path: { channel_id: channelId }, query }, signal })),
      timeoutError,
    );
    const events = eventsOf(page, channelId);
    // Without an offset the page is newest first; walk every page oldest first.
    events.sort((a, b) => a.headers.offset - b.headers.offset);
    for (const event of events) {
      if (isEventOfType(event, type) && match(event)) return event;
    }
    const last = events.at(-1);
    if (last === undefined) continue;
    const next = last.headers.offset + 1;
    if (position !== undefined && !(next > position)) {
      throw new PaginationCycleError(position, `the events read from offset ${position} end at offset ${last.headers.offset}, so the stream does not move forward`);
    }
    position = next;
  }
}

/** The events of a page, checked for the shape the waits rely on (a cheap check, not full validation). */
function eventsOf(page: unknown, channelId: string): ChannelEvent[] {
  const events = (page as { events?: unknown } | null)?.events;
  const ok =
    Array.isArray(events) &&
    events.every((event) => typeof (event as ChannelEvent | null)?.headers?.offset === 'number');
  if (!ok) {
    throw new InvalidResponseBodyError(`GET /channels/{channel_id}/events`, `a body that is not a list of events (channel ${channelId})`);
  }
  return [...(events as ChannelEvent[])];
}

type StatusEventType = 'operation.status' | 'query.status' | 'watcher.status';
type StatusOf<T extends StatusEventType> = EventsByType[T]['payload']['status'];

/**
 * Waits for the status events of one resource: resolves with the first event
 * whose status is done, throws PollFailedError (holding the event) on a
 * failure status, and UnknownStatusError on a status the SDK does not know
 * (unless `onUnknownStatus: 'wait'`). Events of other resources are skipped.
 */
function waitForStatusEvent<T extends StatusEventType>(
  channels: ChannelsClient,
  channelId: string,
  type: T,
  resource: { what: string; isMine: (payload: EventsByType[T]['payload']) => boolean },
  outcome: { isDone: (status: StatusOf<T>) => boolean; isFailed: (status: StatusOf<T>) => boolean; isKnown: (status: string) => boolean },
  options: WaitForEventOptions,
): Promise<EventsByType[T]> {
  const onUnknownStatus = unknownStatusOption(options.onUnknownStatus);
  const warned = new Set<string>();
  return waitForEvent(
    channels,
    channelId,
    type,
    (event) => {
      const payload = event.payload as EventsByType[T]['payload'];
      if (!resource.isMine(payload)) return false;
      const status = payload.status as StatusOf<T>;
      if (!outcome.isKnown(status)) {
        if (!warned.has(status)) warnUnknownStatus(channels, resource.what, status, onUnknownStatus);
        warned.add(status);
        if (onUnknownStatus === 'throw') throw new UnknownStatusError(resource.what, status, event);
      }
      if (outcome.isDone(status)) return true;
      // The status event says why, where the resource itself does not.
      if (outcome.isFailed(status)) throw new PollFailedError(resource.what, status, event, (payload as { status_reason?: string | null }).status_reason);
      return false;
    },
    options,
  );
}

/**
 * Waits on `operation.status` events (not on the operation) until the
 * operation reaches `until`. Throws PollFailedError with the event on
 * `cancelled`, `expired` or `failed` (every status the spec gives the `failed`
 * kind), and UnknownStatusError on a status this SDK does not know.
 */
export function waitForOperationEvent(
  channels: ChannelsClient,
  ref: { channel_id: string; operation_id: string },
  until: OperationStage = 'confirmed',
  options: WaitForEventOptions = {},
) {
  return waitForStatusEvent(
    channels,
    ref.channel_id,
    'operation.status',
    { what: `operation ${ref.operation_id}`, isMine: (p) => p.operation_id === ref.operation_id },
    {
      isDone: (status) => hasReachedStage(status, until),
      isFailed: (status) => OPERATION_FAILURE_STATUSES.includes(status),
      isKnown: isKnownOperationStatus,
    },
    options,
  );
}

/** Waits on `query.status` events until the query is `completed`; PollFailedError on `failed`/`expired`. */
export function waitForQueryEvent(
  channels: ChannelsClient,
  ref: { channel_id: string; query_id: string },
  options: WaitForEventOptions = {},
) {
  return waitForStatusEvent(
    channels,
    ref.channel_id,
    'query.status',
    { what: `query ${ref.query_id}`, isMine: (p) => p.query_id === ref.query_id },
    { isDone: (status) => status === 'completed', isFailed: (status) => status === 'failed' || status === 'expired', isKnown: isKnownQueryStatus },
    options,
  );
}

/** Waits on `watcher.status` events until the watcher is `archived`; PollFailedError on `archive_failed`. */
export function waitForWatcherArchiveEvent(
  channels: ChannelsClient,
  ref: { channel_id: string; watcher_id: string },
  options: WaitForEventOptions = {},
) {
  return waitForStatusEvent(
    channels,
    ref.channel_id,
    'watcher.status',
    { what: `watcher ${ref.watcher_id}`, isMine: (p) => p.watcher_id === ref.watcher_id },
    { isDone: (status) => status === 'archived', isFailed: (status) => status === 'archive_failed', isKnown: isKnownWatcherStatus },
    options,
  );
}
