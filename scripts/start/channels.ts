/**
 * The channels walk: networks, a wallet and a channel, an operation executed
 * to `confirmed`, the draft → sign → finalize flow followed by its events, a
 * chain query to `completed`, a watcher archived, and the operations list
 * read across pages. Read-only against a real deployment unless writes are
 * allowed.
 */
import {
  collect,
  createOperation,
  executeWithDraft,
  paginate,
  unwrap,
  waitForOperation,
  waitForOperationEvent,
  waitForQuery,
  waitForWatcherArchive,
  archiveWatcher,
  type ChannelsClient,
} from '../../src/channels/index.js';
import { note, statusTrail, step } from './output.js';

const OWNER = '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2';
const TOKEN = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
/** `transfer(0x4b4b…, 2500000000)`. */
const TRANSFER_DATA = `0xa9059cbb${'0'.repeat(24)}${'4b'.repeat(20)}${(2_500_000_000).toString(16).padStart(64, '0')}`;

export interface TourOptions {
  /** Create resources and run the flows (always on the sandbox). */
  writes: boolean;
  /** Poll every 100 ms (the sandbox's flows take a second or two); otherwise the SDK's defaults. */
  fast: boolean;
}

export async function channelsTour(channels: ChannelsClient, { writes, fast }: TourOptions): Promise<void> {
  const poll = fast ? { intervalMs: 100, backoff: 1, timeoutMs: 30_000 } : {};
  const networks = await step('channels', 'list networks', () => unwrap(channels.GET('/networks')), (page) =>
    `${page.data.length} networks: ${page.data.map((n) => n.name).slice(0, 3).join(', ')}, …`,
  );
  if (!writes) {
    await step('channels', 'list wallets (first 10)', () => collect(paginate(channels, '/wallets', { maxItems: 10 })), (w) => `${w.length} wallets`);
    note('read-only against a real deployment: pass --allow-writes to create a wallet, a channel, operations and a query');
    return;
  }

  const chain = networks.data.find((n) => n.name.includes('sepolia'))?.chain_selector ?? networks.data[0]!.chain_selector;
  const stamp = Date.now();
  const wallet = await step(
    'channels',
    'create a wallet',
    () =>
      unwrap(channels.POST('/wallets', { body: { name: `demo-wallet-${stamp}`, wallet_owner_address: OWNER, chain_selector: chain, wallet_type: 'ecdsa' } })),
    (w) => `${w.wallet_id} (${w.status})`,
  );
  const channel = await step('channels', 'create a channel', () => unwrap(channels.POST('/channels', { body: { name: `demo-channel-${stamp}` } })), (c) =>
    `${c.channel_id} (${c.status})`,
  );
  const channel_id = channel.channel_id;
  const operationBody = (walletOperationId: number) => ({
    chain_selector: chain,
    address: wallet.address,
    wallet_operation_id: String(walletOperationId),
    deadline: Math.floor(Date.now() / 1000) + 3600,
    transactions: [{ to: TOKEN, value: '0', data: TRANSFER_DATA }],
  });

  const signed = await step(
    'channels',
    'execute a signed operation',
    // A real wallet signs the operation's digest (e.g. an EIP-712 hash with the owner's key).
    () => createOperation(channels, channel_id, { ...operationBody(1), signature: `0x${'11'.repeat(65)}` }),
    (op) => `${op.operation_id} is ${op.status}`,
  );
  const executed = statusTrail();
  await step(
    'channels',
    'wait until confirmed (polling)',
    () => waitForOperation(channels, { channel_id, operation_id: signed.operation_id }, { ...poll, onStatus: executed.onStatus }),
    (op) => op.status,
  );
  note(String(executed));

  const finalized = await step(
    'channels',
    'draft → sign → finalize',
    () => executeWithDraft(channels, channel_id, operationBody(2), () => ({ signature: `0x${'22'.repeat(65)}`, digest: `0x${'d1'.repeat(32)}` })),
    (op) => `${op.operation_id} is ${op.status}`,
  );
  await step(
    'channels',
    'wait for its confirmed event (event stream)',
    () => waitForOperationEvent(channels, { channel_id, operation_id: finalized.operation_id }, 'confirmed', { ...(fast ? { intervalMs: 100, timeoutMs: 30_000 } : {}), fromOffset: 0 }),
    (event) => `${event.headers.type} → ${event.payload.status}, stream offset ${event.headers.offset}`,
  );

  const query = await step(
    'channels',
    'create a chain query',
    () =>
      unwrap(
        channels.POST('/channels/{channel_id}/queries', {
          params: { path: { channel_id } },
          body: {
            idempotency_key: crypto.randomUUID(),
            query_kind: 'evm_call',
            chain_selector: chain,
            params: { contract_address: TOKEN, call_data: '0x18160ddd', block_selection: { type: 'latest' } },
          },
        }),
      ),
    (q) => `${q.query_id} is ${q.status}`,
  );
  const queried = statusTrail();
  await step('channels', 'wait until completed', () => waitForQuery(channels, { channel_id, query_id: query.query_id }, { ...poll, onStatus: queried.onStatus }), (q) =>
    `${q.status}${q.verifiable_result ? ', with its verifiable result' : ''}`,
  );
  note(String(queried));

  const watcher = await step(
    'channels',
    'create a watcher (Transfer events of a token)',
    () =>
      unwrap(
        channels.POST('/channels/{channel_id}/watchers', {
          params: { path: { channel_id } },
          body: { name: `demo-watcher-${stamp}`, chain_selector: chain, address: TOKEN, service: 'dta', events: ['SubscriptionRequested'] } as never,
        }),
      ),
    (w) => `${w.watcher_id} (${w.status})`,
  );
  const archived = statusTrail();
  await step(
    'channels',
    'archive it, wait until archived',
    async () => {
      const ref = { channel_id, watcher_id: watcher.watcher_id };
      await archiveWatcher(channels, ref);
      return waitForWatcherArchive(channels, ref, { ...poll, onStatus: archived.onStatus });
    },
    (w) => w.status,
  );
  note(String(archived));

  await step(
    'channels',
    "the channel's operations, one per page",
    () => collect(paginate(channels, '/channels/{channel_id}/operations', { params: { path: { channel_id } }, pageSize: 1 })),
    (ops) => `${ops.length} operations over ${ops.length} pages: ${ops.map((o) => o.status).join(', ')}`,
  );
}
