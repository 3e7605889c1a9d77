/**
 * Chain queries of a channel: created `202` `accepted` and run
 * asynchronously (`query-lifecycle.ts`). `idempotency_key` deduplicates per
 * channel: the same body again answers `202` with the same `query_id` and
 * its current status; another body is `409 IDEMPOTENCY_KEY_MISMATCH`.
 * Archived channels take no new queries (`400`).
 */
import type { OperationHandler } from '../types.js';
import { requireActive } from './channels.js';
import { fingerprint } from './fingerprint.js';
import { WORKFLOW_IDS } from './hex.js';
import { requireChannel, requireQuery } from './lookup.js';
import { QUERY_KINDS, QUERY_STATUSES, seconds, type CreateQuery, type Query } from './model.js';
import { findNetwork } from './networks.js';
import { scheduleQuery } from './query-lifecycle.js';
import { chainSelectorParam, environmentFilter, list, pageItems, pageOf } from './query-params.js';
import { badRequest, conflict } from './refusals.js';
import type { ChannelsWorld, StoredQuery } from './state.js';
import { callOutcome } from './triggers.js';

type Handlers = Record<'createQuery' | 'listQueries' | 'getQuery', OperationHandler>;

export function createQueryHandlers(world: ChannelsWorld): Handlers {
  const { state } = world;

  return {
    createQuery(request) {
      const channel = requireChannel(world, request);
      requireActive(channel);
      const body = request.body as CreateQuery;
      if (findNetwork(body.chain_selector) === undefined) throw badRequest(`chain_selector: ${body.chain_selector} is not a supported network`);
      const key = `${channel.channel.channel_id}|${body.idempotency_key}`;
      const requestPrint = fingerprint(body);
      const knownId = state.queryKeys.get(key);
      if (knownId !== undefined) {
        const known = state.queries.get(knownId)!;
        if (known.fingerprint !== requestPrint) {
          throw conflict('idempotency key was already used with a different request', 'IDEMPOTENCY_KEY_MISMATCH');
        }
        return { status: 202, body: { query_id: known.query.query_id, status: known.query.status } };
      }

      const now = world.clock.now();
      const query: Query = {
        query_id: world.newId(),
        channel_id: channel.channel.channel_id,
        status: 'accepted',
        query_kind: body.query_kind,
        chain_selector: body.chain_selector,
        target: body.params.contract_address,
        created_at: seconds(now),
        updated_at: seconds(now),
        expires_at: Math.ceil((now + world.timings.queryTimeToLive) / 1000),
        accepted_at: seconds(now),
        workflow_id: WORKFLOW_IDS.query,
      };
      const selection = body.params.block_selection;
      const stored: StoredQuery = {
        query,
        fingerprint: requestPrint,
        outcome: callOutcome([body.params.contract_address]),
        callData: body.params.call_data.toLowerCase(),
        block: selection.type === 'block_number' ? selection.block_number : selection.type,
      };
      state.queries.set(query.query_id, stored);
      state.queryKeys.set(key, query.query_id);
      channel.queryIds.push(query.query_id);
      scheduleQuery(world, stored, now);
      return { status: 202, body: { query_id: query.query_id, status: query.status } };
    },

    listQueries(request) {
      const channel = requireChannel(world, request);
      const query = request.queryParams;
      const page = pageOf(query);
      const statuses = list<(typeof QUERY_STATUSES)[number]>(query, 'status');
      const kinds = list<(typeof QUERY_KINDS)[number]>(query, 'query_kind');
      const chain = chainSelectorParam(query);
      const environment = environmentFilter(query);
      const queries = channel.queryIds
        .map((id) => state.queries.get(id)!.query)
        .filter(
          (item) =>
            (statuses === undefined || statuses.includes(item.status)) &&
            (kinds === undefined || kinds.includes(item.query_kind)) &&
            (chain === undefined || item.chain_selector === chain) &&
            (environment === undefined || environment(item.chain_selector)),
        );
      return { status: 200, body: pageItems(queries, page) };
    },

    getQuery(request) {
      return { status: 200, body: requireQuery(world, request).query };
    },
  };
}
