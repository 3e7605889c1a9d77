/**
 * Watchers of a channel, defined by a service namespace or by an ABI (never
 * both), names unique in the channel (`409 WATCHER_ALREADY_EXISTS`). A new
 * watcher is `pending`, then `active` (or `failed`, asked for by a
 * `fail-deploy…` name). `PATCH {"status": "archived"}` answers `202` with the
 * watcher `archiving`; it then ends `archived`, or `archive_failed` when its
 * name starts with `fail-archive` as the archive begins. An archive may be
 * retried from `archive_failed`; asking again while `archiving` answers the
 * same `202`, and an `archived` watcher is answered as it is (`200`). Each
 * status a watcher enters is a `watcher.status` event on its channel.
 */
import type { OperationHandler } from '../types.js';
import { requireActive } from './channels.js';
import { hashOf } from './hex.js';
import { requireChannel, requireWatcher } from './lookup.js';
import { seconds, WATCHER_STATUSES, type CreateWatcher, type UpdateWatcher, type Watcher, type WatcherStatus } from './model.js';
import { findNetwork } from './networks.js';
import { chainSelectorParam, environmentFilter, list, nameFilter, pageItems, pageOf, single } from './query-params.js';
import { badRequest, conflict } from './refusals.js';
import type { ChannelsWorld, StoredChannel } from './state.js';
import { asksArchiveFailure, asksDeployFailure } from './triggers.js';

/** The DON family every sandbox watcher runs on. */
const DON_FAMILY = 'sandbox';

type Handlers = Record<'createWatcher' | 'listWatchers' | 'getWatcher' | 'updateWatcher', OperationHandler>;

export function createWatcherHandlers(world: ChannelsWorld): Handlers {
  const { state, timings } = world;

  function nameTaken(channel: StoredChannel, name: string, except?: string): boolean {
    return channel.watcherIds.some((id) => id !== except && state.watchers.get(id)!.name === name);
  }

  function moveTo(watcher: Watcher, status: WatcherStatus, time: number, reason = ''): void {
    watcher.status = status;
    state.events.append(
      watcher.channel_id,
      'watcher.status',
      {
        status,
        status_reason: reason,
        watcher_id: watcher.watcher_id,
        chain_selector: watcher.chain_selector,
        timestamp: seconds(time),
        ...(watcher.service === undefined ? {} : { service: watcher.service }),
        ...(watcher.workflow_id === undefined ? {} : { workflow_id: watcher.workflow_id }),
      },
    );
  }

  function startArchive(watcher: Watcher, now: number): void {
    const fails = asksArchiveFailure(watcher.name);
    moveTo(watcher, 'archiving', now);
    world.at(now + timings.watcherArchived, (time) => {
      if (watcher.status !== 'archiving') return;
      if (fails) moveTo(watcher, 'archive_failed', time, 'the watcher workflow could not be deprovisioned');
      else moveTo(watcher, 'archived', time);
    });
  }

  return {
    createWatcher(request) {
      const channel = requireChannel(world, request);
      requireActive(channel);
      const body = request.body as CreateWatcher;
      if (findNetwork(body.chain_selector) === undefined) throw badRequest(`chain_selector: ${body.chain_selector} is not a supported network`);
      if ('abi' in body && body.abi !== undefined) {
        const described = new Set(body.abi.map((fragment) => fragment.name));
        const missing = body.events.find((name) => !described.has(name));
        if (missing !== undefined) throw badRequest(`events: '${missing}' is not described in abi`);
      }
      if (nameTaken(channel, body.name)) throw conflict(`a watcher named '${body.name}' already exists in this channel`, 'WATCHER_ALREADY_EXISTS');
      const now = world.clock.now();
      const watcherId = world.newId();
      const watcher: Watcher = {
        watcher_id: watcherId,
        name: body.name,
        channel_id: channel.channel.channel_id,
        created_at: seconds(now),
        status: 'pending',
        chain_selector: body.chain_selector,
        address: body.address,
        events: [...body.events],
        don_family: DON_FAMILY,
        workflow_id: hashOf('watcher-workflow', watcherId),
        ...('abi' in body && body.abi !== undefined
          ? { abi: body.abi }
          : { service: (body as { service: string }).service, service_config: (body as { service_config?: Record<string, unknown> }).service_config ?? {} }),
      };
      state.watchers.set(watcherId, watcher);
      channel.watcherIds.push(watcherId);
      moveTo(watcher, 'pending', now);
      const failsDeploy = asksDeployFailure(body.name);
      world.at(now + timings.watcherActive, (time) => {
        if (watcher.status !== 'pending') return;
        if (failsDeploy) moveTo(watcher, 'failed', time, 'the watcher workflow could not be deployed');
        else moveTo(watcher, 'active', time);
      });
      return { status: 201, body: watcher };
    },

    listWatchers(request) {
      const channel = requireChannel(world, request);
      const query = request.queryParams;
      const page = pageOf(query);
      const named = nameFilter(query);
      const statuses = list<(typeof WATCHER_STATUSES)[number]>(query, 'status');
      const chain = chainSelectorParam(query);
      const environment = environmentFilter(query);
      const address = single(query, 'address')?.toLowerCase();
      const services = list(query, 'service');
      const eventName = single(query, 'event_name');
      const watchers = channel.watcherIds
        .map((id) => state.watchers.get(id)!)
        .filter(
          (watcher) =>
            (statuses === undefined ? watcher.status !== 'archived' : statuses.includes(watcher.status)) &&
            (named === undefined || named(watcher.name)) &&
            (chain === undefined || watcher.chain_selector === chain) &&
            (environment === undefined || environment(watcher.chain_selector)) &&
            (address === undefined || watcher.address.toLowerCase() === address) &&
            (services === undefined || (watcher.service !== undefined && services.includes(watcher.service))) &&
            (eventName === undefined || watcher.events.includes(eventName)),
        )
        .map(summaryOf);
      return { status: 200, body: pageItems(watchers, page) };
    },

    getWatcher(request) {
      return { status: 200, body: requireWatcher(world, request) };
    },

    updateWatcher(request) {
      const watcher = requireWatcher(world, request);
      const body = request.body as UpdateWatcher;
      const channel = state.channels.get(watcher.channel_id)!;
      if (body.name !== undefined && nameTaken(channel, body.name, watcher.watcher_id)) {
        throw conflict(`a watcher named '${body.name}' already exists in this channel`, 'WATCHER_ALREADY_EXISTS');
      }
      if (body.name !== undefined) watcher.name = body.name;
      if (body.status !== 'archived' || watcher.status === 'archived') return { status: 200, body: watcher };
      if (watcher.status !== 'archiving') startArchive(watcher, world.clock.now());
      return { status: 202, body: watcher };
    },
  };
}

/** A watcher as lists show it (`WatcherSummary`: without its events, ABI and settings). */
function summaryOf({ events: _events, abi: _abi, service_config: _config, ...summary }: Watcher) {
  return summary;
}
