import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cancelOperation,
  collect,
  createChannelsClient,
  createOperation,
  createQuery,
  DraftOperationError,
  executeWithDraft,
  finalizeOperation,
  getOperation,
  getQuery,
  getWatcher,
  archiveWatcher,
  paginate,
  PollFailedError,
  unwrap,
  waitForOperation,
  waitForOperationEvent,
  waitForQuery,
  waitForQueryEvent,
  waitForWatcherArchive,
  waitForWatcherArchiveEvent,
  type ChannelsClient,
  type ChannelsComponents,
  type CreateOperationBody,
  type Operation,
  type OperationStatus,
} from '../../src/channels/index.js';
import { createSandbox, type AnswerValidator, type Sandbox } from '../../src/sandbox/index.js';
import { operationIdsOf } from '../../src/sandbox/router.js';
import { sandboxValidator } from '../support/sandbox-validator.js';
import { apiError } from '../support/api-error.js';

// The channels API's behaviour in the sandbox, through the SDK's own client
// and helpers. Every answer is checked against the bundle (sandboxValidator),
// and no test may leave a violation behind. Time is frozen (pace 0) and moved
// by hand, or moved a fixed step on every request (`steppingClient`) where a
// polling helper must see states change between its reads.

type Wallet = ChannelsComponents['schemas']['Wallet'];
type Channel = ChannelsComponents['schemas']['Channel'];
type Watcher = ChannelsComponents['schemas']['Watcher'];
type ChannelEvent = ChannelsComponents['schemas']['Event'];

const SEPOLIA = '16015286601757825753';
const ARBITRUM_SEPOLIA = '3478487238524512106'; // one finality stage
const BASE_MAINNET = '15971525489660198786';
const OWNER = `0x${'11'.repeat(20)}`;
const TOKEN = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
const FAILING = '0x000000000000000000000000000000000000fa11';
const SILENT = '0x000000000000000000000000000000000000dEaD';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const DIGEST = `0x${'cd'.repeat(32)}`;
const FAST_POLL = { intervalMs: 1, backoff: 1, timeoutMs: 5_000 };
const FAST_EVENTS = { intervalMs: 1, timeoutMs: 5_000 };
const TRANSFER_DATA = `0xa9059cbb${'0'.repeat(24)}${'4b'.repeat(20)}${(2_500_000_000).toString(16).padStart(64, '0')}`;

let sandbox: Sandbox;
let client: ChannelsClient;

/** Every channels operation this file had the sandbox answer, with the statuses it answered. */
const answered = new Map<string, Set<number>>();
const checkAnswer = sandboxValidator();
const validate: AnswerValidator = (answer) => {
  checkAnswer(answer);
  if (answer.api === 'channels') answered.set(answer.operationId, (answered.get(answer.operationId) ?? new Set()).add(answer.status));
};

beforeEach(() => {
  sandbox = createSandbox({ pace: 0, validate });
  client = clientWith(sandbox.credentials.channels.apiKey);
});

afterEach(() => {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
});

function clientWith(apiKey: string): ChannelsClient {
  return createChannelsClient({ apiKey, fetch: sandbox.fetch, retry: false });
}

/** A client whose every request first moves sandbox time on by `stepMs`: polling sees time pass, deterministically. */
function steppingClient(stepMs = 50): ChannelsClient {
  const fetch: typeof sandbox.fetch = (input, init) => {
    sandbox.advance(stepMs);
    return sandbox.fetch(input, init);
  };
  return createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch, retry: false });
}


async function pollFailure(promise: Promise<unknown>): Promise<PollFailedError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(PollFailedError);
  return caught as PollFailedError;
}

const nowSeconds = () => Math.floor(sandbox.clock.now() / 1000);

function newChannel(name = `channel-${crypto.randomUUID().slice(0, 8)}`): Promise<Channel> {
  return unwrap(client.POST('/channels', { body: { name } }));
}

