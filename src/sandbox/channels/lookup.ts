/**
 * Finding a resource named by a path parameter, or refusing with the spec's
 * `404` and code. A malformed identifier never gets here: the request check
 * refuses it first (as the lookup's `404`, since the lookups document no `400`).
 */
import type { SandboxRequest } from '../types.js';
import { notFound } from './refusals.js';
import type { ChannelsWorld, StoredChannel, StoredOperation, StoredQuery, StoredWallet } from './state.js';
import type { Watcher } from './model.js';

function idOf(request: SandboxRequest, name: string): string {
  return (request.pathParams[name] ?? '').toLowerCase();
}

export function requireChannel(world: ChannelsWorld, request: SandboxRequest): StoredChannel {
  const id = idOf(request, 'channel_id');
  const channel = world.state.channels.get(id);
  if (channel === undefined) throw notFound(`channel ${id} not found`, 'CHANNEL_NOT_FOUND');
  return channel;
}

export function requireWallet(world: ChannelsWorld, request: SandboxRequest): StoredWallet {
  const id = idOf(request, 'wallet_id');
  const wallet = world.state.wallets.get(id);
  if (wallet === undefined) throw notFound(`wallet ${id} not found`, 'WALLET_NOT_FOUND');
  return wallet;
}

/** A watcher of the channel (a watcher of another channel is not found here). */
export function requireWatcher(world: ChannelsWorld, request: SandboxRequest): Watcher {
  const channel = requireChannel(world, request);
  const id = idOf(request, 'watcher_id');
  const watcher = world.state.watchers.get(id);
  if (watcher === undefined || watcher.channel_id !== channel.channel.channel_id) {
    throw notFound(`watcher ${id} not found`, 'WATCHER_NOT_FOUND');
  }
  return watcher;
}

export function requireOperation(world: ChannelsWorld, request: SandboxRequest): StoredOperation {
  const channel = requireChannel(world, request);
  const id = idOf(request, 'operation_id');
  const operation = world.state.operations.get(id);
  if (operation === undefined || operation.channelId !== channel.channel.channel_id) {
    throw notFound(`operation ${id} not found`, 'OPERATION_NOT_FOUND');
  }
  return operation;
}

export function requireQuery(world: ChannelsWorld, request: SandboxRequest): StoredQuery {
  const channel = requireChannel(world, request);
  const id = idOf(request, 'query_id');
  const query = world.state.queries.get(id);
  if (query === undefined || query.query.channel_id !== channel.channel.channel_id) {
    throw notFound(`query ${id} not found`, 'QUERY_NOT_FOUND');
  }
  return query;
}
