/**
 * A user's own wallets and channels, planted at creation and after every
 * reset (`createSandbox({ seed: { channels } })`). Checked once, with the
 * spec's request rules plus what the API itself would refuse (names taken,
 * unknown networks and channels), so a seed the API could not have produced
 * is refused up front.
 */
import { SandboxUsageError } from '../errors.js';
import { addressOf } from './hex.js';
import { seconds, type Channel, type CreateChannel, type CreateWallet, type Wallet } from './model.js';
import { findNetwork } from './networks.js';
import { checkRequest, GENERATED_REQUEST_CHECKS, type RequestCheck } from '../request-check.js';
import { channelsRequestRefusal } from './request-refusal.js';
import { storeChannel, type ChannelsWorld } from './state.js';

/** Statuses a seeded wallet may have: settled ones, since no deployment runs for it. */
const SEEDED_WALLET_STATUSES = ['deployed', 'failed', 'archived'] as const;

/** A wallet as seeded: what `POST /wallets` takes, plus its ID and status. */
export type SeedWallet = CreateWallet & {
  /** A UUID (stored lowercase). Default: a fresh one, the same after every `reset()`. */
  wallet_id?: string;
  /** Default `deployed`. */
  status?: (typeof SEEDED_WALLET_STATUSES)[number];
};

/** A channel as seeded: what `POST /channels` takes, plus its ID and status. */
export type SeedChannel = CreateChannel & {
  /** A UUID (stored lowercase). Default: a fresh one, the same after every `reset()`. */
  channel_id?: string;
  /** Default `active`. */
  status?: Channel['status'];
};

/**
 * The channels API's seed. A wallet's `status_channel_id` must name a seeded
 * channel; names are unique per kind, as the API keeps them. The address of
 * a seeded wallet is derived from its ID, as for a created one.
 */
export interface ChannelsSeed {
  wallets?: readonly SeedWallet[];
  channels?: readonly SeedChannel[];
}

/** Checked records with their IDs, without `created_at` (the time they are planted). */
export interface PreparedChannelsSeed {
  wallets: readonly Omit<Wallet, 'created_at'>[];
  channels: readonly Omit<Channel, 'created_at'>[];
}

const PATH = 'seed.channels';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const createWallet = GENERATED_REQUEST_CHECKS.channels.createWallet!;
const createChannel = GENERATED_REQUEST_CHECKS.channels.createChannel!;

/**
 * A seeded record: what the create operation's body takes (its generated
 * check, worded as the API words it, at the record's place in the seed),
 * plus the seed's own fields, its ID and its status.
 */
function checkRecord(record: unknown, at: string, create: RequestCheck, statuses: readonly string[], idField: string): void {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw refuse(`${at}: expected an object`);
  const { [idField]: id, status, ...body } = record as Record<string, unknown>;
  if (id !== undefined && (typeof id !== 'string' || !UUID.test(id))) throw refuse(`${at}.${idField}: expected a UUID`);
  if (status !== undefined && !statuses.includes(status as string)) throw refuse(`${at}.status: expected one of ${statuses.join(', ')}`);
  const problem = checkRequest(create, { pathParams: {}, query: new URLSearchParams(), headers: new Headers(), body });
  if (problem !== undefined) throw refuse(channelsRequestRefusal(problem).message.replace(/^body/, at));
}

function checkList(value: unknown, at: string): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw refuse(`${at}: expected an array`);
  return value;
}

export function prepareChannelsSeed(seed: unknown): PreparedChannelsSeed {
  if (seed === undefined) return { wallets: [], channels: [] };
  if (seed === null || typeof seed !== 'object' || Array.isArray(seed)) throw refuse(`${PATH}: expected an object`);
  const unknownKind = Object.keys(seed).find((key) => key !== 'wallets' && key !== 'channels');
  if (unknownKind !== undefined) throw refuse(`${PATH}.${unknownKind}: unknown field`);
  const raw = seed as Record<string, unknown>;
  checkList(raw.wallets, `${PATH}.wallets`).forEach((wallet, index) => checkRecord(wallet, `${PATH}.wallets[${index}]`, createWallet, SEEDED_WALLET_STATUSES, 'wallet_id'));
  checkList(raw.channels, `${PATH}.channels`).forEach((channel, index) => checkRecord(channel, `${PATH}.channels[${index}]`, createChannel, ['active', 'archived'], 'channel_id'));
  const given = seed as ChannelsSeed;
  const channels = (given.channels ?? []).map((channel): Omit<Channel, 'created_at'> => ({
    channel_id: (channel.channel_id ?? crypto.randomUUID()).toLowerCase(),
    name: channel.name,
    ...(channel.description ? { description: channel.description } : {}),
    status: channel.status ?? 'active',
  }));
  unique(channels, 'channel_id', 'channels');
  unique(channels, 'name', 'channels');
  const channelIds = new Set(channels.map((channel) => channel.channel_id));

  const wallets = (given.wallets ?? []).map((wallet, index): Omit<Wallet, 'created_at'> => {
    const at = `${PATH}.wallets[${index}]`;
    if (findNetwork(wallet.chain_selector) === undefined) throw refuse(`${at}.chain_selector: ${wallet.chain_selector} is not a network of the sandbox`);
    const statusChannel = wallet.status_channel_id?.toLowerCase();
    if (statusChannel !== undefined && !channelIds.has(statusChannel)) {
      throw refuse(`${at}.status_channel_id: ${statusChannel} is not a seeded channel (seed it under seed.channels.channels)`);
    }
    const walletId = (wallet.wallet_id ?? crypto.randomUUID()).toLowerCase();
    // A copy of each array and object: the user's seed may change later, the sandbox's may not.
    return structuredClone({
      wallet_id: walletId,
      name: wallet.name,
      ...(wallet.description ? { description: wallet.description } : {}),
      address: addressOf('wallet', walletId),
      wallet_owner_address: wallet.wallet_owner_address,
      chain_selector: wallet.chain_selector,
      wallet_type: wallet.wallet_type,
      status: wallet.status ?? 'deployed',
      ...(statusChannel === undefined ? {} : { status_channel_id: statusChannel }),
      allowed_rsa_signers: wallet.allowed_rsa_signers ?? [],
      allowed_ecdsa_signers: wallet.allowed_ecdsa_signers ?? [],
      configuration: wallet.configuration ?? {},
    });
  });
  unique(wallets, 'wallet_id', 'wallets');
  unique(wallets, 'name', 'wallets');
  return { wallets, channels };
}

/** Puts the seeded records into a world with empty stores, each a fresh copy dated now. */
export function plantChannelsSeed(world: ChannelsWorld, seed: PreparedChannelsSeed): void {
  const createdAt = seconds(world.clock.now());
  for (const channel of seed.channels) {
    storeChannel(world.state, { ...channel, created_at: createdAt });
  }
  for (const wallet of seed.wallets) {
    world.state.wallets.set(wallet.wallet_id, { wallet: { ...structuredClone(wallet), created_at: createdAt }, failsDeploy: false });
  }
}

/** The API keeps names (and IDs) unique: a seed that repeats one could not exist. */
function unique<T extends Record<K, string>, K extends string>(records: readonly T[], key: K, kind: 'wallets' | 'channels'): void {
  const seen = new Set<string>();
  records.forEach((record, index) => {
    if (seen.has(record[key])) throw refuse(`${PATH}.${kind}[${index}].${key}: '${record[key]}' is already taken by an earlier one`);
    seen.add(record[key]);
  });
}

function refuse(problem: string): SandboxUsageError {
  return new SandboxUsageError(`createSandbox(): ${problem}`);
}
