/**
 * Channels: created `active`, names unique in the organisation
 * (`409 CHANNEL_ALREADY_EXISTS`), renamed and archived with `PATCH`. A
 * channel whose watchers are not all archived (or failed) cannot be archived
 * (`409` with no code, as the service answers); archiving an archived channel
 * changes nothing. Archived channels stay readable and take no new watchers,
 * operations or queries (`400`).
 */
import type { OperationHandler } from '../types.js';
import { requireChannel } from './lookup.js';
import { seconds, type Channel, type CreateChannel, type PatchChannel, type WatcherStatus } from './model.js';
import { list, nameFilter, pageItems, pageOf } from './query-params.js';
import { badRequest, conflict } from './refusals.js';
import { storeChannel, type ChannelsWorld, type StoredChannel } from './state.js';

/** Watchers in these statuses are still deployed (or about to be), so their channel cannot be archived. */
const BLOCKING_WATCHER_STATUSES: readonly WatcherStatus[] = ['pending', 'active', 'archiving', 'archive_failed'];

type Handlers = Record<'createChannel' | 'listChannels' | 'getChannel' | 'updateChannel', OperationHandler>;

export function createChannelHandlers(world: ChannelsWorld): Handlers {
  const { state } = world;

  function nameTaken(name: string, except?: string): boolean {
    for (const stored of state.channels.values()) if (stored.channel.name === name && stored.channel.channel_id !== except) return true;
    return false;
  }

  return {
    createChannel(request) {
      const body = request.body as CreateChannel;
      if (nameTaken(body.name)) throw conflict(`a channel named '${body.name}' already exists in this organization`, 'CHANNEL_ALREADY_EXISTS');
      const channel: Channel = {
        channel_id: world.newId(),
        name: body.name,
        ...(body.description ? { description: body.description } : {}),
        status: 'active',
        created_at: seconds(world.clock.now()),
      };
      storeChannel(state, channel);
      return { status: 201, body: channel };
    },

    listChannels(request) {
      const query = request.queryParams;
      const page = pageOf(query);
      const named = nameFilter(query);
      const statuses = list<'active' | 'archived'>(query, 'status') ?? ['active'];
      const channels = [...state.channels.values()]
        .map((stored) => stored.channel)
        .filter((channel) => statuses.includes(channel.status) && (named === undefined || named(channel.name)));
      return { status: 200, body: pageItems(channels, page) };
    },

    getChannel(request) {
      return { status: 200, body: requireChannel(world, request).channel };
    },

    updateChannel(request) {
      const stored = requireChannel(world, request);
      const body = request.body as PatchChannel;
      const { channel } = stored;
      if (body.name !== undefined && nameTaken(body.name, channel.channel_id)) {
        throw conflict(`a channel named '${body.name}' already exists in this organization`, 'CHANNEL_ALREADY_EXISTS');
      }
      if (body.status === 'archived' && channel.status !== 'archived' && hasDeployedWatchers(world, stored)) {
        throw conflict('channel cannot be archived while it has active watchers');
      }
      if (body.name !== undefined) channel.name = body.name;
      if (body.description !== undefined) {
        if (body.description === '') delete channel.description;
        else channel.description = body.description;
      }
      if (body.status === 'archived') channel.status = 'archived';
      return { status: 200, body: channel };
    },
  };
}

function hasDeployedWatchers(world: ChannelsWorld, stored: StoredChannel): boolean {
  return stored.watcherIds.some((id) => BLOCKING_WATCHER_STATUSES.includes(world.state.watchers.get(id)!.status));
}

/** New watchers, operations and queries go to active channels only. */
export function requireActive(stored: StoredChannel): void {
  if (stored.channel.status === 'archived') throw badRequest(`channel ${stored.channel.channel_id} is archived and takes no new resources`);
}
