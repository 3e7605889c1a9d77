/**
 * Operations of a channel. With `signature` an operation is executed: it
 * starts `accepted` and moves on by itself (`operation-lifecycle.ts`).
 * Without, it is a draft in `pending_signature`, finalized
 * (`{status: accepted, signature, digest}`) or cancelled
 * (`{status: cancelled}`) with `PATCH`, under the spec's guards:
 *
 * - finalize: `409 OPERATION_NOT_FINALIZABLE` unless the operation is a
 *   draft; `409 OPERATION_DEADLINE_ELAPSED` when it is a draft whose deadline
 *   has passed (a draft that expired at its deadline is such a draft);
 * - cancel: `409 OPERATION_NOT_CANCELLABLE` unless it is `pending_signature`.
 *
 * `wallet_operation_id` (leading zeros normalised) is the deduplication key
 * of the wallet: the same body again answers the same operation as it is now
 * (`201`); another body with the same key is `409 IDEMPOTENCY_KEY_MISMATCH`.
 * The wallet is the one at `address` on `chain_selector`
 * (`404 WALLET_NOT_FOUND` otherwise); an archived wallet takes no operations
 * (`409 WALLET_ALREADY_ARCHIVED`). Signatures are not verified.
 */
import type { OperationHandler } from '../types.js';
import { executionValues } from './calldata.js';
import { requireActive } from './channels.js';
import { fingerprint } from './fingerprint.js';
import { hashOf } from './hex.js';
import { requireChannel, requireOperation } from './lookup.js';
import {
  OPERATION_STATUSES,
  seconds,
  SUBJECT_TYPES,
  type CreateOperation,
  type Operation,
  type PatchOperation,
  type Subject,
  type Transaction,
} from './model.js';
import { createOperationLifecycle, deadlineElapsed } from './operation-lifecycle.js';
import { chainSelectorParam, environmentFilter, list, pageItems, pageOf, single, uuidParam } from './query-params.js';
import { badRequest, conflict, notFound } from './refusals.js';
import type { ChannelsWorld, StoredOperation } from './state.js';
import { callOutcome } from './triggers.js';
import { findWalletByAddress } from './wallets.js';

const UINT256_LIMIT = 1n << 256n;

type Handlers = Record<'createOperation' | 'listOperations' | 'getOperation' | 'finalizeOrCancelOperation', OperationHandler>;

