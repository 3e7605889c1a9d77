/**
 * How an operation moves on once it is signed, each step a scheduled change
 * at its own sandbox time and an `operation.status` event:
 *
 *     accepted → sending → sent → broadcasting → confirmed_latest → confirmed_safe → confirmed
 *
 * On a network with one finality stage, `broadcasting` → `confirmed`. A call
 * to `FAILING_ADDRESS` ends `failed` after `broadcasting`; a call to
 * `SILENT_ADDRESS` stays `broadcasting`. An operation from a wallet whose
 * deployment failed ends `failed` instead of `sending`. Whatever has not
 * reached its first confirmation when its `deadline` (Unix seconds, `0` =
 * none) passes becomes `expired`, drafts included.
 */
import { publishContractEvents } from './contract-events.js';
import { base64Json, hashOf, ocrProof, randomHex, WORKFLOW_IDS } from './hex.js';
import { seconds, type OperationStatus } from './model.js';
import { findNetwork } from './networks.js';
import type { ChannelsWorld, StoredOperation } from './state.js';

/** Statuses before the first confirmation: the ones a passing deadline ends. */
const NOT_YET_ONCHAIN: readonly OperationStatus[] = ['pending_signature', 'accepted', 'sending', 'sent', 'broadcasting'];

export interface OperationLifecycle {
  /** Sets the status at `time` and publishes it. */
  enter(stored: StoredOperation, status: OperationStatus, time: number, reason?: string): void;
  /** Schedules the relay of an operation accepted at `time`. */
  relay(stored: StoredOperation, time: number): void;
  /** Schedules the end of an operation whose deadline passes first. */
  watchDeadline(stored: StoredOperation): void;
}

/** True once `time` (ms) is past the deadline (Unix seconds; `0` is none). */
export function deadlineElapsed(deadline: number, time: number): boolean {
  return deadline > 0 && time > deadline * 1000;
}

export function createOperationLifecycle(world: ChannelsWorld): OperationLifecycle {
  const { timings } = world;

  function enter(stored: StoredOperation, status: OperationStatus, time: number, reason = ''): void {
    const { operation } = stored;
    operation.status = status;
    operation.updated_at = seconds(time);
    const confirmed = status === 'confirmed';
    if (confirmed) operation.confirmed_at = seconds(time);
    const eventHash = hashOf('operation-event', operation.operation_id, status);
    world.state.events.append(
      stored.channelId,
      'operation.status',
      {
        status,
        status_reason: reason,
        operation_id: operation.operation_id,
        wallet_operation_id: operation.wallet_operation_id,
        address: operation.address,
        digest: operation.digest ?? null,
        transactions: operation.transactions.map(({ to, value, data }) => ({ to, value, data })),
        chain_selector: operation.chain_selector,
        timestamp: seconds(time),
        ...(confirmed
          ? {
              event_hash: eventHash,
              verifiable_event: base64Json({ operation_id: operation.operation_id, status, tx_hash: hashOf('tx', operation.operation_id) }),
            }
          : {}),
        ...workflowFields(stored),
      },
      { addresses: [operation.address.toLowerCase()] },
      confirmed ? [ocrProof(eventHash)] : [],
    );
  }

  /** Runs `step` at `time` if the operation is still in `from`. */
  function step(stored: StoredOperation, from: OperationStatus, time: number, change: (time: number) => void): void {
    world.at(time, (at) => {
      if (stored.operation.status === from) change(at);
    });
  }

  function relay(stored: StoredOperation, accepted: number): void {
    const { operation } = stored;
    const sending = accepted + timings.operationSending;
    const sent = sending + timings.operationSent;
    const broadcasting = sent + timings.operationBroadcasting;
    const latest = broadcasting + timings.operationConfirmedLatest;
    const safe = latest + timings.operationConfirmedSafe;
    const final = safe + timings.operationConfirmed;
    const singleStage = findNetwork(operation.chain_selector)?.finalityStages === 1;

    step(stored, 'accepted', sending, (time) => {
      if (world.state.wallets.get(stored.walletId)?.wallet.status === 'failed') return enter(stored, 'failed', time, 'the wallet is not deployed');
      enter(stored, 'sending', time);
    });
    step(stored, 'sending', sent, (time) => {
      operation.operation_writer_workflow_id = WORKFLOW_IDS.operationWriter;
      operation.operation_writer_workflow_execution_id = randomHex(32);
      enter(stored, 'sent', time);
    });
    step(stored, 'sent', broadcasting, (time) => enter(stored, 'broadcasting', time));
    step(stored, 'broadcasting', latest, (time) => {
      if (stored.outcome === 'silent') return;
      if (stored.outcome === 'fails') return enter(stored, 'failed', time, 'the transaction reverted');
      operation.operation_status_workflow_id = WORKFLOW_IDS.operationStatus;
      if (singleStage) return confirm(stored, time);
      enter(stored, 'confirmed_latest', time);
    });
    step(stored, 'confirmed_latest', safe, (time) => enter(stored, 'confirmed_safe', time));
    step(stored, 'confirmed_safe', final, (time) => confirm(stored, time));
  }

  function confirm(stored: StoredOperation, time: number): void {
    stored.operation.operation_status_workflow_execution_id = randomHex(32);
    enter(stored, 'confirmed', time);
    publishContractEvents(world, stored.operation, time);
  }

  function watchDeadline(stored: StoredOperation): void {
    const { deadline } = stored.operation;
    if (deadline === 0) return;
    world.at(deadline * 1000 + 1, (time) => {
      if (NOT_YET_ONCHAIN.includes(stored.operation.status)) {
        enter(stored, 'expired', time, 'the deadline passed before the operation was carried out');
      }
    });
  }

  return { enter, relay, watchDeadline };
}

function workflowFields({ operation }: StoredOperation) {
  return {
    ...(operation.operation_writer_workflow_id === undefined ? {} : { operation_writer_workflow_id: operation.operation_writer_workflow_id }),
    ...(operation.operation_writer_workflow_execution_id === undefined
      ? {}
      : { operation_writer_workflow_execution_id: operation.operation_writer_workflow_execution_id }),
    ...(operation.operation_status_workflow_id === undefined ? {} : { operation_status_workflow_id: operation.operation_status_workflow_id }),
    ...(operation.operation_status_workflow_execution_id === undefined
      ? {}
      : { operation_status_workflow_execution_id: operation.operation_status_workflow_execution_id }),
  };
}
