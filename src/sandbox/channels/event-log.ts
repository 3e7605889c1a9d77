/**
 * The event stream of each channel. Every event gets the channel's next
 * position (`headers.offset`, from 0, unique and increasing) and an
 * `event_id`. Besides the public event, each entry keeps the facets the
 * search filters match on (addresses, names, ids) where the payload does not
 * carry them. A channel keeps its latest `maxEventsPerChannel` events; older
 * ones are dropped (positions are never reused), so memory stays bounded on
 * long runs.
 */
import type { components } from '../../../generated/types/channels.js';
import type { ChannelEvent, EventType } from './model.js';

type Schemas = components['schemas'];

export interface PayloadByType {
  'operation.status': Schemas['OperationStatusPayload'];
  'query.status': Schemas['QueryStatusPayload'];
  'watcher.status': Schemas['WatcherStatusPayload'];
  'watcher.event': Schemas['WatcherEventPayload'];
  'wallet.status': Schemas['WalletStatusPayload'];
}

export type Proof = Schemas['EventHeaders']['proofs'][number];

/** What search filters look at besides the payload, lowercase where they compare case-insensitively. */
export interface EventFacets {
  addresses?: readonly string[];
  walletId?: string;
  eventName?: string;
  service?: string;
}

export interface StoredEvent {
  readonly event: ChannelEvent;
  readonly type: EventType;
  readonly facets: EventFacets;
}

export interface EventLog {
  /** Starts the (empty) stream of a new channel. */
  open(channelId: string): void;
  /** Appends an event to a channel's stream; ignored when the channel is unknown. */
  append<T extends EventType>(channelId: string, type: T, payload: PayloadByType[T], facets?: EventFacets, proofs?: Proof[]): void;
  /** The retained events of a channel, oldest first. */
  eventsOf(channelId: string): readonly StoredEvent[] | undefined;
  find(channelId: string, eventId: string): StoredEvent | undefined;
  clear(): void;
}

interface Stream {
  nextOffset: number;
  events: StoredEvent[];
  byId: Map<string, StoredEvent>;
}

export function createEventLog(newId: () => string, maxEventsPerChannel: number): EventLog {
  const streams = new Map<string, Stream>();
  return {
    open(channelId) {
      streams.set(channelId, { nextOffset: 0, events: [], byId: new Map() });
    },
    append(channelId, type, payload, facets = {}, proofs = []) {
      const stream = streams.get(channelId);
      if (stream === undefined) return;
      const eventId = newId();
      const event = { event_id: eventId, payload, headers: { type, offset: stream.nextOffset++, proofs } } as ChannelEvent;
      const stored: StoredEvent = { event, type, facets };
      stream.events.push(stored);
      stream.byId.set(eventId, stored);
      while (stream.events.length > maxEventsPerChannel) {
        const dropped = stream.events.shift()!;
        stream.byId.delete(dropped.event.event_id!);
      }
    },
    eventsOf: (channelId) => streams.get(channelId)?.events,
    find: (channelId, eventId) => streams.get(channelId)?.byId.get(eventId),
    clear: () => streams.clear(),
  };
}
