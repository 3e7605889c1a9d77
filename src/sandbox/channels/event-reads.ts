/**
 * Reading a channel's events: the poll (`GET …/events`), the search
 * (`GET …/events/search`) and one event by ID.
 *
 * Both lists page the same way: with `offset` (a stream position), the
 * events from that position on, oldest first, `has_more` when more follow;
 * without it, the latest `limit` events, newest first, `has_more` when older
 * ones exist (so a walk back with `created.lte` works as the spec describes).
 *
 * Search filters: `type`, `limit`, `offset`, `created.*`, `chain_selector`
 * and `chain_environment` apply to every kind; the others only to the kinds
 * the spec lists for them (`FILTER_KINDS`). With `type`, a filter that does
 * not apply to one of the asked kinds is `400`; without it, a filter keeps
 * only events of the kinds it applies to. As the spec notes, `query_id` is
 * accepted but does not filter query payloads.
 */
import type { OperationHandler, SandboxRequest } from '../types.js';
import type { StoredEvent } from './event-log.js';
import { requireChannel } from './lookup.js';
import { EVENT_TYPES, type EventType } from './model.js';
import { environmentFilter, integer, list, single, uuidParam, type QueryValues } from './query-params.js';
import { badRequest, notFound } from './refusals.js';
import type { ChannelsWorld } from './state.js';

const STATUS_KINDS: readonly EventType[] = ['operation.status', 'query.status', 'watcher.status', 'wallet.status'];

/** The kinds each kind-specific search filter applies to (the spec's list). */
export const FILTER_KINDS: Readonly<Record<string, readonly EventType[]>> = {
  status: STATUS_KINDS,
  address: ['operation.status', 'watcher.event', 'wallet.status'],
  wallet_operation_id: ['operation.status'],
  operation_id: ['operation.status'],
  query_id: ['query.status'],
  watcher_id: ['watcher.status', 'watcher.event'],
  wallet_id: ['wallet.status'],
  event_name: ['watcher.event'],
  service: ['watcher.event'],
};

type Test = (stored: StoredEvent) => boolean;
type Handlers = Record<'listChannelEvents' | 'searchChannelEvents' | 'getChannelEvent', OperationHandler>;

export function createEventReadHandlers(world: ChannelsWorld): Handlers {
  function eventsOf(request: SandboxRequest): readonly StoredEvent[] {
    const channel = requireChannel(world, request);
    return world.state.events.eventsOf(channel.channel.channel_id) ?? [];
  }

  return {
    listChannelEvents(request) {
      const events = eventsOf(request);
      return { status: 200, body: pageOfEvents(events, request.queryParams) };
    },

    searchChannelEvents(request) {
      const events = eventsOf(request);
      const matches = searchFilter(request.queryParams);
      return { status: 200, body: pageOfEvents(events.filter(matches), request.queryParams) };
    },

    getChannelEvent(request) {
      const channel = requireChannel(world, request);
      const stored = world.state.events.find(channel.channel.channel_id, request.pathParams.event_id ?? '');
      if (stored === undefined) throw notFound('event not found');
      return { status: 200, body: stored.event };
    },
  };
}

function pageOfEvents(events: readonly StoredEvent[], query: QueryValues) {
  const limit = query.limit as number;
  // No default: without an offset the latest events are answered.
  const offset = integer(query, 'offset');
  if (offset === undefined) {
    const latest = events.slice(Math.max(0, events.length - limit)).reverse();
    return { events: latest.map((stored) => stored.event), has_more: events.length > limit };
  }
  const from = firstAtOrAfter(events, offset);
  return { events: events.slice(from, from + limit).map((stored) => stored.event), has_more: from + limit < events.length };
}

/** Index of the first event at or after stream position `offset` (events are in position order). */
function firstAtOrAfter(events: readonly StoredEvent[], offset: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (events[middle]!.event.headers.offset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

function payloadOf(stored: StoredEvent): Record<string, unknown> {
  return stored.event.payload as unknown as Record<string, unknown>;
}

/** The search's filters as one test; throws `400` for a malformed value or a filter used with a kind it does not apply to. */
function searchFilter(query: QueryValues): Test {
  const types = list<(typeof EVENT_TYPES)[number]>(query, 'type');
  const tests: Test[] = [];
  if (types !== undefined) tests.push((stored) => types.includes(stored.type));

  for (const [name, compare] of [
    ['created.lt', (a: number, b: number) => a < b],
    ['created.lte', (a: number, b: number) => a <= b],
    ['created.gt', (a: number, b: number) => a > b],
    ['created.gte', (a: number, b: number) => a >= b],
  ] as const) {
    const bound = integer(query, name);
    if (bound !== undefined) tests.push((stored) => compare(payloadOf(stored).timestamp as number, bound));
  }
  const chains = list(query, 'chain_selector');
  if (chains !== undefined) tests.push((stored) => chains.includes(payloadOf(stored).chain_selector as string));
  const environment = environmentFilter(query);
  if (environment !== undefined) tests.push((stored) => environment(payloadOf(stored).chain_selector as string));

  const kindTests: Array<[name: string, test: Test]> = [];
  const statuses = list(query, 'status');
  if (statuses !== undefined) kindTests.push(['status', (stored) => statuses.includes(payloadOf(stored).status as string)]);
  const addresses = list(query, 'address')?.map((address) => address.toLowerCase());
  if (addresses !== undefined) {
    kindTests.push(['address', (stored) => (stored.facets.addresses ?? []).some((address) => addresses.includes(address))]);
  }
  const walletOperationId = single(query, 'wallet_operation_id');
  if (walletOperationId !== undefined) {
    const wanted = /^[0-9]+$/.test(walletOperationId) ? BigInt(walletOperationId).toString() : walletOperationId;
    kindTests.push(['wallet_operation_id', (stored) => payloadOf(stored).wallet_operation_id === wanted]);
  }
  for (const name of ['operation_id', 'watcher_id', 'wallet_id'] as const) {
    const id = uuidParam(query, name);
    if (id !== undefined) kindTests.push([name, (stored) => payloadOf(stored)[name] === id]);
  }
  if (uuidParam(query, 'query_id') !== undefined) kindTests.push(['query_id', () => true]);
  const eventName = single(query, 'event_name');
  if (eventName !== undefined) kindTests.push(['event_name', (stored) => stored.facets.eventName === eventName]);
  const services = list(query, 'service');
  if (services !== undefined) kindTests.push(['service', (stored) => stored.facets.service !== undefined && services.includes(stored.facets.service)]);

  for (const [name, test] of kindTests) {
    const kinds = FILTER_KINDS[name]!;
    const misfit = types?.find((type) => !kinds.includes(type));
    if (misfit !== undefined) throw badRequest(`query parameter ${name} does not apply to events of type ${misfit}`);
    tests.push((stored) => kinds.includes(stored.type) && test(stored));
  }
  return (stored) => tests.every((test) => test(stored));
}
