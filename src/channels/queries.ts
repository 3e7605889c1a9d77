import { STATUS_KINDS } from '../../generated/operations/channels.js';
import type { openEnums } from '../../generated/types/channels.js';
import { isKnownStatus, PollFailedError, pollUntil, type PollOptions, type StatusKind, type WithOpenStatus } from '../core/poll.js';
import { expectBody } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import type { ChannelsClient, ChannelsComponents } from './client.js';

/** A chain query as the channels API returns it. */
export type Query = WithOpenStatus<ChannelsComponents['schemas']['Query'], QueryStatus>;
/** Every status a chain query can have, or any other string: the service may add a status, so a `switch` over it needs a `default`. */
export type QueryStatus = openEnums['QueryStatus'];
/** The query statuses this version of the SDK knows (the spec's enum). */
export type KnownQueryStatus = ChannelsComponents['schemas']['QueryStatus'];

/** The kind of every known status, from the spec's `x-status-kinds`: a status added to the spec without a kind is a type error here. */
const QUERY_STATUS_KINDS: Readonly<Record<KnownQueryStatus, StatusKind>> = STATUS_KINDS.QueryStatus;

/** True when `status` is one this version of the SDK knows. */
export function isKnownQueryStatus(status: string): status is KnownQueryStatus {
  return isKnownStatus(QUERY_STATUS_KINDS, status);
}
/** The body of `POST /channels/{channel_id}/queries`. */
export type CreateQueryBody = ChannelsComponents['schemas']['CreateQuery'];
type QueryAccepted = ChannelsComponents['schemas']['QueryAcceptedResponse'];

/**
 * Creates a chain query (answered `202` in `accepted`). `idempotency_key` is
 * the service's deduplication key: when the caller gives none, a UUID v4 is
 * generated here, once, so the SDK's retries of this POST all carry the same
 * key and the service runs the query once. Resolves with the query id and the
 * key used (keep it to retry the creation yourself later).
 */
export async function createQuery(
  channels: ChannelsClient,
  channelId: string,
  body: Omit<CreateQueryBody, 'idempotency_key'> & { idempotency_key?: string },
  signal?: AbortSignal,
) {
  const withKey: CreateQueryBody = { ...body, idempotency_key: body.idempotency_key ?? crypto.randomUUID() };
  const accepted = expectBody<QueryAccepted>(
    await unwrap(channels.POST('/channels/{channel_id}/queries', { params: { path: { channel_id: channelId } }, body: withKey, signal })),
    'POST /channels/{channel_id}/queries',
    'an accepted query',
    (body) => typeof body.query_id === 'string',
  );
  return { ...accepted, idempotency_key: withKey.idempotency_key };
}

/** Reads one chain query. Throws `ApiError` on an error answer. */
export function getQuery(
  channels: ChannelsClient,
  ref: { channel_id: string; query_id: string },
  signal?: AbortSignal,
): Promise<Query> {
  return unwrap(channels.GET('/channels/{channel_id}/queries/{query_id}', { params: { path: ref }, signal }));
}

/** A query ended `failed` or `expired`: `resource` is the query. */
export class QueryFailedError extends PollFailedError<Query, QueryStatus> {
  override name = 'QueryFailedError';
}

/**
 * Polls a query until `completed`. Throws QueryFailedError (a PollFailedError) when it ends
 * `failed` or `expired` (no result before the service's time-to-live), and
 * UnknownStatusError at once on a status this version of the SDK does not know
 * (unless `onUnknownStatus: 'wait'`).
 */
export function waitForQuery(
  channels: ChannelsClient,
  ref: { channel_id: string; query_id: string },
  options: PollOptions<QueryStatus> = {},
): Promise<Query> {
  return pollUntil(
    {
      what: `query ${ref.query_id}`,
      read: (signal) => getQuery(channels, ref, signal),
      statusOf: (query) => query.status,
      isDone: (status) => isKnownQueryStatus(status) && QUERY_STATUS_KINDS[status] === 'succeeded',
      isFailed: (status) => isKnownQueryStatus(status) && QUERY_STATUS_KINDS[status] === 'failed',
      client: channels,
      isKnown: isKnownQueryStatus,
      failure: (what, status, query) => new QueryFailedError(what, status, query),
      operation: 'GET /channels/{channel_id}/queries/{query_id}',
    },
    options,
  );
}
