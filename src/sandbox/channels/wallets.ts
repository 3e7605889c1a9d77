/**
 * Wallets (smart accounts): names unique in the organisation
 * (`409 WALLET_ALREADY_EXISTS`), created `pending`, then `deploying`, then
 * `deployed` (or `failed`, asked for by a `fail-deploy…` name; a
 * `fail-chain…` name is refused `409 CHAIN_UNAVAILABLE`). Renamed and
 * archived with `PATCH`; archiving twice is `409 WALLET_ALREADY_ARCHIVED`.
 * Each status a wallet enters is a `wallet.status` event on its
 * `status_channel_id`, when it has one.
 */
import type { OperationHandler } from '../types.js';
import { addressOf } from './hex.js';
import { requireWallet } from './lookup.js';
import { seconds, WALLET_STATUSES, WALLET_TYPES, type CreateWallet, type UpdateWallet, type Wallet, type WalletStatus } from './model.js';
import { findNetwork } from './networks.js';
import {
  addressParam,
  chainSelectorParam,
  environmentFilter,
  list,
  nameFilter,
  pageItems,
  pageOf,
  single,
} from './query-params.js';
import { badRequest, conflict } from './refusals.js';
import type { ChannelsWorld, StoredWallet } from './state.js';
import { asksChainUnavailable, asksDeployFailure } from './triggers.js';

type Handlers = Record<'createWallet' | 'listWallets' | 'getWallet' | 'updateWallet', OperationHandler>;

export function createWalletHandlers(world: ChannelsWorld): Handlers {
  const { state, timings } = world;

  function nameTaken(name: string, except?: string): boolean {
    for (const { wallet } of state.wallets.values()) if (wallet.name === name && wallet.wallet_id !== except) return true;
    return false;
  }

  function moveTo(stored: StoredWallet, status: WalletStatus, time: number, reason = ''): void {
    stored.wallet.status = status;
    emitWalletStatus(world, stored.wallet, time, reason);
  }

  function scheduleDeployment(stored: StoredWallet, created: number): void {
    const deploying = created + timings.walletDeploying;
    world.at(deploying, (time) => {
      if (stored.wallet.status === 'pending') moveTo(stored, 'deploying', time);
    });
    world.at(deploying + timings.walletDeployed, (time) => {
      if (stored.wallet.status !== 'deploying') return;
      if (stored.failsDeploy) moveTo(stored, 'failed', time, 'the smart account could not be deployed');
      else moveTo(stored, 'deployed', time);
    });
  }

  return {
    createWallet(request) {
      const body = request.body as CreateWallet;
      if (findNetwork(body.chain_selector) === undefined) throw badRequest(`chain_selector: ${body.chain_selector} is not a supported network`);
      if (body.status_channel_id !== undefined && !state.channels.has(body.status_channel_id.toLowerCase())) {
        throw badRequest(`status_channel_id: channel ${body.status_channel_id} does not exist`);
      }
      if (nameTaken(body.name)) throw conflict(`a wallet named '${body.name}' already exists in this organization`, 'WALLET_ALREADY_EXISTS');
      if (asksChainUnavailable(body.name)) {
        throw conflict(`chain ${body.chain_selector} is unavailable for wallet creation`, 'CHAIN_UNAVAILABLE');
      }
      const now = world.clock.now();
      const walletId = world.newId();
      const wallet: Wallet = {
        wallet_id: walletId,
        name: body.name,
        ...(body.description ? { description: body.description } : {}),
        address: addressOf('wallet', walletId),
        wallet_owner_address: body.wallet_owner_address,
        chain_selector: body.chain_selector,
        wallet_type: body.wallet_type,
        status: 'pending',
        ...(body.status_channel_id === undefined ? {} : { status_channel_id: body.status_channel_id.toLowerCase() }),
        allowed_rsa_signers: body.allowed_rsa_signers ?? [],
        allowed_ecdsa_signers: body.allowed_ecdsa_signers ?? [],
        configuration: body.configuration ?? {},
        created_at: seconds(now),
      };
      const stored: StoredWallet = { wallet, failsDeploy: asksDeployFailure(body.name) };
      state.wallets.set(walletId, stored);
      emitWalletStatus(world, wallet, now, '');
      scheduleDeployment(stored, now);
      return { status: 201, body: wallet };
    },

    listWallets(request) {
      const query = request.queryParams;
      const page = pageOf(query);
      const named = nameFilter(query);
      const chain = chainSelectorParam(query);
      const owner = addressParam(query, 'owner');
      const address = addressParam(query, 'address');
      const type = single<(typeof WALLET_TYPES)[number]>(query, 'type');
      const statuses = list<(typeof WALLET_STATUSES)[number]>(query, 'status');
      const environment = environmentFilter(query);
      const wallets = [...state.wallets.values()]
        .map((stored) => stored.wallet)
        .filter(
          (wallet) =>
            (statuses === undefined ? wallet.status !== 'archived' : statuses.includes(wallet.status)) &&
            (named === undefined || named(wallet.name)) &&
            (chain === undefined || wallet.chain_selector === chain) &&
            (owner === undefined || wallet.wallet_owner_address.toLowerCase() === owner) &&
            (address === undefined || wallet.address.toLowerCase() === address) &&
            (type === undefined || wallet.wallet_type === type) &&
            (environment === undefined || environment(wallet.chain_selector)),
        );
      return { status: 200, body: pageItems(wallets, page) };
    },

    getWallet(request) {
      return { status: 200, body: requireWallet(world, request).wallet };
    },

    updateWallet(request) {
      const stored = requireWallet(world, request);
      const body = request.body as UpdateWallet;
      const { wallet } = stored;
      if (body.name !== undefined && nameTaken(body.name, wallet.wallet_id)) {
        throw conflict(`a wallet named '${body.name}' already exists in this organization`, 'WALLET_ALREADY_EXISTS');
      }
      if (body.status === 'archived' && wallet.status === 'archived') {
        throw conflict('wallet is already archived', 'WALLET_ALREADY_ARCHIVED');
      }
      if (body.name !== undefined) wallet.name = body.name;
      if (body.description !== undefined) {
        if (body.description === '') delete wallet.description;
        else wallet.description = body.description;
      }
      if (body.status === 'archived') moveTo(stored, 'archived', world.clock.now(), 'archived by the organization');
      return { status: 200, body: wallet };
    },
  };
}

/** The wallet that sends from `address` on `chainSelector`, if the organisation has one. */
export function findWalletByAddress(world: ChannelsWorld, chainSelector: string, address: string): StoredWallet | undefined {
  const lower = address.toLowerCase();
  for (const stored of world.state.wallets.values()) {
    if (stored.wallet.chain_selector === chainSelector && stored.wallet.address.toLowerCase() === lower) return stored;
  }
  return undefined;
}

function emitWalletStatus(world: ChannelsWorld, wallet: Wallet, time: number, reason: string): void {
  if (wallet.status_channel_id === undefined) return;
  world.state.events.append(
    wallet.status_channel_id,
    'wallet.status',
    {
      status: wallet.status,
      status_reason: reason,
      wallet_id: wallet.wallet_id,
      address: wallet.address,
      chain_selector: wallet.chain_selector,
      timestamp: seconds(time),
    },
    { addresses: [wallet.address.toLowerCase()], walletId: wallet.wallet_id },
  );
}
