import { PollFailedError, pollUntil, type PollOptions } from '../core/poll.js';
import { expectBody } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import type { ChannelsClient, ChannelsComponents } from './client.js';

/** An operation as the channels API returns it. */
export type Operation = ChannelsComponents['schemas']['Operation'];
/** Every status an operation can have, from `pending_signature` to `confirmed`, `failed`, `expired` or `cancelled`. */
export type OperationStatus = ChannelsComponents['schemas']['OperationStatus'];
/** The body of `POST /channels/{channel_id}/operations`. */
export type CreateOperationBody = ChannelsComponents['schemas']['CreateOperation'];

/** The stages an operation can be awaited to, in the order the chain reaches them. */
export type OperationStage = 'accepted' | 'confirmed_latest' | 'confirmed_safe' | 'confirmed';

/**
 * How far along each status is. `sending`, `sent` and `broadcasting` are
 * steps between acceptance and the first confirmation; a network with a
 * single finality stage may go from `accepted` straight to `confirmed`.
 */
const STAGE_RANK: Record<OperationStatus, number> = {
  pending_signature: 0,
  accepted: 1,
  sending: 1,
  sent: 1,
  broadcasting: 1,
  confirmed_latest: 2,
  confirmed_safe: 3,
  confirmed: 4,
  cancelled: -1,
  expired: -1,
  failed: -1,
};

/** Statuses an operation never leaves without reaching its goal. */
export const OPERATION_FAILURE_STATUSES: readonly OperationStatus[] = ['cancelled', 'expired', 'failed'];

/** Names one operation: its channel and its ID. */
export interface OperationRef {
  channel_id: string;
  operation_id: string;
}

/** Reads one operation. Throws `ApiError` on an error answer. */
export function getOperation(channels: ChannelsClient, ref: OperationRef, signal?: AbortSignal): Promise<Operation> {
  return unwrap(channels.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: ref }, signal }));
}

/**
 * Creates an operation. With `signature` it is executed at once (`accepted`);
 * without, it is a draft in `pending_signature`. `wallet_operation_id` is the
 * service's deduplication key, so the SDK may retry this POST safely. When the
 * service answers only a reference, the operation is read back.
 */
export async function createOperation(
  channels: ChannelsClient,
  channelId: string,
  body: CreateOperationBody,
  signal?: AbortSignal,
): Promise<Operation> {
  const created = expectBody<Operation | { operation_id: string }>(
    await unwrap(channels.POST('/channels/{channel_id}/operations', { params: { path: { channel_id: channelId } }, body, signal })),
    'POST /channels/{channel_id}/operations',
    'an operation or an operation reference',
    (value) => typeof value.operation_id === 'string' && value.operation_id !== '' && (!('status' in value) || typeof value.status === 'string'),
  );
  if ('status' in created) return created;
  return getOperation(channels, { channel_id: channelId, operation_id: created.operation_id }, signal);
}

/**
 * Finalizes a draft: PATCH `{status: 'accepted', signature, digest}`. A draft
 * past its deadline or no longer finalizable is refused with a typed
 * ApiError (`CONFLICT` / `OPERATION_DEADLINE_ELAPSED` or
 * `OPERATION_NOT_FINALIZABLE`; see `isChannelsError`).
 */
export function finalizeOperation(
  channels: ChannelsClient,
  ref: OperationRef,
  signed: { signature: string; digest: string },
  signal?: AbortSignal,
): Promise<Operation> {
  return unwrap(
    channels.PATCH('/channels/{channel_id}/operations/{operation_id}', {
      params: { path: ref },
      body: { status: 'accepted', signature: signed.signature, digest: signed.digest },
      signal,
    }),
  );
}

/** Cancels a draft; refused with `CONFLICT` / `OPERATION_NOT_CANCELLABLE` once it is past `pending_signature`. */
export function cancelOperation(channels: ChannelsClient, ref: OperationRef, signal?: AbortSignal): Promise<Operation> {
  return unwrap(
    channels.PATCH('/channels/{channel_id}/operations/{operation_id}', {
      params: { path: ref },
      body: { status: 'cancelled' },
      signal,
    }),
  );
}

/**
 * An operation ended `cancelled`, `expired` or `failed` (or, waiting for
 * `cancelled`, went ahead instead): `resource` is the operation. The
 * operation carries no reason; its `operation.status` event does
 * (`waitForOperationEvent` puts it in `reason`).
 */
export class OperationFailedError extends PollFailedError<Operation, OperationStatus> {
  override name = 'OperationFailedError';
}

/** Options of `waitForOperation`: the poll options, and the stage to wait for. */
export interface WaitForOperationOptions extends PollOptions<OperationStatus> {
  /** The stage to wait for, or `cancelled`. Default `confirmed`. */
  until?: OperationStage | 'cancelled';
}

/**
 * Polls an operation until it reaches `until` (or a later stage). Throws
 * OperationFailedError (a PollFailedError) when it ends `cancelled`, `expired` or `failed` instead (or,
 * waiting for `cancelled`, when it went ahead), PollTimeoutError on timeout.
 */
export function waitForOperation(
  channels: ChannelsClient,
  ref: OperationRef,
  options: WaitForOperationOptions = {},
): Promise<Operation> {
  const until = options.until ?? 'confirmed';
  const isDone =
    until === 'cancelled'
      ? (status: OperationStatus) => status === 'cancelled'
      : (status: OperationStatus) => STAGE_RANK[status] >= STAGE_RANK[until];
  const isFailed =
    until === 'cancelled'
      ? (status: OperationStatus) => status !== 'pending_signature'
      : (status: OperationStatus) => STAGE_RANK[status] < 0;
  return pollUntil(
    {
      what: `operation ${ref.operation_id}`,
      read: (signal) => getOperation(channels, ref, signal),
      statusOf: (operation) => operation.status,
      isDone,
      isFailed,
      failure: (what, status, operation) => new OperationFailedError(what, status, operation),
      operation: 'GET /channels/{channel_id}/operations/{operation_id}',
    },
    options,
  );
}

/** True when `status` is at or past `stage`. */
export function hasReachedStage(status: OperationStatus, stage: OperationStage): boolean {
  return STAGE_RANK[status] >= STAGE_RANK[stage];
}
