/**
 * Compile-time tests: `npm run typecheck` (tsc --noEmit) checks this file.
 * Each `@ts-expect-error` must hit a real type error, or tsc fails with
 * "Unused '@ts-expect-error' directive"; so these lines prove that wrong
 * paths, missing parameters and wrong bodies do not compile. Never executed.
 */
import {
  createChannelsClient,
  isChannelsError,
  paginate,
  unwrap,
  waitForOperation,
  type ChannelsListItem,
} from '../../src/channels/index.js';
import { createPolicyClient, paginateCoordinator, paginateReporting } from '../../src/policy/index.js';
import { createStreamsClient, getBulkReports, getLatestReport, paginateReports } from '../../src/streams/index.js';

declare const channels: ReturnType<typeof createChannelsClient>;
declare const policy: ReturnType<typeof createPolicyClient>;
declare const streams: ReturnType<typeof createStreamsClient>;
declare const wallet_id: string;
declare const channel_id: string;

export async function channelsTyping() {
  // A correct call compiles and its data is typed.
  const wallet = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id } } }));
  const name: string = wallet.name;

  // @ts-expect-error: no such path
  await channels.GET('/wallet/{wallet_id}', { params: { path: { wallet_id } } });
  // @ts-expect-error: the path parameter is required
  await channels.GET('/wallets/{wallet_id}', {});
  // @ts-expect-error: misspelt path parameter
  await channels.GET('/wallets/{wallet_id}', { params: { path: { walletId: wallet_id } } });
  // @ts-expect-error: POST is not defined on this path
  await channels.POST('/networks', {});
  // @ts-expect-error: a required body field is missing (wallet_type)
  await channels.POST('/wallets', { body: { name: 'w', wallet_owner_address: '0x', chain_selector: '1' } });
  // @ts-expect-error: a body field of the wrong type
  await channels.POST('/channels', { body: { name: 42 } });
  // @ts-expect-error: a value outside the enum
  await channels.POST('/wallets', { body: { name: 'w', wallet_owner_address: '0x', chain_selector: '1', wallet_type: 'dsa' } });
  // @ts-expect-error: finalizing needs the signature and digest
  await channels.PATCH('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id, operation_id: 'o' } }, body: { status: 'accepted' } });
  // @ts-expect-error: a query parameter of the wrong type
  await channels.GET('/wallets', { params: { query: { limit: 'ten' } } });

  // Pagination is typed by path: items of /wallets are wallets.
  for await (const w of paginate(channels, '/wallets')) {
    const id: string = w.wallet_id;
    void id;
  }
  const item: ChannelsListItem<'/channels/{channel_id}/operations'> | undefined = undefined;
  void item;
  // @ts-expect-error: not a list endpoint
  paginate(channels, '/wallets/{wallet_id}');
  // @ts-expect-error: the channel path parameter is required for a channel's watchers
  paginate(channels, '/channels/{channel_id}/watchers');
  // @ts-expect-error: the paginator sets limit/offset itself
  paginate(channels, '/wallets', { params: { query: { offset: 5 } } });

  // Polling stages and error codes come from the spec's enums.
  await waitForOperation(channels, { channel_id, operation_id: 'o' }, { until: 'confirmed_safe' });
  // @ts-expect-error: not an operation stage
  await waitForOperation(channels, { channel_id, operation_id: 'o' }, { until: 'done' });
  const e: unknown = undefined;
  if (isChannelsError(e, 'CONFLICT', 'IDEMPOTENCY_KEY_MISMATCH')) {
    const code: 'IDEMPOTENCY_KEY_MISMATCH' | undefined = e.code;
    void code;
  }
  // @ts-expect-error: not a documented error code
  isChannelsError(e, 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED');
  return name;
}

export async function policyTyping() {
  // @ts-expect-error: the evaluation needs its deduplication key
  await policy.evaluation.POST('/evaluate', { body: { caller_address: '0x', subject: '0x', function_signature: 'f()', parameters: {}, chain_selector: '1' } });
  for await (const engine of paginateCoordinator(policy.coordinator, '/policy-engines')) {
    const id: string = engine.id;
    void id;
  }
  // @ts-expect-error: reporting lists page by token, the coordinator's by page number
  paginateCoordinator(policy.coordinator, '/transactions');
  // @ts-expect-error: `as_of` is required to list policies at a point in time
  paginateReporting(policy.reporting, '/policies', {});
  paginateReporting(policy.reporting, '/policies', { params: { query: { as_of: '2026-01-01T00:00:00Z' } } });
  // @ts-expect-error: the health check is not a list
  paginateReporting(policy.reporting, '/health');
  // @ts-expect-error: one policy version is not a list
  paginateReporting(policy.reporting, '/policies/{chain_selector}/{address}/versions/{version}', {
    params: { path: { chain_selector: '1', address: '0x', version: 'latest' } },
  });
  // A request field with a default may be left out (`policy_kind` defaults to onchain).
  await policy.coordinator.POST('/targets/{target_id}/protections', {
    params: { path: { target_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } },
    body: { function_signature: 'transfer(address,uint256)', policy_instance_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' },
  });
}

export async function streamsTyping() {
  const bulk = await getBulkReports(streams, ['0x00'], 1);
  const missing: string[] = bulk.missingFeedIDs;
  // @ts-expect-error: the timestamp is Unix seconds, a number
  await streams.GET('/api/v1/reports', { params: { query: { feedID: '0x', timestamp: '2026-01-01' } } });
  // @ts-expect-error: the feed ID is required
  await streams.GET('/api/v1/reports/latest', { params: { query: {} } });
  // @ts-expect-error: networks are testnet or mainnet
  createStreamsClient({ network: 'devnet' });
  return missing;
}

export async function decodedTyping() {
  const plain = await getLatestReport(streams, '0x');
  // @ts-expect-error: without decode there is no decoded field
  void plain.decoded;
  const decoded = await getLatestReport(streams, '0x', { decode: true });
  if (decoded.decoded.version === 'V3') {
    const price: bigint = decoded.decoded.price;
    void price;
  }
  for await (const report of paginateReports(streams, { feedID: '0x', from: 1, decode: true })) {
    const version: string = report.decoded.version;
    void version;
  }
}