function newWallet(name: string, extra: Partial<ChannelsComponents['schemas']['CreateWallet']> = {}): Promise<Wallet> {
  return unwrap(
    client.POST('/wallets', { body: { name, wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa', ...extra } }),
  );
}

function newWatcher(channel: Channel, name: string, extra: Record<string, unknown> = {}): Promise<Watcher> {
  return unwrap(
    client.POST('/channels/{channel_id}/watchers', {
      params: { path: { channel_id: channel.channel_id } },
      body: { name, chain_selector: SEPOLIA, address: TOKEN, service: 'dta', events: ['SubscriptionRequested'], ...extra } as never,
    }),
  );
}

function operationBody(wallet: Wallet, walletOperationId: string, extra: Partial<CreateOperationBody> = {}): CreateOperationBody {
  return {
    chain_selector: wallet.chain_selector,
    address: wallet.address,
    wallet_operation_id: walletOperationId,
    deadline: 0,
    transactions: [{ to: TOKEN, value: '0', data: TRANSFER_DATA, preview: { function_signature: 'transfer(address,uint256)' } }],
    ...extra,
  };
}

function queryBody(idempotencyKey: string, contract = TOKEN) {
  return {
    idempotency_key: idempotencyKey,
    query_kind: 'evm_call' as const,
    chain_selector: SEPOLIA,
    params: { contract_address: contract, call_data: '0x18160ddd', block_selection: { type: 'latest' as const } },
  };
}

async function allEvents(channelId: string): Promise<ChannelEvent[]> {
  return collect(paginate(client, '/channels/{channel_id}/events', { params: { path: { channel_id: channelId } } }));
}

async function statusEvents(channelId: string, type: string, idField: string, id: string): Promise<string[]> {
  return (await allEvents(channelId))
    .filter((event) => event.headers.type === type && (event.payload as Record<string, unknown>)[idField] === id)
    .map((event) => (event.payload as { status: string }).status);
}

async function search(channelId: string, query: Record<string, unknown>) {
  return unwrap(client.GET('/channels/{channel_id}/events/search', { params: { path: { channel_id: channelId }, query: query as never } }));
}

describe('authentication', () => {
  it('answers 401 VALIDATION_ERROR without a valid Apikey header, and no answer repeats the key', async () => {
    const missing = await sandbox.fetch('https://cre-connect.api.chain.link/v1/wallets');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ type: 'VALIDATION_ERROR', message: expect.any(String) });

    const bearer = await sandbox.fetch('https://cre-connect.api.chain.link/v1/wallets', {
      headers: { Authorization: `Bearer ${sandbox.credentials.channels.apiKey}` },
    });
    expect(bearer.status).toBe(401);

    const wrong = await apiError(unwrap(clientWith('not-a-sandbox-key').GET('/wallets')));
    expect([wrong.status, wrong.type, wrong.code]).toEqual([401, 'VALIDATION_ERROR', undefined]);
    expect(JSON.stringify(wrong.body)).not.toContain('not-a-sandbox-key');
  });

  it('answers 401 ORGANIZATION_NOT_FOUND for a well-formed key of another organisation', async () => {
    const otherKey = `sandbox_${'0123456789abcdef'.repeat(2)}`;
    const error = await apiError(unwrap(clientWith(otherKey).GET('/channels')));
    expect([error.status, error.type, error.code]).toEqual([401, 'ORGANIZATION_NOT_FOUND', undefined]);
    expect(JSON.stringify(error.body)).not.toContain(otherKey);
  });

  it('answers the health check without a key', async () => {
    const response = await sandbox.fetch('https://cre-connect.api.chain.link/v1/health-check');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('networks', () => {
  it('lists the seeded networks in one answer, before and after a reset', async () => {
    const first = await unwrap(client.GET('/networks'));
    expect(first.has_more).toBe(false);
    expect(first.data.map((network) => network.chain_selector)).toEqual(expect.arrayContaining([SEPOLIA, ARBITRUM_SEPOLIA, BASE_MAINNET]));
    expect(new Set(first.data.map((network) => network.type))).toEqual(new Set(['mainnet', 'testnet']));
    await newWallet('kept-until-reset');
    sandbox.reset();
    expect(await unwrap(client.GET('/networks'))).toEqual(first);
    expect((await unwrap(client.GET('/wallets'))).data).toEqual([]);
  });
});

describe('wallets', () => {
  it('deploys a new wallet over time and publishes each status on its status channel', async () => {
    const channel = await newChannel();
    const wallet = await newWallet('treasury', { status_channel_id: channel.channel_id });
    expect(wallet.status).toBe('pending');
    const read = () => unwrap(client.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }));
    sandbox.advance(100);
    expect((await read()).status).toBe('deploying');
    sandbox.advance(300);
    expect((await read()).status).toBe('deployed');
    expect(await statusEvents(channel.channel_id, 'wallet.status', 'wallet_id', wallet.wallet_id)).toEqual(['pending', 'deploying', 'deployed']);
  });

  it('fails the deployment of a wallet named fail-deploy…, and refuses a fail-chain… wallet with CHAIN_UNAVAILABLE', async () => {
    const failing = await newWallet('fail-deploy-treasury');
    sandbox.advance(1_000);
    expect((await unwrap(client.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: failing.wallet_id } } }))).status).toBe('failed');
    const error = await apiError(newWallet('fail-chain-treasury'));
    expect([error.status, error.type, error.code]).toEqual([409, 'CONFLICT', 'CHAIN_UNAVAILABLE']);
  });

  it('keeps names unique (409 WALLET_ALREADY_EXISTS), renames, and answers 404 WALLET_NOT_FOUND', async () => {
    const first = await newWallet('alpha');
    await newWallet('beta');
    const duplicate = await apiError(newWallet('alpha'));
    expect([duplicate.status, duplicate.code]).toEqual([409, 'WALLET_ALREADY_EXISTS']);
    const clash = await apiError(
      client.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: first.wallet_id } }, body: { name: 'beta' } }).then(unwrap),
    );
    expect([clash.status, clash.code]).toEqual([409, 'WALLET_ALREADY_EXISTS']);
    const renamed = await unwrap(client.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: first.wallet_id } }, body: { name: 'gamma' } }));
    expect(renamed.name).toBe('gamma');
    for (const walletId of [crypto.randomUUID(), 'not-a-uuid']) {
      const missing = await apiError(client.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: walletId } } }).then(unwrap));
      expect([missing.status, missing.type, missing.code]).toEqual([404, 'NOT_FOUND', 'WALLET_NOT_FOUND']);
    }
    const unknownChain = await apiError(newWallet('delta', { chain_selector: '1' }));
    expect([unknownChain.status, unknownChain.type]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('archives a wallet once (then 409 WALLET_ALREADY_ARCHIVED) and lists archived wallets only when asked', async () => {
    const wallet = await newWallet('to-archive');
    await newWallet('stays', { chain_selector: BASE_MAINNET, wallet_type: 'rsa' });
    const archive = () => client.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } }, body: { status: 'archived' } });
    expect((await unwrap(archive())).status).toBe('archived');
    const again = await apiError(archive().then(unwrap));
    expect([again.status, again.code]).toEqual([409, 'WALLET_ALREADY_ARCHIVED']);
    const names = async (query: Record<string, unknown>) =>
      (await unwrap(client.GET('/wallets', { params: { query: query as never } }))).data.map((w) => w.name);
    expect(await names({})).toEqual(['stays']);
    expect(await names({ status: ['archived'] })).toEqual(['to-archive']);
    expect(await names({ status: ['archived', 'pending'] })).toEqual(['to-archive', 'stays']);
    expect(await names({ chain_environment: 'mainnet' })).toEqual(['stays']);
    expect(await names({ type: 'ecdsa' })).toEqual([]);
    expect(await names({ name: 'STA', owner: OWNER })).toEqual(['stays']);
  });
});

