// Seeding the channels sandbox with a user's own wallets and channels
// (`createSandbox({ seed })`), through the SDK's real client: the records are
// there from the start under the user's names and IDs, behave as records the
// API created (names stay unique, operations run on them), and `reset()`
// brings them back as seeded. Bad seed data is a SandboxUsageError naming the
// field, at createSandbox(), never a sandbox that quietly lacks a record.
import { afterEach, describe, expect, it } from 'vitest';
import { createChannelsClient, createOperation, unwrap, type ChannelsClient, type ChannelsComponents } from '../../src/channels/index.js';
import { createSandbox, SandboxUsageError, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { sandboxValidator } from '../support/sandbox-validator.js';
import { apiError } from '../support/api-error.js';

type CreateWallet = ChannelsComponents['schemas']['CreateWallet'];

const SEPOLIA = '16015286601757825753';
const OWNER = '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2';
const TOKEN = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
const TREASURY_ID = '2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d40';
const PAYOUTS_ID = '7a1f0c2e-9b8d-4e6f-a5c4-3b2a1d0e9f80';

const treasury: CreateWallet & { wallet_id: string } = {
  wallet_id: TREASURY_ID,
  name: 'treasury',
  description: 'the main treasury',
  wallet_owner_address: OWNER,
  chain_selector: SEPOLIA,
  wallet_type: 'ecdsa',
};

let sandbox: Sandbox | undefined;

afterEach(() => {
  if (sandbox === undefined) return;
  const violations = [...sandbox.violations];
  sandbox.close();
  sandbox = undefined;
  expect(violations).toEqual([]);
});

function start(seed: SandboxOptions['seed']): { sandbox: Sandbox; channels: ChannelsClient } {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator(), seed });
  return { sandbox, channels: createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch, retry: false }) };
}


const walletIds = async (channels: ChannelsClient) => (await unwrap(channels.GET('/wallets'))).data.map((wallet) => wallet.wallet_id);

describe('seeded wallets and channels', () => {
  it('a seeded wallet is listed, found by its ID, deployed, and keeps its name to itself', async () => {
    const { channels } = start({ channels: { wallets: [treasury] } });
    const listed = await unwrap(channels.GET('/wallets'));
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ wallet_id: TREASURY_ID, name: 'treasury', description: 'the main treasury', status: 'deployed', chain_selector: SEPOLIA });

    const found = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: TREASURY_ID } } }));
    expect(found).toEqual(listed.data[0]);

    const { wallet_id: _, ...sameName } = treasury;
    const taken = await apiError(unwrap(channels.POST('/wallets', { body: sameName })));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'WALLET_ALREADY_EXISTS' });
  });

  it('a seeded channel is found by its ID and carries operations of a seeded wallet to confirmed', async () => {
    const { sandbox, channels } = start({
      channels: { channels: [{ channel_id: PAYOUTS_ID, name: 'payouts' }], wallets: [{ ...treasury, status_channel_id: PAYOUTS_ID }] },
    });
    const channel = await unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id: PAYOUTS_ID } } }));
    expect(channel).toMatchObject({ channel_id: PAYOUTS_ID, name: 'payouts', status: 'active' });
    const taken = await apiError(unwrap(channels.POST('/channels', { body: { name: 'payouts' } })));
    expect([taken.status, (taken.body as { code?: string }).code]).toEqual([409, 'CHANNEL_ALREADY_EXISTS']);

    const wallet = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: TREASURY_ID } } }));
    expect(wallet.status_channel_id).toBe(PAYOUTS_ID);
    const operation = await createOperation(channels, PAYOUTS_ID, {
      chain_selector: SEPOLIA,
      address: wallet.address,
      wallet_operation_id: '1',
      deadline: 0,
      signature: `0x${'11'.repeat(65)}`,
      transactions: [{ to: TOKEN, value: '0', data: '0x' }],
    });
    sandbox.advance(10_000);
    const done = await unwrap(
      channels.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id: PAYOUTS_ID, operation_id: operation.operation_id } } }),
    );
    expect(done.status).toBe('confirmed');
  });

  it('reset() goes back to the seeded records, as seeded, and drops what the test made', async () => {
    const { sandbox, channels } = start({ channels: { wallets: [treasury], channels: [{ channel_id: PAYOUTS_ID, name: 'payouts' }] } });
    await unwrap(channels.POST('/wallets', { body: { ...treasury, wallet_id: undefined, name: 'made by the test' } as CreateWallet }));
    await unwrap(channels.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: TREASURY_ID } }, body: { name: 'renamed' } }));
    await unwrap(channels.PATCH('/channels/{channel_id}', { params: { path: { channel_id: PAYOUTS_ID } }, body: { status: 'archived' } }));
    expect(await walletIds(channels)).toHaveLength(2);

    sandbox.reset();
    expect(await walletIds(channels)).toEqual([TREASURY_ID]);
    const wallet = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: TREASURY_ID } } }));
    expect(wallet.name).toBe('treasury');
    const channel = await unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id: PAYOUTS_ID } } }));
    expect(channel.status).toBe('active');
  });

  it('gives a seeded record without an ID one, the same after every reset()', async () => {
    const { wallet_id: _, ...withoutId } = treasury;
    const { sandbox, channels } = start({ channels: { wallets: [withoutId] } });
    const [id] = await walletIds(channels);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    sandbox.reset();
    expect(await walletIds(channels)).toEqual([id]);
  });

  it('keeps its own copy: changing the seed object afterwards changes nothing', async () => {
    const wallet = { ...treasury };
    const { sandbox, channels } = start({ channels: { wallets: [wallet] } });
    wallet.name = 'changed afterwards';
    sandbox.reset();
    expect((await unwrap(channels.GET('/wallets'))).data.map((w) => w.name)).toEqual(['treasury']);
  });

  it('seeds archived and failed wallets, which lists leave out by default as they do any', async () => {
    const { channels } = start({
      channels: {
        wallets: [
          { ...treasury, status: 'archived' },
          { ...treasury, wallet_id: '3d9f5b7c-2e4a-4c6b-8d8f-9a1b2c3d4e50', name: 'broken', status: 'failed' },
        ],
      },
    });
    expect(await walletIds(channels)).toEqual(['3d9f5b7c-2e4a-4c6b-8d8f-9a1b2c3d4e50']);
    const archived = await unwrap(channels.GET('/wallets', { params: { query: { status: ['archived'] } } }));
    expect(archived.data.map((w) => w.wallet_id)).toEqual([TREASURY_ID]);
  });
});

