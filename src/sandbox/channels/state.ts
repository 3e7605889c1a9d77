/**
 * Everything the channels sandbox remembers, and what every handler module
 * works with (`ChannelsWorld`): the stores, the clock, the timings, and a
 * scheduler whose tasks see their own sandbox time and never touch the state
 * of before a reset.
 */
import type { SandboxClock } from '../clock.js';
import { createEventLog, type EventLog } from './event-log.js';
import type { Channel, Operation, Query, Subject, Wallet, Watcher } from './model.js';
import type { ChannelsTimings } from './timings.js';
import type { CallOutcome } from './triggers.js';

export interface StoredWallet {
  wallet: Wallet;
  /** Deployment ends `failed` (asked by the wallet's name). */
  failsDeploy: boolean;
}

export interface StoredChannel {
  channel: Channel;
  /** In creation order, which is the order lists answer in. */
  watcherIds: string[];
  operationIds: string[];
  queryIds: string[];
}

export interface StoredOperation {
  operation: Operation;
  channelId: string;
  walletId: string;
  /** The creation body, to tell a retry from a reuse of `wallet_operation_id`. */
  fingerprint: string;
  outcome: CallOutcome;
}

export interface StoredQuery {
  query: Query;
  fingerprint: string;
  outcome: CallOutcome;
  callData: string;
  /** The block asked for: `latest`, `finalized`, or a number. */
  block: string;
}

export interface ChannelsState {
  wallets: Map<string, StoredWallet>;
  channels: Map<string, StoredChannel>;
  watchers: Map<string, Watcher>;
  operations: Map<string, StoredOperation>;
  queries: Map<string, StoredQuery>;
  /** `chain_selector`, lowercase address and normalised `wallet_operation_id` → operation ID. */
  operationKeys: Map<string, string>;
  /** Channel ID and `idempotency_key` → query ID. */
  queryKeys: Map<string, string>;
  events: EventLog;
}

/** Stores a channel with empty lists and opens its event stream: what creating one and seeding one both do. */
export function storeChannel(state: ChannelsState, channel: Channel): void {
  state.channels.set(channel.channel_id, { channel, watcherIds: [], operationIds: [], queryIds: [] });
  state.events.open(channel.channel_id);
}

export interface ChannelsWorld {
  readonly state: ChannelsState;
  readonly clock: SandboxClock;
  readonly timings: ChannelsTimings;
  /** The actor the sandbox's API key stands for (its ID is not the key). */
  readonly apiKeySubject: Subject;
  newId(): string;
  /** Runs `task` once sandbox time reaches `time`, passing `time` (not the later time it may run at). */
  at(time: number, task: (time: number) => void): void;
  /** Back to the seed: empty stores; tasks scheduled before do nothing. */
  reset(): void;
}

export interface WorldOptions {
  clock: SandboxClock;
  timings: ChannelsTimings;
  newId: () => string;
  maxEventsPerChannel: number;
}

export function createWorld(options: WorldOptions): ChannelsWorld {
  const state: ChannelsState = {
    wallets: new Map(),
    channels: new Map(),
    watchers: new Map(),
    operations: new Map(),
    queries: new Map(),
    operationKeys: new Map(),
    queryKeys: new Map(),
    events: createEventLog(options.newId, options.maxEventsPerChannel),
  };
  let generation = 0;
  return {
    state,
    clock: options.clock,
    timings: options.timings,
    apiKeySubject: { subject_type: 'api_key', subject_id: options.newId(), subject_name: 'sandbox-api-key' },
    newId: options.newId,
    at(time, task) {
      const scheduledIn = generation;
      options.clock.at(time, () => {
        if (scheduledIn === generation) task(time);
      });
    },
    reset() {
      generation++;
      for (const store of [state.wallets, state.channels, state.watchers, state.operations, state.queries, state.operationKeys, state.queryKeys]) {
        store.clear();
      }
      state.events.clear();
    },
  };
}
