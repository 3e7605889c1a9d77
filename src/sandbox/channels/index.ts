/**
 * The channels API's behaviour: networks, wallets, channels, watchers,
 * operations, chain queries and the events they publish, with their
 * asynchronous steps scheduled on the sandbox clock (see `timings.ts`; each
 * flow ends within about a second at pace 1).
 *
 * Authentication: `Authorization: Apikey <sandbox.credentials.channels.apiKey>`;
 * a well-formed key (`sandbox_` + 32 lowercase hex digits) of another
 * organisation gets `401 ORGANIZATION_NOT_FOUND`, anything else `401
 * VALIDATION_ERROR` (`auth.ts`).
 *
 * Failure paths on request, with values the spec allows (`triggers.ts`):
 * - wallet or watcher `name` starting `fail-deploy`: deployment ends `failed`;
 * - wallet `name` starting `fail-chain`: `409 CHAIN_UNAVAILABLE`;
 * - watcher `name` starting `fail-archive`: the archive ends `archive_failed`;
 * - an operation calling (`transactions[].to`) or a query reading
 *   (`params.contract_address`) `0x000000000000000000000000000000000000fa11`:
 *   it ends `failed`;
 * - the same with `0x000000000000000000000000000000000000dead`: no answer,
 *   so the operation ends `expired` at its `deadline` and the query at its
 *   `expires_at`.
 *
 * The sandbox never answers `409 RESOURCE_VERSION_CONFLICT`: it handles one
 * request at a time, so no change is ever concurrent.
 */
import type { OperationId } from '../../../generated/operations/channels.js';
import type { BehaviourContext } from '../context.js';
import type { ApiBehaviour, OperationHandler } from '../types.js';
import { createChannelsAuthenticator } from './auth.js';
import { createChannelHandlers } from './channels.js';
import { channelsErrorAnswer } from './error-answer.js';
import { createEventReadHandlers } from './event-reads.js';
import { createOperationHandlers } from './operations.js';
import { createQueryHandlers } from './queries.js';
import { plantChannelsSeed, type PreparedChannelsSeed } from './seed.js';
import { createServiceHandlers } from './service.js';
import { createWorld } from './state.js';
import { DEFAULT_CHANNELS_TIMINGS, type ChannelsTimings } from './timings.js';
import { createWalletHandlers } from './wallets.js';
import { createWatcherHandlers } from './watchers.js';
import { channelsRequestRefusal } from './request-refusal.js';

export { SANDBOX_NETWORKS, type SandboxNetwork } from './networks.js';
export { DEFAULT_CHANNELS_TIMINGS, type ChannelsTimings } from './timings.js';
export { FAILING_ADDRESS, SILENT_ADDRESS, FAIL_DEPLOY_PREFIX, FAIL_CHAIN_PREFIX, FAIL_ARCHIVE_PREFIX } from './triggers.js';
export { WELL_FORMED_API_KEY } from './auth.js';

export interface ChannelsBehaviourOptions {
  /** Durations of the asynchronous steps, in sandbox ms. */
  timings?: Partial<ChannelsTimings>;
  /** Events a channel keeps (older ones are dropped). Default 10,000. */
  maxEventsPerChannel?: number;
  /** The user's wallets and channels (`createSandbox({ seed })`), planted at creation and after every reset. */
  seed?: PreparedChannelsSeed;
}

export function createChannelsBehaviour(context: BehaviourContext, options: ChannelsBehaviourOptions = {}): ApiBehaviour {
  const world = createWorld({
    clock: context.clock,
    timings: { ...DEFAULT_CHANNELS_TIMINGS, ...options.timings },
    newId: () => context.newId(),
    maxEventsPerChannel: options.maxEventsPerChannel ?? 10_000,
  });
  const plantSeed = () => {
    if (options.seed !== undefined) plantChannelsSeed(world, options.seed);
  };
  plantSeed();
  // Typed by the spec's operation table: an operation added to the spec fails the build until it has a handler.
  const handlers: Record<OperationId, OperationHandler> = {
    ...createServiceHandlers(),
    ...createWalletHandlers(world),
    ...createChannelHandlers(world),
    ...createWatcherHandlers(world),
    ...createOperationHandlers(world),
    ...createQueryHandlers(world),
    ...createEventReadHandlers(world),
  };
  return {
    api: 'channels',
    handlers,
    authenticate: createChannelsAuthenticator(context.credentials.channels.apiKey),
    errorAnswer: channelsErrorAnswer,
    refuseRequest: channelsRequestRefusal,
    reset: () => {
      world.reset();
      plantSeed();
    },
  };
}