describe('channels', () => {
  it('keeps names unique, renames, and answers 404 CHANNEL_NOT_FOUND', async () => {
    const channel = await newChannel('settlement');
    const duplicate = await apiError(newChannel('settlement'));
    expect([duplicate.status, duplicate.type, duplicate.code]).toEqual([409, 'CONFLICT', 'CHANNEL_ALREADY_EXISTS']);
    const renamed = await unwrap(
      client.PATCH('/channels/{channel_id}', { params: { path: { channel_id: channel.channel_id } }, body: { name: 'settlement-eu', description: 'EU' } }),
    );
    expect([renamed.name, renamed.description]).toEqual(['settlement-eu', 'EU']);
    expect(await unwrap(client.GET('/channels/{channel_id}', { params: { path: { channel_id: channel.channel_id } } }))).toEqual(renamed);
    const missing = await apiError(client.GET('/channels/{channel_id}', { params: { path: { channel_id: crypto.randomUUID() } } }).then(unwrap));
    expect([missing.status, missing.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
    const missingList = await apiError(client.GET('/channels/{channel_id}/operations', { params: { path: { channel_id: crypto.randomUUID() } } }).then(unwrap));
    expect([missingList.status, missingList.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
  });

  it('refuses to archive a channel with live watchers (409, no code), then archives it and refuses new queries (400)', async () => {
    const channel = await newChannel();
    const watcher = await newWatcher(channel, 'live-watcher');
    const archive = () => client.PATCH('/channels/{channel_id}', { params: { path: { channel_id: channel.channel_id } }, body: { status: 'archived' } });
    const blocked = await apiError(archive().then(unwrap));
    expect([blocked.status, blocked.type, blocked.code]).toEqual([409, 'CONFLICT', undefined]);
    await archiveWatcher(client, { channel_id: channel.channel_id, watcher_id: watcher.watcher_id });
    sandbox.advance(1_000);
    expect((await unwrap(archive())).status).toBe('archived');
    expect((await unwrap(client.GET('/channels'))).data).toEqual([]);
    expect((await unwrap(client.GET('/channels', { params: { query: { status: ['archived'] } } }))).data.map((c) => c.channel_id)).toEqual([
      channel.channel_id,
    ]);
    const refused = await apiError(createQuery(client, channel.channel_id, queryBody('after-archive')));
    expect([refused.status, refused.type]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('pagination', () => {
  it('walks every list across pages with paginate, in creation order', async () => {
    const names = Array.from({ length: 7 }, (_, index) => `channel-${index}`);
    for (const name of names) await newChannel(name);
    const pages: boolean[] = [];
    const seen: string[] = [];
    for (let offset = 0; ; offset += 3) {
      const page = await unwrap(client.GET('/channels', { params: { query: { limit: 3, offset } } }));
      seen.push(...page.data.map((channel) => channel.name));
      pages.push(page.has_more);
      if (!page.has_more) break;
    }
    expect(seen).toEqual(names);
    expect(pages).toEqual([true, true, false]);
    const walked = await collect(paginate(client, '/channels', { pageSize: 2 }));
    expect(walked.map((channel) => channel.name)).toEqual(names);
    expect((await unwrap(client.GET('/channels'))).data).toHaveLength(7); // default limit 20
  });

  it('walks the event stream across pages by stream position', async () => {
    const channel = await newChannel();
    for (let index = 0; index < 5; index++) await newWatcher(channel, `watcher-${index}`);
    sandbox.advance(1_000); // each watcher: pending, then active
    const walked = await collect(paginate(client, '/channels/{channel_id}/events', { params: { path: { channel_id: channel.channel_id } }, pageSize: 3 }));
    expect(walked.map((event) => event.headers.offset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const searched = await collect(
      paginate(client, '/channels/{channel_id}/events/search', {
        params: { path: { channel_id: channel.channel_id }, query: { type: ['watcher.status'], status: ['active'] } },
        pageSize: 2,
      }),
    );
    expect(searched.map((event) => (event.payload as { status: string }).status)).toEqual(Array(5).fill('active'));
  });

  it('answers 400 for a limit beyond each list maximum, below 1, or a bad offset, and accepts the maximum', async () => {
    const channel = await newChannel();
    const path = { channel_id: channel.channel_id };
    const lists: Array<[string, number, (query: Record<string, unknown>) => Promise<{ response: Response }>]> = [
      ['/wallets', 100, (query) => client.GET('/wallets', { params: { query: query as never } })],
      ['/channels', 50, (query) => client.GET('/channels', { params: { query: query as never } })],
      ['queries', 100, (query) => client.GET('/channels/{channel_id}/queries', { params: { path, query: query as never } })],
      ['watchers', 50, (query) => client.GET('/channels/{channel_id}/watchers', { params: { path, query: query as never } })],
      ['operations', 100, (query) => client.GET('/channels/{channel_id}/operations', { params: { path, query: query as never } })],
      ['events', 200, (query) => client.GET('/channels/{channel_id}/events', { params: { path, query: query as never } })],
      ['events/search', 200, (query) => client.GET('/channels/{channel_id}/events/search', { params: { path, query: query as never } })],
    ];
    for (const [name, max, get] of lists) {
      expect([name, (await get({ limit: max })).response.status]).toEqual([name, 200]);
      for (const query of [{ limit: max + 1 }, { limit: 0 }, { offset: -1 }, { limit: 'ten' }]) {
        const error = await apiError(get(query).then(unwrap));
        expect([name, error.status, error.type]).toEqual([name, 400, 'VALIDATION_ERROR']);
      }
    }
  });
});

describe('watchers', () => {
  it('creates watchers from a service or an ABI, never both, with unique names per channel', async () => {
    const channel = await newChannel();
    const other = await newChannel();
    const fromService = await newWatcher(channel, 'dta-subscriptions');
    expect(fromService).toMatchObject({ status: 'pending', service: 'dta', events: ['SubscriptionRequested'] });
    const abi = [{ anonymous: false, name: 'Transfer', type: 'event', inputs: [{ indexed: true, internalType: 'address', name: 'from', type: 'address' }] }];
    const fromAbi = await newWatcher(channel, 'usdc-transfers', { service: undefined, events: ['Transfer'], abi });
    expect(fromAbi.abi).toEqual(abi);
    const both = await apiError(newWatcher(channel, 'both-kinds', { abi }));
    expect(both.status).toBe(400);
    const notInAbi = await apiError(newWatcher(channel, 'missing-event', { service: undefined, events: ['Approval'], abi }));
    expect(notInAbi.status).toBe(400);
    const duplicate = await apiError(newWatcher(channel, 'dta-subscriptions'));
    expect([duplicate.status, duplicate.code]).toEqual([409, 'WATCHER_ALREADY_EXISTS']);
    expect((await newWatcher(other, 'dta-subscriptions')).name).toBe('dta-subscriptions'); // another channel
    const missing = await apiError(getWatcher(client, { channel_id: other.channel_id, watcher_id: fromService.watcher_id }));
    expect([missing.status, missing.code]).toEqual([404, 'WATCHER_NOT_FOUND']);

    sandbox.advance(500);
    expect((await getWatcher(client, { channel_id: channel.channel_id, watcher_id: fromService.watcher_id })).status).toBe('active');
    const listed = await unwrap(
      client.GET('/channels/{channel_id}/watchers', { params: { path: { channel_id: channel.channel_id }, query: { service: ['dta'], status: ['active'] } } }),
    );
    expect(listed.data.map((watcher) => watcher.name)).toEqual(['dta-subscriptions']);
    const byEvent = await unwrap(
      client.GET('/channels/{channel_id}/watchers', { params: { path: { channel_id: channel.channel_id }, query: { event_name: 'Transfer' } } }),
    );
    expect(byEvent.data.map((watcher) => watcher.name)).toEqual(['usdc-transfers']);
  });

  it('renames (200) and archives (202 archiving) until archived, by polling and by events', async () => {
    const channel = await newChannel();
    const watcher = await newWatcher(channel, 'to-archive');
    const ref = { channel_id: channel.channel_id, watcher_id: watcher.watcher_id };
    sandbox.advance(500);
    const renamed = await client.PATCH('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: ref }, body: { name: 'renamed-watcher' } });
    expect([renamed.response.status, renamed.data?.name]).toEqual([200, 'renamed-watcher']);
    const archiving = await client.PATCH('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: ref }, body: { status: 'archived' } });
    expect([archiving.response.status, archiving.data?.status]).toEqual([202, 'archiving']);

    const stepping = steppingClient();
    const statuses: string[] = [];
    const archived = await waitForWatcherArchive(stepping, ref, { ...FAST_POLL, onStatus: (status) => statuses.push(status) });
    expect(archived.status).toBe('archived');
    expect(statuses).toEqual(['archiving', 'archived']);
    const event = await waitForWatcherArchiveEvent(stepping, ref, { ...FAST_EVENTS, fromOffset: 0 });
    expect(event.payload).toMatchObject({ watcher_id: watcher.watcher_id, status: 'archived' });
    expect(await statusEvents(channel.channel_id, 'watcher.status', 'watcher_id', watcher.watcher_id)).toEqual([
      'pending',
      'active',
      'archiving',
      'archived',
    ]);
    const again = await client.PATCH('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: ref }, body: { status: 'archived' } });
    expect([again.response.status, again.data?.status]).toEqual([200, 'archived']);
  });

  it('ends the archive of a fail-archive… watcher in archive_failed, seen by both waits', async () => {
    const channel = await newChannel();
    const watcher = await newWatcher(channel, 'fail-archive-watcher');
    const ref = { channel_id: channel.channel_id, watcher_id: watcher.watcher_id };
    await archiveWatcher(client, ref);
    const stepping = steppingClient();
    expect((await pollFailure(waitForWatcherArchive(stepping, ref, FAST_POLL))).status).toBe('archive_failed');
    expect((await pollFailure(waitForWatcherArchiveEvent(stepping, ref, FAST_EVENTS))).status).toBe('archive_failed');
  });

  it('ends the deployment of a fail-deploy… watcher in failed', async () => {
    const channel = await newChannel();
    const watcher = await newWatcher(channel, 'fail-deploy-watcher');
    sandbox.advance(500);
    expect((await getWatcher(client, { channel_id: channel.channel_id, watcher_id: watcher.watcher_id })).status).toBe('failed');
  });
});

describe('operations', () => {
  async function setup(chainSelector = SEPOLIA) {
    const channel = await newChannel();
    const wallet = await newWallet(`wallet-${crypto.randomUUID().slice(0, 8)}`, { chain_selector: chainSelector });
    return { channel, wallet };
  }

  it('executes a signed operation through every status to confirmed, by polling and by events', async () => {
    const { channel, wallet } = await setup();
    const created = await createOperation(client, channel.channel_id, operationBody(wallet, '7', { signature: SIGNATURE }));
    expect(created).toMatchObject({ status: 'accepted', signature: SIGNATURE, address: wallet.address, wallet_operation_id: '7' });
    expect(created.transactions[0]!.preview_snapshot).toEqual({
      function_signature: 'transfer(address,uint256)',
      execution_values: { arg0: `0x${'4b'.repeat(20)}`, arg1: '2500000000' },
    });
    const ref = { channel_id: channel.channel_id, operation_id: created.operation_id };
    const stepping = steppingClient();
    const seen: OperationStatus[] = [];
    const accepted = await waitForOperation(stepping, ref, { ...FAST_POLL, until: 'accepted', onStatus: (status) => seen.push(status) });
    expect(accepted.status).not.toBe('pending_signature');
    const latest = await waitForOperation(stepping, ref, { ...FAST_POLL, until: 'confirmed_latest', onStatus: (status) => seen.push(status) });
    expect(latest.status).toBe('confirmed_latest');
    const latestEvent = await waitForOperationEvent(stepping, ref, 'confirmed_latest', { ...FAST_EVENTS, fromOffset: 0 });
    expect(latestEvent.payload.status).toBe('confirmed_latest');
    const safe = await waitForOperation(stepping, ref, { ...FAST_POLL, until: 'confirmed_safe', onStatus: (status) => seen.push(status) });
    expect(safe.status).toBe('confirmed_safe');
    const safeEvent = await waitForOperationEvent(stepping, ref, 'confirmed_safe', { ...FAST_EVENTS, fromOffset: 0 });
    expect(safeEvent.payload.status).toBe('confirmed_safe');
    const confirmed = await waitForOperation(stepping, ref, { ...FAST_POLL, onStatus: (status) => seen.push(status) });
    expect(confirmed).toMatchObject({ status: 'confirmed', confirmed_at: expect.any(Number), operation_status_workflow_execution_id: expect.any(String) });
    const confirmedEvent = await waitForOperationEvent(stepping, ref, 'confirmed', { ...FAST_EVENTS, fromOffset: 0 });
    expect(confirmedEvent.payload).toMatchObject({ status: 'confirmed', event_hash: expect.any(String), verifiable_event: expect.any(String) });
    expect(confirmedEvent.headers.proofs).toHaveLength(1);
    expect(new Set(seen)).toEqual(new Set(['accepted', 'sending', 'sent', 'broadcasting', 'confirmed_latest', 'confirmed_safe', 'confirmed']));
    expect(await statusEvents(channel.channel_id, 'operation.status', 'operation_id', created.operation_id)).toEqual([
      'accepted',
      'sending',
      'sent',
      'broadcasting',
      'confirmed_latest',
      'confirmed_safe',
      'confirmed',
    ]);
  });

  it('goes from broadcasting straight to confirmed on a network with one finality stage', async () => {
    const { channel, wallet } = await setup(ARBITRUM_SEPOLIA);
    const created = await createOperation(client, channel.channel_id, operationBody(wallet, '1', { signature: SIGNATURE }));
    const ref = { channel_id: channel.channel_id, operation_id: created.operation_id };
    const reached = await waitForOperation(steppingClient(), ref, { ...FAST_POLL, until: 'confirmed_latest' });
    expect(reached.status).toBe('confirmed');
    expect(await statusEvents(channel.channel_id, 'operation.status', 'operation_id', created.operation_id)).toEqual([
      'accepted',
      'sending',
      'sent',
      'broadcasting',
      'confirmed',
    ]);
  });

  it('fails an operation calling the failing address, seen by both waits', async () => {
    const { channel, wallet } = await setup();
    const body = operationBody(wallet, '2', { signature: SIGNATURE, transactions: [{ to: FAILING, value: '0', data: '0x' }] });
    const created = await createOperation(client, channel.channel_id, body);
    const ref = { channel_id: channel.channel_id, operation_id: created.operation_id };
    const stepping = steppingClient();
    expect((await pollFailure(waitForOperation(stepping, ref, FAST_POLL))).status).toBe('failed');
    expect((await pollFailure(waitForOperationEvent(stepping, ref, 'confirmed', FAST_EVENTS))).status).toBe('failed');
  });

  it('expires an operation that gets no answer before its deadline', async () => {
    const { channel, wallet } = await setup();
    const deadline = nowSeconds() + 3;
    const body = operationBody(wallet, '3', { signature: SIGNATURE, deadline, transactions: [{ to: SILENT, value: '0', data: '0x' }] });
    const created = await createOperation(client, channel.channel_id, body);
    const ref = { channel_id: channel.channel_id, operation_id: created.operation_id };
    const failure = await pollFailure(waitForOperation(steppingClient(), ref, FAST_POLL));
    expect(failure.status).toBe('expired');
    expect(sandbox.clock.now()).toBeGreaterThan(deadline * 1000);
    expect(await statusEvents(channel.channel_id, 'operation.status', 'operation_id', created.operation_id)).toEqual([
      'accepted',
      'sending',
      'sent',
      'broadcasting',
      'expired',
    ]);
  });

  it('runs the draft flow: create, sign, finalize, confirm', async () => {
    const { channel, wallet } = await setup();
    let drafted: Operation | undefined;
    const accepted = await executeWithDraft(client, channel.channel_id, operationBody(wallet, '10'), (draft) => {
      drafted = draft;
      return { signature: SIGNATURE, digest: DIGEST };
    });
    expect(drafted).toMatchObject({ status: 'pending_signature', signature: null, digest: null, signer: null });
    expect(accepted).toMatchObject({ status: 'accepted', signature: SIGNATURE, digest: DIGEST, signed_at: expect.any(Number) });
    expect(accepted.signer).toEqual(accepted.initiator);
    const confirmed = await waitForOperation(steppingClient(), { channel_id: channel.channel_id, operation_id: accepted.operation_id }, FAST_POLL);
    expect(confirmed.status).toBe('confirmed');
    expect(await statusEvents(channel.channel_id, 'operation.status', 'operation_id', accepted.operation_id)).toEqual([
      'pending_signature',
      'accepted',
      'sending',
      'sent',
      'broadcasting',
      'confirmed_latest',
      'confirmed_safe',
      'confirmed',
    ]);
  });

  it('cancels a draft, and waitForOperation waits for cancelled', async () => {
    const { channel, wallet } = await setup();
    const draft = await createOperation(client, channel.channel_id, operationBody(wallet, '11'));
    const ref = { channel_id: channel.channel_id, operation_id: draft.operation_id };
    const cancelled = await cancelOperation(client, ref);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(Number), canceller: draft.initiator });
    expect((await waitForOperation(client, ref, { ...FAST_POLL, until: 'cancelled' })).status).toBe('cancelled');
    expect((await pollFailure(waitForOperation(client, ref, FAST_POLL))).status).toBe('cancelled');
  });

  it('refuses to finalize or cancel what is not a draft, and to finalize past the deadline', async () => {
    const { channel, wallet } = await setup();
    const refOf = (operation: Operation) => ({ channel_id: channel.channel_id, operation_id: operation.operation_id });
    const signed = { signature: SIGNATURE, digest: DIGEST };

    const executed = await createOperation(client, channel.channel_id, operationBody(wallet, '20', { signature: SIGNATURE }));
    const notFinalizable = await apiError(finalizeOperation(client, refOf(executed), signed));
    expect([notFinalizable.status, notFinalizable.type, notFinalizable.code]).toEqual([409, 'CONFLICT', 'OPERATION_NOT_FINALIZABLE']);
    const notCancellable = await apiError(cancelOperation(client, refOf(executed)));
    expect(notCancellable.code).toBe('OPERATION_NOT_CANCELLABLE');
    sandbox.advance(2_000);
    expect((await getOperation(client, refOf(executed))).status).toBe('confirmed');
    expect((await apiError(finalizeOperation(client, refOf(executed), signed))).code).toBe('OPERATION_NOT_FINALIZABLE');
    expect((await apiError(cancelOperation(client, refOf(executed)))).code).toBe('OPERATION_NOT_CANCELLABLE');

    const cancelledDraft = await createOperation(client, channel.channel_id, operationBody(wallet, '21'));
    await cancelOperation(client, refOf(cancelledDraft));
    expect((await apiError(finalizeOperation(client, refOf(cancelledDraft), signed))).code).toBe('OPERATION_NOT_FINALIZABLE');
    expect((await apiError(cancelOperation(client, refOf(cancelledDraft)))).code).toBe('OPERATION_NOT_CANCELLABLE');

    const finalized = await executeWithDraft(client, channel.channel_id, operationBody(wallet, '22'), () => signed);
    expect((await apiError(finalizeOperation(client, refOf(finalized), signed))).code).toBe('OPERATION_NOT_FINALIZABLE');

    const late = executeWithDraft(client, channel.channel_id, operationBody(wallet, '23', { deadline: nowSeconds() + 1 }), () => {
      sandbox.advance(2_000);
      return signed;
    });
    const lateFailure = await late.then(
      () => expect.unreachable('the finalize past the deadline resolved'),
      (error: unknown) => error as DraftOperationError,
    );
    expect(lateFailure).toBeInstanceOf(DraftOperationError);
    const elapsed = await apiError(Promise.reject(lateFailure.cause));
    expect([elapsed.status, elapsed.code]).toEqual([409, 'OPERATION_DEADLINE_ELAPSED']);
    const [expiredDraft] = (await unwrap(client.GET('/channels/{channel_id}/operations', { params: { path: { channel_id: channel.channel_id }, query: { status: ['expired'] } } }))).data;
    expect(expiredDraft?.wallet_operation_id).toBe('23');
    expect((await apiError(finalizeOperation(client, refOf(expiredDraft!), signed))).code).toBe('OPERATION_DEADLINE_ELAPSED');
    expect((await apiError(cancelOperation(client, refOf(expiredDraft!)))).code).toBe('OPERATION_NOT_CANCELLABLE');
    expect(await statusEvents(channel.channel_id, 'operation.status', 'operation_id', expiredDraft!.operation_id)).toEqual(['pending_signature', 'expired']);

    const mixed = await apiError(
      client
        .PATCH('/channels/{channel_id}/operations/{operation_id}', {
          params: { path: refOf(finalized) },
          body: { status: 'cancelled', signature: SIGNATURE } as never,
        })
        .then(unwrap),
    );
    expect([mixed.status, mixed.type]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('deduplicates on wallet_operation_id: the same body is the same operation, another body is 409 IDEMPOTENCY_KEY_MISMATCH', async () => {
    const { channel, wallet } = await setup();
    const body = operationBody(wallet, '42', { signature: SIGNATURE });
    const first = await createOperation(client, channel.channel_id, body);
    sandbox.advance(150);
    const retry = await createOperation(client, channel.channel_id, { ...body, wallet_operation_id: '0042' });
    expect(retry.operation_id).toBe(first.operation_id);
    expect(retry.status).toBe('sending'); // the operation as it is now
    const mismatch = await apiError(createOperation(client, channel.channel_id, { ...body, deadline: 99 }));
    expect([mismatch.status, mismatch.type, mismatch.code]).toEqual([409, 'CONFLICT', 'IDEMPOTENCY_KEY_MISMATCH']);
    const listed = await unwrap(client.GET('/channels/{channel_id}/operations', { params: { path: { channel_id: channel.channel_id } } }));
    expect(listed.data).toHaveLength(1);
  });

  it('refuses operations from an archived wallet (409 WALLET_ALREADY_ARCHIVED) or an unknown one (404 WALLET_NOT_FOUND)', async () => {
    const { channel, wallet } = await setup();
    await unwrap(client.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } }, body: { status: 'archived' } }));
    const archived = await apiError(createOperation(client, channel.channel_id, operationBody(wallet, '1', { signature: SIGNATURE })));
    expect([archived.status, archived.type, archived.code]).toEqual([409, 'CONFLICT', 'WALLET_ALREADY_ARCHIVED']);
    const unknown = await apiError(createOperation(client, channel.channel_id, operationBody({ ...wallet, address: OWNER }, '1')));
    expect([unknown.status, unknown.code]).toEqual([404, 'WALLET_NOT_FOUND']);
    const missing = await apiError(getOperation(client, { channel_id: channel.channel_id, operation_id: crypto.randomUUID() }));
    expect([missing.status, missing.code]).toEqual([404, 'OPERATION_NOT_FOUND']);
  });

  it('lists operations with their filters', async () => {
    const { channel, wallet } = await setup();
    const other = await newWallet('other-wallet');
    const executed = await createOperation(client, channel.channel_id, operationBody(wallet, '1', { signature: SIGNATURE }));
    const draft = await createOperation(client, channel.channel_id, operationBody(other, '1'));
    const ids = async (query: Record<string, unknown>) =>
      (await unwrap(client.GET('/channels/{channel_id}/operations', { params: { path: { channel_id: channel.channel_id }, query: query as never } }))).data.map(
        (operation) => operation.operation_id,
      );
    expect(await ids({})).toEqual([executed.operation_id, draft.operation_id]);
    expect(await ids({ status: ['pending_signature'] })).toEqual([draft.operation_id]);
    expect(await ids({ wallet_id: other.wallet_id })).toEqual([draft.operation_id]);
    expect(await ids({ address: wallet.address.toUpperCase().replace('0X', '0x') })).toEqual([executed.operation_id]);
    expect(await ids({ signer_subject_type: 'api_key' })).toEqual([executed.operation_id]);
    expect(await ids({ initiator_subject_id: executed.initiator!.subject_id, chain_environment: 'testnet' })).toHaveLength(2);
    expect(await ids({ chain_environment: 'mainnet' })).toEqual([]);
  });

  it('publishes a watcher.event on the watcher’s channel when a confirmed operation calls its contract', async () => {
    const { channel, wallet } = await setup();
    const watching = await newChannel();
    const watcher = await newWatcher(watching, 'token-watcher');
    sandbox.advance(500);
    await createOperation(client, channel.channel_id, operationBody(wallet, '1', { signature: SIGNATURE }));
    sandbox.advance(2_000);
    const found = await search(watching.channel_id, { type: ['watcher.event'], event_name: 'SubscriptionRequested', service: ['dta'], address: [TOKEN] });
    expect(found.events).toHaveLength(1);
    expect(found.events[0]!.payload).toMatchObject({ watcher_id: watcher.watcher_id, chain_selector: SEPOLIA });
    const verifiable = JSON.parse(atob((found.events[0]!.payload as { verifiable_event: string }).verifiable_event));
    expect(verifiable).toMatchObject({ event: 'SubscriptionRequested', address: TOKEN });
  });
});

describe('queries', () => {
  it('completes a query, seen by polling and by events, with a verifiable result', async () => {
    const channel = await newChannel();
    const created = await createQuery(client, channel.channel_id, queryBody('balance-1'));
    expect(created.status).toBe('accepted');
    const ref = { channel_id: channel.channel_id, query_id: created.query_id };
    const stepping = steppingClient();
    const statuses: string[] = [];
    const completed = await waitForQuery(stepping, ref, { ...FAST_POLL, onStatus: (status) => statuses.push(status) });
    expect(statuses).toEqual(['accepted', 'sending', 'sent', 'completed']);
    expect(completed).toMatchObject({ status: 'completed', target: TOKEN, proof: { alg: 'ocr3' }, completed_at: expect.any(Number) });
    expect(JSON.parse(atob(completed.verifiable_result!))).toMatchObject({ query_id: created.query_id, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const event = await waitForQueryEvent(stepping, ref, { ...FAST_EVENTS, fromOffset: 0 });
    expect(event.payload).toMatchObject({ query_id: created.query_id, status: 'completed', verifiable_result: completed.verifiable_result });
  });

  it('fails a query of the failing address and expires one that gets no result, seen by both waits', async () => {
    const channel = await newChannel();
    const failing = await createQuery(client, channel.channel_id, queryBody('fails', FAILING));
    const silent = await createQuery(client, channel.channel_id, queryBody('silent', SILENT));
    const stepping = steppingClient(200);
    const failRef = { channel_id: channel.channel_id, query_id: failing.query_id };
    const silentRef = { channel_id: channel.channel_id, query_id: silent.query_id };
    expect((await pollFailure(waitForQuery(stepping, failRef, FAST_POLL))).status).toBe('failed');
    expect((await pollFailure(waitForQueryEvent(stepping, failRef, { ...FAST_EVENTS, fromOffset: 0 }))).status).toBe('failed');
    const expired = await pollFailure(waitForQuery(stepping, silentRef, FAST_POLL));
    expect(expired.status).toBe('expired');
    const query = await getQuery(client, silentRef);
    expect(query.expired_at).toBe(query.expires_at);
    expect(sandbox.clock.now()).toBeGreaterThanOrEqual(query.expires_at! * 1000);
    expect((await pollFailure(waitForQueryEvent(stepping, silentRef, { ...FAST_EVENTS, fromOffset: 0 }))).status).toBe('expired');
  });

  it('deduplicates on idempotency_key per channel: same body, same query; another body, 409', async () => {
    const channel = await newChannel();
    const other = await newChannel();
    const first = await createQuery(client, channel.channel_id, queryBody('key-1'));
    sandbox.advance(1_000);
    const retry = await createQuery(client, channel.channel_id, queryBody('key-1'));
    expect(retry).toMatchObject({ query_id: first.query_id, status: 'completed' });
    const mismatch = await apiError(createQuery(client, channel.channel_id, { ...queryBody('key-1'), chain_selector: BASE_MAINNET }));
    expect([mismatch.status, mismatch.code]).toEqual([409, 'IDEMPOTENCY_KEY_MISMATCH']);
    const elsewhere = await createQuery(client, other.channel_id, queryBody('key-1'));
    expect(elsewhere.query_id).not.toBe(first.query_id);
    const missing = await apiError(getQuery(client, { channel_id: other.channel_id, query_id: first.query_id }));
    expect([missing.status, missing.code]).toEqual([404, 'QUERY_NOT_FOUND']);
    const listed = await unwrap(
      client.GET('/channels/{channel_id}/queries', { params: { path: { channel_id: channel.channel_id }, query: { status: ['completed'], query_kind: ['evm_call'] } } }),
    );
    expect(listed.data.map((query) => query.query_id)).toEqual([first.query_id]);
  });
});

describe('events', () => {
  it('polls newest first without an offset and oldest first from one, and reads one event by ID', async () => {
    const channel = await newChannel();
    for (let index = 0; index < 3; index++) await newWatcher(channel, `watcher-${index}`);
    const path = { channel_id: channel.channel_id };
    const latest = await unwrap(client.GET('/channels/{channel_id}/events', { params: { path, query: { limit: 2 } } }));
    expect(latest.events.map((event) => event.headers.offset)).toEqual([2, 1]);
    expect(latest.has_more).toBe(true);
    const from = await unwrap(client.GET('/channels/{channel_id}/events', { params: { path, query: { offset: 1, limit: 5 } } }));
    expect(from.events.map((event) => event.headers.offset)).toEqual([1, 2]);
    expect(from.has_more).toBe(false);
    const one = await unwrap(
      client.GET('/channels/{channel_id}/events/search/{event_id}', { params: { path: { ...path, event_id: from.events[0]!.event_id! } } }),
    );
    expect(one).toEqual(from.events[0]);
    const missing = await apiError(
      client.GET('/channels/{channel_id}/events/search/{event_id}', { params: { path: { ...path, event_id: crypto.randomUUID() } } }).then(unwrap),
    );
    expect([missing.status, missing.type, missing.code]).toEqual([404, 'NOT_FOUND', undefined]);
  });

  it('searches with every filter, and refuses a filter used with a kind it does not apply to', async () => {
    const startSecond = nowSeconds();
    const channel = await newChannel();
    const wallet = await newWallet('event-wallet', { status_channel_id: channel.channel_id });
    const watcher = await newWatcher(channel, 'event-watcher');
    sandbox.advance(2_000); // wallet and watcher settle in the first two seconds
    const operation = await createOperation(client, channel.channel_id, operationBody(wallet, '5', { signature: SIGNATURE }));
    sandbox.advance(2_000);
    const query = await createQuery(client, channel.channel_id, queryBody('search-query'));
    const otherQuery = await createQuery(client, channel.channel_id, queryBody('search-query-2'));
    sandbox.advance(3_000);
    const mainnetChannel = await newChannel();
    await newWallet('mainnet-wallet', { chain_selector: BASE_MAINNET, status_channel_id: mainnetChannel.channel_id });
    const id = channel.channel_id;
    const kinds = async (filters: Record<string, unknown>) => (await search(id, filters)).events.map((event) => event.headers.type);
    const statusesOf = async (filters: Record<string, unknown>) =>
      (await search(id, filters)).events.map((event) => (event.payload as { status: string }).status);

    expect(new Set(await kinds({}))).toEqual(new Set(['wallet.status', 'watcher.status', 'operation.status', 'query.status', 'watcher.event']));
    expect(new Set(await kinds({ type: ['query.status', 'wallet.status'] }))).toEqual(new Set(['query.status', 'wallet.status']));
    expect(await statusesOf({ type: ['operation.status'], operation_id: operation.operation_id, offset: 0 })).toEqual([
      'accepted',
      'sending',
      'sent',
      'broadcasting',
      'confirmed_latest',
      'confirmed_safe',
      'confirmed',
    ]);
    expect(await statusesOf({ type: ['operation.status'], wallet_operation_id: '005', status: ['confirmed'] })).toEqual(['confirmed']);
    expect(await statusesOf({ type: ['operation.status'], address: [wallet.address], status: ['sent'] })).toEqual(['sent']);
    expect(await statusesOf({ type: ['wallet.status'], wallet_id: wallet.wallet_id, offset: 0 })).toEqual(['pending', 'deploying', 'deployed']);
    expect(await statusesOf({ type: ['watcher.status'], watcher_id: watcher.watcher_id, offset: 0 })).toEqual(['pending', 'active']);
    expect(await kinds({ watcher_id: watcher.watcher_id })).toEqual(expect.arrayContaining(['watcher.status', 'watcher.event']));
    expect(await kinds({ type: ['watcher.event'], event_name: 'SubscriptionRequested', service: ['dta'] })).toEqual(['watcher.event']);
    expect(await kinds({ type: ['watcher.event'], event_name: 'Other' })).toEqual([]);
    // The spec: the service does not filter query payloads by query_id.
    const byQueryId = (await search(id, { type: ['query.status'], query_id: query.query_id })).events.map((event) => (event.payload as { query_id: string }).query_id);
    expect(new Set(byQueryId)).toEqual(new Set([query.query_id, otherQuery.query_id]));
    expect((await search(id, { chain_selector: [BASE_MAINNET] })).events).toEqual([]);
    expect((await search(id, { chain_environment: 'mainnet' })).events).toEqual([]);
    expect((await search(mainnetChannel.channel_id, { chain_environment: 'mainnet' })).events.length).toBeGreaterThan(0);
    const all = (await search(id, { limit: 200 })).events;
    expect((await search(id, { 'created.lt': startSecond, limit: 200 })).events).toEqual(all.filter((event) => event.payload.timestamp < startSecond));
    expect((await search(id, { 'created.gte': startSecond, limit: 200 })).events).toEqual(all.filter((event) => event.payload.timestamp >= startSecond));
    expect((await search(id, { 'created.gt': startSecond + 1, 'created.lte': startSecond + 2, limit: 200 })).events).toEqual(
      all.filter((event) => event.payload.timestamp > startSecond + 1 && event.payload.timestamp <= startSecond + 2),
    );
    expect(new Set(await kinds({ 'created.lt': startSecond + 2, limit: 200 }))).toEqual(new Set(['wallet.status', 'watcher.status']));
    expect(new Set(await kinds({ 'created.gte': startSecond + 4, limit: 200 }))).toEqual(new Set(['query.status']));

    for (const misuse of [
      { type: ['watcher.status'], query_id: query.query_id },
      { type: ['watcher.event'], status: ['active'] },
      { type: ['query.status'], address: [wallet.address] },
      { type: ['operation.status'], wallet_id: wallet.wallet_id },
      { type: ['nope'] },
      { watcher_id: 'not-a-uuid' },
      { 'created.gt': -1 },
    ]) {
      const error = await apiError(client.GET('/channels/{channel_id}/events/search', { params: { path: { channel_id: id }, query: misuse as never } }).then(unwrap));
      expect([JSON.stringify(misuse), error.status]).toEqual([JSON.stringify(misuse), 400]);
    }
  });
});

describe('reset', () => {
  it('forgets everything but the seed, and nothing scheduled before the reset acts after it', async () => {
    const channel = await newChannel('before-reset');
    const wallet = await newWallet('before-reset', { status_channel_id: channel.channel_id });
    await createOperation(client, channel.channel_id, operationBody(wallet, '1', { signature: SIGNATURE }));
    sandbox.reset();
    const fresh = await newChannel('before-reset'); // the name is free again
    sandbox.advance(5_000);
    expect((await unwrap(client.GET('/wallets'))).data).toEqual([]);
    expect((await unwrap(client.GET('/channels'))).data.map((c) => c.channel_id)).toEqual([fresh.channel_id]);
    expect(await allEvents(fresh.channel_id)).toEqual([]);
  });
});

// Last in the file (tests run in order): what the tests above had the sandbox answer.
describe('coverage', () => {
  it('answered every operation of the spec with a success', () => {
    const unanswered = operationIdsOf('channels').filter((id) => ![...(answered.get(id) ?? [])].some((status) => status < 300));
    expect(unanswered).toEqual([]);
  });
});
