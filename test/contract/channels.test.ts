import { describe, expect, it } from 'vitest';
import {
  ApiError,
  collect,
  createOperation,
  createQuery,
  executeWithDraft,
  getOperation,
  isChannelsError,
  paginate,
  PaginationCycleError,
  PollFailedError,
  unwrap,
  waitForOperation,
  waitForQuery,
  waitForWatcherArchive,
  type ChannelsClient,
} from '../../src/channels/index.js';
import { channelsClient, preferring } from './support/clients.js';
import { describeEveryOperation } from './support/every-operation.js';

describeEveryOperation('channels', channelsClient);

const CHANNEL = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const OPERATION = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const operationBody = {
  chain_selector: '16015286601757825753',
  address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  wallet_operation_id: '42',
  deadline: 1_900_000_000,
  transactions: [{ to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', value: '0', data: '0x' }],
};

const preferringExample = (prefer: string): ChannelsClient => preferring(channelsClient(), prefer);

describe('channels flows against Prism', () => {
  it('lists networks and paginates wallets through the typed client', async () => {
    const channels = channelsClient();
    const networks = await unwrap(channels.GET('/networks'));
    expect(networks.data.length).toBeGreaterThan(0);
    // The stateless mock answers the same example page (has_more: true) for every offset:
    // the paginator yields it once, then refuses to loop.
    const wallets: { wallet_id: string }[] = [];
    const error = await (async () => {
      for await (const wallet of paginate(channels, '/wallets', { pageSize: 10, maxItems: 30 })) wallets.push(wallet);
    })().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(wallets.length).toBeGreaterThan(0);
    for (const wallet of wallets) expect(wallet.wallet_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('creates a draft operation, signs it and finalizes it', async () => {
    const draft = await createOperation(preferringExample('example=OperationPendingSignature'), CHANNEL, operationBody);
    expect(draft.status).toBe('pending_signature');
    const signed: string[] = [];
    const digest = `0x${'d1'.repeat(32)}`;
    // Prism answers the draft for the POST, then the accepted example for the PATCH.
    const client = preferring(channelsClient(), (request) =>
      request.method === 'POST' ? 'example=OperationPendingSignature' : 'example=OperationAccepted',
    );
    const accepted = await executeWithDraft(client, CHANNEL, operationBody, (d) => {
      signed.push(d.operation_id);
      return { signature: `0x${'11'.repeat(65)}`, digest };
    });
    expect(signed).toEqual([draft.operation_id]);
    expect(accepted.status).toBe('accepted');
  });

  it('a finalize past the deadline comes back as a typed 409 OPERATION_DEADLINE_ELAPSED', async () => {
    const error = await unwrap(
      channelsClient().PATCH('/channels/{channel_id}/operations/{operation_id}', {
        params: { path: { channel_id: CHANNEL, operation_id: OPERATION } },
        body: { status: 'accepted', signature: `0x${'11'.repeat(65)}`, digest: `0x${'d1'.repeat(32)}` },
        headers: { Prefer: 'code=409, example=OperationDeadlineElapsed' },
      }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isChannelsError(error, 'CONFLICT', 'OPERATION_DEADLINE_ELAPSED')).toBe(true);
  });

  it('Prefer: code=404 gives a NOT_FOUND ApiError', async () => {
    const error = await getOperation(preferringExample('code=404'), { channel_id: CHANNEL, operation_id: OPERATION }).catch((e) => e);
    expect(error).toMatchObject({ status: 404, type: 'NOT_FOUND' });
  });

  it('a missing Authorization header gives 401 as a typed ApiError', async () => {
    const error = await unwrap(channelsClient().GET('/wallets', { headers: { Authorization: null as unknown as string } })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
  });

  it('an invalid parameter is rejected', async () => {
    const error = await unwrap(channelsClient().GET('/wallets', { params: { query: { limit: 100_000 } } })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
  });

  it('polls an operation to confirmed and reports a terminal failure', async () => {
    const ref = { channel_id: CHANNEL, operation_id: OPERATION };
    const confirmed = await waitForOperation(preferringExample('example=OperationConfirmed'), ref, { intervalMs: 1 });
    expect(confirmed.status).toBe('confirmed');
    const failed = await waitForOperation(preferringExample('example=OperationFailed'), ref, { intervalMs: 1 }).catch((e) => e);
    expect(failed).toBeInstanceOf(PollFailedError);
  });

  it('creates a query with a generated idempotency key and polls it', async () => {
    const accepted = await createQuery(channelsClient(), CHANNEL, {
      query_kind: 'evm_call',
      chain_selector: '16015286601757825753',
      params: { contract_address: operationBody.address, call_data: '0x70a08231', block_selection: { type: 'latest' } },
    });
    expect(accepted.status).toBe('accepted');
    const ref = { channel_id: CHANNEL, query_id: accepted.query_id };
    expect((await waitForQuery(preferringExample('example=QueryCompleted'), ref, { intervalMs: 1 })).status).toBe('completed');
    await expect(waitForQuery(preferringExample('example=QueryExpired'), ref, { intervalMs: 1 })).rejects.toBeInstanceOf(PollFailedError);
  });

  it('waits for a watcher archive to settle', async () => {
    const ref = { channel_id: CHANNEL, watcher_id: OPERATION };
    expect((await waitForWatcherArchive(preferringExample('example=WatcherArchived'), ref, { intervalMs: 1 })).status).toBe('archived');
    await expect(waitForWatcherArchive(preferringExample('example=WatcherArchiveFailed'), ref, { intervalMs: 1 })).rejects.toMatchObject({
      status: 'archive_failed',
    });
  });
});
