import { STATUS_KINDS } from '../../generated/operations/channels.js';
import type { openEnums } from '../../generated/types/channels.js';
import { isKnownStatus, PollFailedError, pollUntil, statusesOfKind, type PollOptions, type StatusKind, type WithOpenStatus } from '../core/poll.js';
import { expectBody } from '../core/shape.js';
import { unwrap } from '../core/unwrap.js';
import type { ChannelsClient, ChannelsComponents } from './client.js';

/**
 * Every status an operation can have, from `pending_signature` to `confirmed`,
 * `failed`, `expired` or `cancelled`, or any other string: the service may add
 * a status, so a `switch` over it needs a `default`.
 */
export type OperationStatus = openEnums['OperationStatus'];
/** The operation statuses this version of the SDK knows (the spec's enum). */
export type KnownOperationStatus = ChannelsComponents['schemas']['OperationStatus'];
/** An operation as the channels API returns it; its `status` may be one this SDK does not know. */
export type Operation = WithOpenStatus<ChannelsComponents['schemas']['Operation'], OperationStatus>;
/** The body of `POST /channels/{channel_id}/operations`. */
export type CreateOperationBody = ChannelsComponents['schemas']['CreateOperation'];

/** The stages an operation can be awaited to, in the order the chain reaches them. */
export type OperationStage = 'accepted' | 'confirmed_latest' | 'confirmed_safe' | 'confirmed';

/**
 * The kind of every known status, from the spec's `x-status-kinds`
 * (generated/operations/channels.ts): a status added to the spec without a
 * kind is a type error here.
 */
const OPERATION_STATUS_KINDS: Readonly<Record<KnownOperationStatus, StatusKind>> = STATUS_KINDS.OperationStatus;

type Kinds = typeof STATUS_KINDS.OperationStatus;
/** The statuses whose kind is `failed`, as a type. */
type OperationFailureStatus = { [S in keyof Kinds]: Kinds[S] extends 'failed' ? S : never }[keyof Kinds];

/**
 * The stage each status that is not a failure stands for. `sending`, `sent`
 * and `broadcasting` are steps between acceptance and the first confirmation;
 * a network with a single finality stage may go from `accepted` straight to
 * `confirmed`. A new status that is not `failed` must be placed here (the
 * compiler asks for it); a new `failed` one needs nothing.
 */
const STAGE_OF: Record<Exclude<KnownOperationStatus, OperationFailureStatus>, 'draft' | OperationStage> = {
  pending_signature: 'draft',
  accepted: 'accepted',
  sending: 'accepted',
  sent: 'accepted',
  broadcasting: 'accepted',
  confirmed_latest: 'confirmed_latest',
  confirmed_safe: 'confirmed_safe',
  confirmed: 'confirmed',
};

const STAGE_ORDER = ['draft', 'accepted', 'confirmed_latest', 'confirmed_safe', 'confirmed'] as const;

/** Statuses an operation never leaves without reaching its goal (the `failed` kind of the spec). */
export const OPERATION_FAILURE_STATUSES: readonly KnownOperationStatus[] = statusesOfKind(OPERATION_STATUS_KINDS, 'failed');

/** True when `status` is one this version of the SDK knows. */
export function isKnownOperationStatus(status: string): status is KnownOperationStatus {
  return isKnownStatus(OPERATION_STATUS_KINDS, status);
}

/** How far along `status` is: -1 for a failure, `undefined` for a status the SDK does not know. */
function stageRank(status: OperationStatus): number | undefined {
  if (!isKnownOperationStatus(status)) return undefined;
  if (OPERATION_STATUS_KINDS[status] === 'failed') return -1;
  return STAGE_ORDER.indexOf(STAGE_OF[status as keyof typeof STAGE_OF]);
}

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
 * waiting for `cancelled`, when it went ahead), PollTimeoutError on timeout,
 * and UnknownStatusError at once on a status this version of the SDK does not
 * know (unless `onUnknownStatus: 'wait'`).
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
      : (status: OperationStatus) => hasReachedStage(status, until);
  const isFailed =
    until === 'cancelled'
      ? (status: OperationStatus) => isKnownOperationStatus(status) && status !== 'pending_signature'
      : (status: OperationStatus) => stageRank(status) === -1;
  return pollUntil(
    {
      what: `operation ${ref.operation_id}`,
      read: (signal) => getOperation(channels, ref, signal),
      statusOf: (operation) => operation.status,
      isDone,
      isFailed,
      client: channels,
      isKnown: isKnownOperationStatus,
      failure: (what, status, operation) => new OperationFailedError(what, status, operation),
      operation: 'GET /channels/{channel_id}/operations/{operation_id}',
    },
    options,
  );
}

/**
 * True when `status` is at or past `stage`. A status this version of the SDK
 * does not know has reached no stage (false); the waits end on one with
 * UnknownStatusError instead (see `onUnknownStatus`).
 */
export function hasReachedStage(status: OperationStatus, stage: OperationStage): boolean {
  const rank = stageRank(status);
  return rank !== undefined && rank >= STAGE_ORDER.indexOf(stage);
}