export function createOperationHandlers(world: ChannelsWorld): Handlers {
  const { state } = world;
  const lifecycle = createOperationLifecycle(world);

  return {
    createOperation(request) {
      const channel = requireChannel(world, request);
      requireActive(channel);
      const body = request.body as CreateOperation;
      const walletOperationId = BigInt(body.wallet_operation_id);
      if (walletOperationId >= UINT256_LIMIT) throw badRequest('body.wallet_operation_id: expected an integer within the uint256 range');
      const normalised = { ...body, wallet_operation_id: walletOperationId.toString(), address: body.address.toLowerCase() };
      const key = `${body.chain_selector}|${normalised.address}|${normalised.wallet_operation_id}`;
      const requestPrint = fingerprint({ channel_id: channel.channel.channel_id, body: normalised });

      const knownId = state.operationKeys.get(key);
      if (knownId !== undefined) {
        const known = state.operations.get(knownId)!;
        if (known.fingerprint !== requestPrint) {
          throw conflict('idempotency key was already used with a different request', 'IDEMPOTENCY_KEY_MISMATCH');
        }
        return { status: 201, body: known.operation };
      }

      const wallet = findWalletByAddress(world, body.chain_selector, body.address);
      if (wallet === undefined) throw notFound(`no wallet at ${body.address} on chain ${body.chain_selector}`, 'WALLET_NOT_FOUND');
      if (wallet.wallet.status === 'archived') throw conflict('wallet is archived and accepts no operations', 'WALLET_ALREADY_ARCHIVED');

      const now = world.clock.now();
      const signed = body.signature !== undefined;
      const operation: Operation = {
        operation_id: world.newId(),
        status: signed ? 'accepted' : 'pending_signature',
        chain_selector: body.chain_selector,
        address: wallet.wallet.address,
        wallet_operation_id: normalised.wallet_operation_id,
        deadline: body.deadline,
        transactions: body.transactions.map(
          (transaction): Transaction => ({
            to: transaction.to,
            value: transaction.value,
            data: transaction.data,
            ...(transaction.preview === undefined
              ? {}
              : {
                  preview_snapshot: {
                    function_signature: transaction.preview.function_signature,
                    execution_values: executionValues(transaction.preview.function_signature, transaction.data),
                    ...(transaction.preview.metadata === undefined ? {} : { metadata: transaction.preview.metadata }),
                  },
                }),
          }),
        ),
        signature: body.signature ?? null,
        digest: signed ? hashOf('digest', fingerprint({ ...normalised, signature: undefined })) : null,
        initiator: world.apiKeySubject,
        signer: signed ? world.apiKeySubject : null,
        canceller: null,
        ...(signed ? { signed_at: seconds(now) } : {}),
        created_at: seconds(now),
        updated_at: seconds(now),
      };
      const stored: StoredOperation = {
        operation,
        channelId: channel.channel.channel_id,
        walletId: wallet.wallet.wallet_id,
        fingerprint: requestPrint,
        outcome: callOutcome(body.transactions.map((transaction) => transaction.to)),
      };
      state.operations.set(operation.operation_id, stored);
      state.operationKeys.set(key, operation.operation_id);
      channel.operationIds.push(operation.operation_id);
      lifecycle.enter(stored, operation.status, now);
      lifecycle.watchDeadline(stored);
      if (signed) lifecycle.relay(stored, now);
      return { status: 201, body: operation };
    },

    listOperations(request) {
      const channel = requireChannel(world, request);
      const query = request.queryParams;
      const page = pageOf(query);
      const statuses = list<(typeof OPERATION_STATUSES)[number]>(query, 'status');
      const chain = chainSelectorParam(query);
      const environment = environmentFilter(query);
      const address = single(query, 'address')?.toLowerCase();
      const walletId = uuidParam(query, 'wallet_id');
      const actors = (['initiator', 'signer', 'canceller'] as const).map((role) => ({
        role,
        type: single<(typeof SUBJECT_TYPES)[number]>(query, `${role}_subject_type`),
        id: single(query, `${role}_subject_id`),
      }));
      const operations = channel.operationIds
        .map((id) => state.operations.get(id)!)
        .filter(
          (stored) =>
            (statuses === undefined || statuses.includes(stored.operation.status)) &&
            (chain === undefined || stored.operation.chain_selector === chain) &&
            (environment === undefined || environment(stored.operation.chain_selector)) &&
            (address === undefined || stored.operation.address.toLowerCase() === address) &&
            (walletId === undefined || stored.walletId === walletId) &&
            actors.every(({ role, type, id }) => actorMatches(stored.operation[role], type, id)),
        )
        .map((stored) => stored.operation);
      return { status: 200, body: pageItems(operations, page) };
    },

    getOperation(request) {
      return { status: 200, body: requireOperation(world, request).operation };
    },

    finalizeOrCancelOperation(request) {
      const stored = requireOperation(world, request);
      const body = request.body as PatchOperation;
      const { operation } = stored;
      const now = world.clock.now();
      if (body.status === 'cancelled') {
        if (operation.status !== 'pending_signature') {
          throw conflict(`operation is ${operation.status}, not pending a signature, and cannot be cancelled`, 'OPERATION_NOT_CANCELLABLE');
        }
        operation.canceller = world.apiKeySubject;
        operation.cancelled_at = seconds(now);
        lifecycle.enter(stored, 'cancelled', now, 'cancelled by the organization');
        return { status: 200, body: operation };
      }
      const isDraft = operation.signature === null && (operation.status === 'pending_signature' || operation.status === 'expired');
      if (!isDraft) {
        throw conflict(`operation is ${operation.status}, not pending a signature, and cannot be finalized`, 'OPERATION_NOT_FINALIZABLE');
      }
      if (deadlineElapsed(operation.deadline, now)) throw conflict('operation deadline has elapsed', 'OPERATION_DEADLINE_ELAPSED');
      operation.signature = body.signature;
      operation.digest = body.digest;
      operation.signer = world.apiKeySubject;
      operation.signed_at = seconds(now);
      lifecycle.enter(stored, 'accepted', now);
      lifecycle.relay(stored, now);
      return { status: 200, body: operation };
    },
  };
}

function actorMatches(actor: Subject | null | undefined, type: string | undefined, id: string | undefined): boolean {
  if (type === undefined && id === undefined) return true;
  if (actor === null || actor === undefined) return false;
  return (type === undefined || actor.subject_type === type) && (id === undefined || actor.subject_id === id);
}
