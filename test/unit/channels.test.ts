import { describe, expect, it } from 'vitest';
import {
  ApiError,
  archiveWatcher,
  cancelOperation,
  collect,
  ConfigurationError,
  createChannelsClient,
  createOperation,
  createQuery,
  DraftOperationError,
  executeWithDraft,
  isChannelsError,
  paginate,
  PollFailedError,
  waitForOperation,
  waitForOperationEvent,
  waitForQuery,
  waitForQueryEvent,
  waitForWatcherArchive,
  waitForWatcherArchiveEvent,
  type CreateOperationBody,
} from '../../src/channels/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';

const KEY = 'crec_secret_key_do_not_log';
const CH = '6a1f0c2e-4b3d-4e5f-8a9b-0c1d2e3f4a5b';
const OP = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const DIGEST = `0x${'d1'.repeat(32)}`;
const SIGNED = `0x${'5e'.repeat(65)}`;

function channelsWith(...answers: Parameters<typeof fakeFetch>) {
  const fake = fakeFetch(...answers);
  const channels = createChannelsClient({ apiKey: KEY, fetch: fake.fetch, retry: { baseDelayMs: 0 } });
  return { fake, channels };
}

const operation = (status: string, extra: Record<string, unknown> = {}) => ({
  operation_id: OP,
  status,
  chain_selector: '16015286601757825753',
  address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  wallet_operation_id: '42',
  deadline: 1_900_000_000,
  transactions: [],
  signature: null,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_000,
  ...extra,
});