describe('bad seed data', () => {
  const refused: [string, unknown, RegExp][] = [
    ['a seed that is not an object', 'channels', /seed: expected an object/],
    ['an API the sandbox cannot seed', { streams: {} }, /seed\.streams/],
    ['an unknown kind of channels record', { channels: { watchers: [] } }, /seed\.channels\.watchers/],
    ['wallets that are not an array', { channels: { wallets: treasury } }, /seed\.channels\.wallets: expected an array/],
    ['a wallet without a name', { channels: { wallets: [{ ...treasury, name: undefined }] } }, /seed\.channels\.wallets\[0\]\.name/],
    ['a wallet ID that is not a UUID', { channels: { wallets: [{ ...treasury, wallet_id: 'treasury-1' }] } }, /seed\.channels\.wallets\[0\]\.wallet_id/],
    ['a wallet field the API does not have', { channels: { wallets: [{ ...treasury, balance: 1 }] } }, /seed\.channels\.wallets\[0\]\.balance/],
    ['a wallet status that is not settled', { channels: { wallets: [{ ...treasury, status: 'deploying' }] } }, /seed\.channels\.wallets\[0\]\.status/],
    ['a network the sandbox does not have', { channels: { wallets: [{ ...treasury, chain_selector: '1' }] } }, /seed\.channels\.wallets\[0\]\.chain_selector/],
    ['two wallets of one name', { channels: { wallets: [treasury, { ...treasury, wallet_id: undefined }] } }, /seed\.channels\.wallets\[1\]\.name: .*treasury/],
    ['two wallets of one ID', { channels: { wallets: [treasury, { ...treasury, name: 'other' }] } }, /seed\.channels\.wallets\[1\]\.wallet_id/],
    ['a status channel that is not seeded', { channels: { wallets: [{ ...treasury, status_channel_id: PAYOUTS_ID }] } }, /seed\.channels\.wallets\[0\]\.status_channel_id/],
    ['a channel without a name', { channels: { channels: [{ channel_id: PAYOUTS_ID }] } }, /seed\.channels\.channels\[0\]\.name/],
    ['two channels of one name', { channels: { channels: [{ name: 'payouts' }, { name: 'payouts' }] } }, /seed\.channels\.channels\[1\]\.name/],
  ];

  it.each(refused)('refuses %s with a SandboxUsageError naming the field', (_what, seed, names) => {
    let caught: unknown;
    try {
      sandbox = createSandbox({ seed: seed as SandboxOptions['seed'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SandboxUsageError);
    expect((caught as Error).message).toMatch(names);
  });
});