const operationBody: CreateOperationBody = {
  chain_selector: '16015286601757825753',
  address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  wallet_operation_id: '42',
  deadline: 1_900_000_000,
  transactions: [{ to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', value: '0', data: '0x' }],
};

describe('createChannelsClient', () => {
  it('sends Authorization: Apikey on every request to the default base URL', async () => {
    const { fake, channels } = channelsWith(json(200, { data: [], has_more: false }));
    await channels.GET('/networks');
    expect(fake.sent[0]!.url).toBe('https://cre-connect.api.chain.link/v1/networks');
    expect(fake.sent[0]!.headers.get('authorization')).toBe(`Apikey ${KEY}`);
    expect(fake.sent[0]!.headers.get('user-agent')).toMatch(/^service-sdk-ts\//);
  });

  it('rejects a missing key naming the option', () => {
    expect(() => createChannelsClient({ apiKey: '' })).toThrow(ConfigurationError);
    expect(() => createChannelsClient(undefined as never)).toThrow(ConfigurationError);
    expect(() => createChannelsClient({ apiKey: KEY, timeoutMs: -5 })).toThrow(/`timeoutMs`/);
    expect(() => createChannelsClient({ apiKey: KEY, retry: { retries: -1 } })).toThrow(/`retry`/);
  });
});

describe('errors', () => {
  it('a 409 becomes an ApiError narrowed by isChannelsError', async () => {
    const { channels } = channelsWith(
      json(409, { type: 'CONFLICT', code: 'OPERATION_NOT_CANCELLABLE', message: 'operation is not cancellable' }),
    );
    const error = await cancelOperation(channels, { channel_id: CH, operation_id: OP }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isChannelsError(error, 'CONFLICT', 'OPERATION_NOT_CANCELLABLE')).toBe(true);
    expect(isChannelsError(error, 'CONFLICT', 'OPERATION_DEADLINE_ELAPSED')).toBe(false);
    expect(error.operation).toMatchObject({ method: 'PATCH', path: '/channels/{channel_id}/operations/{operation_id}', urlPath: expect.stringMatching(/\/channels\/[^/]+\/operations\/[^/]+$/) });
    expect(error.message).not.toContain(KEY);
  });

  it('an HTML 502 from a proxy is still an ApiError with the status', async () => {
    const { channels } = channelsWith(
      ...Array.from({ length: 3 }, () => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })),
    );
    const error = await collect(paginate(channels, '/wallets')).catch((e) => e);
    expect(error).toMatchObject({ status: 502, type: 'HTTP_502' });
  });
});

describe('paginate', () => {
  it('walks limit/offset pages while has_more', async () => {
    const { fake, channels } = channelsWith(
      json(200, { data: [{ wallet_id: 'a' }, { wallet_id: 'b' }], has_more: true }),
      json(200, { data: [{ wallet_id: 'c' }], has_more: false }),
    );
    const wallets = await collect(paginate(channels, '/wallets', { params: { query: { status: ['deployed', 'archived'] } }, pageSize: 2 }));
    expect(wallets.map((w) => w.wallet_id)).toEqual(['a', 'b', 'c']);
    const [first, second] = fake.sent.map((s) => new URL(s.url).searchParams);
    expect(first!.getAll('status')).toEqual(['deployed', 'archived']);
    expect([first!.get('offset'), first!.get('limit')]).toEqual(['0', '2']);
    expect([second!.get('offset'), second!.get('limit')]).toEqual(['2', '2']);
  });

  it('fills path parameters and stops at maxItems', async () => {
    const { fake, channels } = channelsWith(json(200, { data: [{ watcher_id: '1' }, { watcher_id: '2' }], has_more: true }));
    const watchers = await collect(paginate(channels, '/channels/{channel_id}/watchers', { params: { path: { channel_id: CH } }, maxItems: 1 }));
    expect(watchers).toHaveLength(1);
    expect(fake.sent[0]!.url).toContain(`/channels/${CH}/watchers?`);
  });

  it('moves the events stream by stream position, not by count', async () => {
    const event = (offset: number) => ({ headers: { type: 'query.status', offset, proofs: [] }, payload: {} });
    const { fake, channels } = channelsWith(
      json(200, { events: [event(100), event(105)], has_more: true }),
      json(200, { events: [event(106)], has_more: false }),
    );
    const events = await collect(paginate(channels, '/channels/{channel_id}/events', { params: { path: { channel_id: CH } } }));
    expect(events).toHaveLength(3);
    expect(fake.sent.map((s) => new URL(s.url).searchParams.get('offset'))).toEqual(['0', '106']);
  });
});

describe('operations and the draft flow', () => {
  it('retries createOperation (it carries wallet_operation_id) with the same body', async () => {
    const { fake, channels } = channelsWith(json(500, { type: 'INTERNAL_ERROR', message: 'x' }), json(201, operation('accepted')));
    const created = await createOperation(channels, CH, { ...operationBody, signature: '0xsig' });
    expect(created.status).toBe('accepted');
    expect(fake.sent).toHaveLength(2);
    expect(fake.sent[1]!.body).toBe(fake.sent[0]!.body);
  });

  it('never retries createWallet (no deduplication key)', async () => {
    const { fake, channels } = channelsWith(json(500, { type: 'INTERNAL_ERROR', message: 'x' }));
    const { response } = await channels.POST('/wallets', {
      body: { name: 'w', wallet_owner_address: operationBody.address, chain_selector: operationBody.chain_selector, wallet_type: 'ecdsa' },
    });
    expect(response.status).toBe(500);
    expect(fake.sent).toHaveLength(1);
  });

  it('reads the operation back when creation answers only a reference', async () => {
    const { fake, channels } = channelsWith(json(201, { operation_id: OP }), json(200, operation('accepted')));
    expect((await createOperation(channels, CH, operationBody)).status).toBe('accepted');
    expect(fake.sent[1]!.url).toContain(`/operations/${OP}`);
  });

  it('executeWithDraft: create without signature, sign the digest, finalize with status accepted', async () => {
    const { fake, channels } = channelsWith(
      json(201, operation('pending_signature', { digest: DIGEST })),
      json(200, operation('accepted', { digest: DIGEST, signature: '0xsigned' })),
    );
    const drafts: string[] = [];
    const accepted = await executeWithDraft(channels, CH, operationBody, async (draft) => {
      drafts.push(draft.status);
      return { signature: SIGNED, digest: DIGEST };
    });
    expect(accepted.status).toBe('accepted');
    expect(drafts).toEqual(['pending_signature']);
    expect(JSON.parse(fake.sent[0]!.body!)).not.toHaveProperty('signature');
    expect(fake.sent[1]!.method).toBe('PATCH');
    expect(JSON.parse(fake.sent[1]!.body!)).toEqual({ status: 'accepted', signature: SIGNED, digest: DIGEST });
  });

  it.each(['OPERATION_DEADLINE_ELAPSED', 'OPERATION_NOT_FINALIZABLE'] as const)('a refused finalize comes back as the ApiError %s, in a DraftOperationError naming the operation', async (code) => {
    const { channels } = channelsWith(
      json(201, operation('pending_signature', { digest: DIGEST })),
      json(409, { type: 'CONFLICT', code, message: 'refused' }),
    );
    const error = await executeWithDraft(channels, CH, operationBody, () => ({ signature: SIGNED, digest: DIGEST })).catch((e) => e);
    expect(error).toBeInstanceOf(DraftOperationError);
    expect(error).toMatchObject({ channel_id: CH, operation_id: OP, step: 'finalize', resumable: false });
    expect(isChannelsError(error.cause, 'CONFLICT', code)).toBe(true);
  });

  it('refuses to finalize an operation that can no longer be, naming it and the channel', async () => {
    const { fake, channels } = channelsWith(json(201, operation('cancelled')));
    const error = await executeWithDraft(channels, CH, operationBody, () => ({ signature: SIGNED, digest: DIGEST })).catch((e) => e);
    expect(error.name).toBe('NotADraftError');
    expect(error.message).toContain(OP);
    expect(error.message).toContain(CH);
    expect(fake.sent).toHaveLength(1);
  });

  it('cancels a draft with status cancelled', async () => {
    const { fake, channels } = channelsWith(json(200, operation('cancelled')));
    expect((await cancelOperation(channels, { channel_id: CH, operation_id: OP })).status).toBe('cancelled');
    expect(JSON.parse(fake.sent[0]!.body!)).toEqual({ status: 'cancelled' });
  });
});

describe('waitForOperation', () => {
  const ref = { channel_id: CH, operation_id: OP };
  const statuses = (...list: string[]) => list.map((s) => json(200, operation(s)));

  it.each([
    ['accepted', ['pending_signature', 'accepted'], 'accepted'],
    ['confirmed_latest', ['accepted', 'broadcasting', 'confirmed_latest'], 'confirmed_latest'],
    ['confirmed_safe', ['accepted', 'confirmed_latest', 'confirmed_safe'], 'confirmed_safe'],
    ['confirmed', ['accepted', 'confirmed_latest', 'confirmed_safe', 'confirmed'], 'confirmed'],
    ['confirmed_safe (single-stage network jumps to confirmed)', ['accepted', 'confirmed'], 'confirmed'],
    ['cancelled', ['pending_signature', 'cancelled'], 'cancelled'],
  ] as const)('resolves when waiting for %s', async (label, sequence, final) => {
    const until = label.split(' ')[0] as 'accepted';
    const { channels } = channelsWith(...statuses(...sequence));
    const seen: string[] = [];
    const result = await waitForOperation(channels, ref, { until, intervalMs: 1, onStatus: (s) => seen.push(s) });
    expect(result.status).toBe(final);
    expect(seen).toEqual([...new Set(sequence)]);
  });

  it.each(['cancelled', 'expired', 'failed'])('throws PollFailedError when it ends %s', async (status) => {
    const { channels } = channelsWith(...statuses('accepted', status));
    const error = await waitForOperation(channels, ref, { intervalMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(PollFailedError);
    expect(error.status).toBe(status);
  });

  it('waiting for cancelled fails when the operation went ahead', async () => {
    const { channels } = channelsWith(...statuses('pending_signature', 'accepted'));
    await expect(waitForOperation(channels, ref, { until: 'cancelled', intervalMs: 1 })).rejects.toBeInstanceOf(PollFailedError);
  });
});

describe('queries', () => {
  it('generates one UUID v4 idempotency key and keeps it across retries', async () => {
    const { fake, channels } = channelsWith(json(503, { type: 'INTERNAL_ERROR', message: 'x' }), json(202, { query_id: 'q1', status: 'accepted' }));
    const created = await createQuery(channels, CH, {
      query_kind: 'evm_call',
      chain_selector: '16015286601757825753',
      params: { contract_address: operationBody.address, call_data: '0x70a08231', block_selection: { type: 'latest' } },
    });
    const keys = fake.sent.map((s) => JSON.parse(s.body!).idempotency_key);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(created).toMatchObject({ query_id: 'q1', status: 'accepted', idempotency_key: keys[0] });
  });

  it('keeps a caller-given key', async () => {
    const { fake, channels } = channelsWith(json(202, { query_id: 'q1', status: 'accepted' }));
    await createQuery(channels, CH, {
      idempotency_key: 'mine',
      query_kind: 'evm_call',
      chain_selector: '1',
      params: { contract_address: operationBody.address, call_data: '0x', block_selection: { type: 'finalized' } },
    });
    expect(JSON.parse(fake.sent[0]!.body!).idempotency_key).toBe('mine');
  });

  it.each([
    [['accepted', 'sending', 'completed'], 'completed', null],
    [['accepted', 'failed'], 'failed', PollFailedError],
    [['accepted', 'sent', 'expired'], 'expired', PollFailedError],
  ] as const)('waits %j', async (sequence, final, errorClass) => {
    const { channels } = channelsWith(...sequence.map((status) => json(200, { query_id: 'q1', status })));
    const outcome = await waitForQuery(channels, { channel_id: CH, query_id: 'q1' }, { intervalMs: 1 }).catch((e) => e);
    if (errorClass) {
      expect(outcome).toBeInstanceOf(errorClass);
      expect(outcome.status).toBe(final);
    } else {
      expect(outcome.status).toBe(final);
    }
  });
});

describe('watchers', () => {
  const ref = { channel_id: CH, watcher_id: 'w1' };
  it('archives with PATCH status archived and waits for archived', async () => {
    const { fake, channels } = channelsWith(
      json(202, { watcher_id: 'w1', status: 'archiving' }),
      json(200, { watcher_id: 'w1', status: 'archiving' }),
      json(200, { watcher_id: 'w1', status: 'archived' }),
    );
    expect((await archiveWatcher(channels, ref)).status).toBe('archiving');
    expect(JSON.parse(fake.sent[0]!.body!)).toEqual({ status: 'archived' });
    expect((await waitForWatcherArchive(channels, ref, { intervalMs: 1 })).status).toBe('archived');
  });

  it('throws PollFailedError on archive_failed', async () => {
    const { channels } = channelsWith(json(200, { watcher_id: 'w1', status: 'archive_failed' }));
    await expect(waitForWatcherArchive(channels, ref, { intervalMs: 1 })).rejects.toMatchObject({ status: 'archive_failed' });
  });
});

describe('waiting on events', () => {
  const ev = (type: string, offset: number, payload: Record<string, unknown>) => ({ headers: { type, offset, proofs: [] }, payload });

  it('follows operation.status events of the operation until the stage, from the stream position', async () => {
    const { fake, channels } = channelsWith(
      json(200, { events: [ev('operation.status', 11, { operation_id: OP, status: 'accepted' }), ev('query.status', 10, { query_id: 'x', status: 'completed' })], has_more: false }),
      json(200, { events: [ev('operation.status', 12, { operation_id: 'other', status: 'confirmed' })], has_more: false }),
      json(200, { events: [ev('operation.status', 13, { operation_id: OP, status: 'confirmed_safe' })], has_more: false }),
    );
    const event = await waitForOperationEvent(channels, { channel_id: CH, operation_id: OP }, 'confirmed_safe', { intervalMs: 1 });
    expect(event.payload.status).toBe('confirmed_safe');
    expect(fake.sent.map((s) => new URL(s.url).searchParams.get('offset'))).toEqual([null, '12', '13']);
  });

  it('rejects on a failure event', async () => {
    const { channels } = channelsWith(json(200, { events: [ev('operation.status', 1, { operation_id: OP, status: 'failed' })], has_more: false }));
    await expect(waitForOperationEvent(channels, { channel_id: CH, operation_id: OP })).rejects.toMatchObject({ status: 'failed' });
  });

  it('query and watcher events settle the same way', async () => {
    const q = channelsWith(json(200, { events: [ev('query.status', 1, { query_id: 'q1', status: 'expired' })], has_more: false }));
    await expect(waitForQueryEvent(q.channels, { channel_id: CH, query_id: 'q1' })).rejects.toBeInstanceOf(PollFailedError);
    const w = channelsWith(json(200, { events: [ev('watcher.status', 1, { watcher_id: 'w1', status: 'archived' })], has_more: false }));
    expect((await waitForWatcherArchiveEvent(w.channels, { channel_id: CH, watcher_id: 'w1' })).payload.status).toBe('archived');
  });

  it('times out with PollTimeoutError', async () => {
    const { channels } = channelsWith(...Array.from({ length: 50 }, () => json(200, { events: [], has_more: false })));
    await expect(waitForQueryEvent(channels, { channel_id: CH, query_id: 'q1' }, { intervalMs: 5, timeoutMs: 30 })).rejects.toMatchObject({
      name: 'PollTimeoutError',
    });
  });
});
