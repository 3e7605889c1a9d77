/**
 * `npm start`: the main job. Starts the Prism mocks from the bundled specs and
 * walks through each API with the typed clients, one line per step with its
 * timing. Pointed at a real deployment (`--base-url`), it runs the read-only
 * steps of one API unless writes are allowed.
 *
 *   npm start
 *   npm start -- --api channels --base-url https://<org>.example/v1 --api-key <key> [--allow-writes]
 *   npm start -- --api streams  --base-url https://api.testnet-dataengine.chain.link --api-key <uuid> --secret <secret>
 *   npm start -- --api policy   --base-url https://ace.api.chain.link --api-key <key>
 *
 * The same settings can come from SDK_API, SDK_BASE_URL, SDK_API_KEY,
 * SDK_API_SECRET and SDK_ALLOW_WRITES=1.
 */
import { parseArgs } from 'node:util';
import {
  collect as collectChannels,
  createChannelsClient,
  executeWithDraft,
  paginate,
  unwrap,
  waitForOperation,
  type ChannelsClient,
} from '../src/channels/index.js';
import {
  createPolicyClient,
  getEvaluation,
  PaginationCycleError,
  paginateReporting,
  requestEvaluation,
  waitForEvaluation,
  type PolicyClient,
} from '../src/policy/index.js';
import { createStreamsClient, getBulkReports, getLatestReport, getReportsPage, listStreams, type StreamsClient } from '../src/streams/index.js';
import { decodeReport, formatScaled } from '../src/streams/report-decoder.js';
import { startPrismMocks, stopPrismMocks, type PrismMocks } from './lib/prism.mjs';

type ApiName = 'channels' | 'streams' | 'policy';
const API_NAMES: readonly ApiName[] = ['channels', 'streams', 'policy'];

const { values: flags } = parseArgs({
  options: {
    api: { type: 'string' },
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    secret: { type: 'string' },
    'allow-writes': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

const settings = {
  api: flags.api ?? process.env.SDK_API,
  baseUrl: flags['base-url'] ?? process.env.SDK_BASE_URL,
  apiKey: flags['api-key'] ?? process.env.SDK_API_KEY,
  secret: flags.secret ?? process.env.SDK_API_SECRET,
  allowWrites: flags['allow-writes'] ?? process.env.SDK_ALLOW_WRITES === '1',
};

// Values the mocks accept (Prism checks that credentials are present, not what they are).
const MOCK_KEY = 'demo-api-key';
const MOCK_HMAC_KEY = 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11';
const MOCK_HMAC_SECRET = 'demo-secret';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

/** One line per step: what ran, how long it took, what came back. */
async function step<T>(api: string, title: string, run: () => Promise<T>, describe: (result: T) => string): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    const ms = (performance.now() - started).toFixed(1).padStart(7);
    console.log(`  ✓ ${api.padEnd(9)} ${title.padEnd(50)} ${ms} ms  ${describe(result)}`);
    return result;
  } catch (error) {
    const ms = (performance.now() - started).toFixed(1).padStart(7);
    console.log(`  ✗ ${api.padEnd(9)} ${title.padEnd(50)} ${ms} ms  ${(error as Error).message}`);
    throw error;
  }
}

function note(text: string) {
  console.log(`    ${text}`);
}

/** A client whose requests ask the mock for one named example (a stateless mock cannot change state). */
function preferExample<C extends { use: ChannelsClient['use'] }>(client: C, pick: (request: Request) => string | undefined): C {
  client.use({
    onRequest({ request }) {
      const example = pick(request);
      if (example) request.headers.set('Prefer', `example=${example}`);
      return request;
    },
  });
  return client;
}

async function channelsTour(makeClient: () => ChannelsClient, mock: boolean, writes: boolean) {
  const channels = makeClient();
  const networks = await step('channels', 'list networks', () => unwrap(channels.GET('/networks')), (page) =>
    `${page.data.length} networks: ${page.data.map((n) => n.name).slice(0, 3).join(', ')}`,
  );
  await step('channels', 'list wallets (paginate, first 2)', () => collectChannels(paginate(channels, '/wallets', { pageSize: 10, maxItems: 2 })), (w) =>
    `${w.length} wallets${mock ? ' (the mock answers the same page for every offset)' : ''}`,
  );
  if (!writes) {
    note('read-only against a real deployment: pass --allow-writes to create a wallet, a channel, an operation and a query');
    return;
  }
  const chain = networks.data[0]?.chain_selector ?? '16015286601757825753';
  const wallet = await step(
    'channels',
    'create a wallet',
    () =>
      unwrap(
        channels.POST('/wallets', {
          body: { name: `demo-wallet-${Date.now()}`, wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: chain, wallet_type: 'ecdsa' },
        }),
      ),
    (w) => `${w.wallet_id} (${w.status})`,
  );
  const channel = await step(
    'channels',
    'create a channel',
    () => unwrap(channels.POST('/channels', { body: { name: `demo-channel-${Date.now()}` } })),
    (c) => `${c.channel_id} (${c.status})`,
  );
  // The mock answers the POST with its draft example and the PATCH with the accepted one.
  const flow = mock ? preferExample(makeClient(), (r) => (r.method === 'POST' ? 'OperationPendingSignature' : r.method === 'PATCH' ? 'OperationAccepted' : undefined)) : channels;
  const accepted = await step(
    'channels',
    'draft operation → sign → finalize',
    () =>
      executeWithDraft(
        flow,
        channel.channel_id,
        {
          chain_selector: chain,
          address: wallet.address,
          wallet_operation_id: String(Date.now()),
          deadline: Math.floor(Date.now() / 1000) + 3600,
          transactions: [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }],
        },
        // A real wallet signs the operation's digest here (e.g. an EIP-712 hash with the owner's key).
        () => ({ signature: `0x${'11'.repeat(65)}`, digest: `0x${'d1'.repeat(32)}` }),
      ),
    (op) => `${op.operation_id} is ${op.status}`,
  );
  if (mock) {
    note('a stateless mock cannot move the operation on: waiting for confirmation is skipped (a stateful sandbox is planned)');
  } else {
    await step('channels', 'wait until confirmed', () => waitForOperation(channels, { channel_id: channel.channel_id, operation_id: accepted.operation_id }), (op) => op.status);
  }
  await step(
    'channels',
    'create a chain query (idempotency key generated)',
    () =>
      unwrap(
        channels.POST('/channels/{channel_id}/queries', {
          params: { path: { channel_id: channel.channel_id } },
          body: {
            idempotency_key: crypto.randomUUID(),
            query_kind: 'evm_call',
            chain_selector: chain,
            params: { contract_address: wallet.address, call_data: '0x70a08231', block_selection: { type: 'latest' } },
          },
        }),
      ),
    (q) => `${q.query_id} is ${q.status}`,
  );
  if (mock) note('the query would be polled to completed/failed/expired with waitForQuery; the mock keeps it accepted');
}

async function streamsTour(streams: StreamsClient) {
  const catalog = await step('streams', 'discover streams (anonymous route)', () => listStreams(streams, { asset_class: 'crypto' }), (s) =>
    `${s.length} streams: ${s.map((f) => `${f.base_asset}/${f.quote_asset}`).join(', ')}`,
  );
  const feed = catalog[0]?.feedID ?? ETH_USD;
  const latest = await step('streams', 'latest report (HMAC signed)', () => getLatestReport(streams, feed), (r) => `observed at ${r.observationsTimestamp}`);
  await step('streams', 'decode it', async () => decodeReport(latest.fullReport, latest.feedID), (d) =>
    'price' in d ? `${d.version} price ${formatScaled(d.price, 18)}` : d.version,
  );
  await step('streams', 'bulk reports at one time', () => getBulkReports(streams, [ETH_USD, BTC_USD], latest.observationsTimestamp), (b) =>
    b.complete ? `${b.reports.length} reports, complete` : `${b.reports.length} reports, missing ${b.missingFeedIDs.join(', ')}`,
  );
  await step('streams', 'a page of reports', () => getReportsPage(streams, { feedID: feed, startTimestamp: latest.observationsTimestamp, limit: 10 }), (p) => `${p.length} reports`);
}

async function policyTour(policy: PolicyClient, mock: boolean, writes: boolean) {
  if (writes) {
    const accepted = await step(
      'policy',
      'request an evaluation',
      () =>
        requestEvaluation(policy, {
          caller_address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
          subject: '0xB8f4CC5179D1c68b54003171CD8D06587731C073',
          function_signature: 'transfer(address,uint256)',
          parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount: '1000' },
          chain_selector: '16015286601757825753',
          unique_evaluation_id: `demo-${crypto.randomUUID()}`,
        }),
      (e) => `permit ${e.permit_id.slice(0, 10)}… is ${e.status}`,
    );
    await step('policy', 'read its status', () => getEvaluation(policy, accepted.permit_id), (e) => e.status);
    if (mock) {
      note('a stateless mock answers the same status on every poll; waitForEvaluation would follow evaluating → approving → ready');
    } else {
      await step('policy', 'wait until ready', () => waitForEvaluation(policy, accepted.permit_id), (e) => e.status);
    }
  }
  const to = new Date();
  const from = new Date(to.getTime() - 7 * 24 * 3600 * 1000);
  let cycle: PaginationCycleError | undefined;
  await step(
    'policy',
    'reporting: transactions of the last 7 days',
    async () => {
      const items = [];
      try {
        for await (const tx of paginateReporting(policy.reporting, '/transactions', {
          params: { query: { from: from.toISOString(), to: to.toISOString() } },
          maxItems: 20,
        })) {
          items.push(tx);
        }
      } catch (error) {
        // The mock answers every page with the same next_page_token; the paginator refuses to loop.
        if (!(mock && error instanceof PaginationCycleError)) throw error;
        cycle = error;
      }
      return items;
    },
    (txs) => `${txs.length} transactions`,
  );
  if (cycle) note('the mock repeats its next_page_token, so the paginator stopped with PaginationCycleError instead of looping');
}

function usage(message?: string): never {
  if (message) console.error(`error: ${message}\n`);
  console.error('usage: npm start [-- --api channels|streams|policy --base-url URL --api-key KEY [--secret SECRET] [--allow-writes]]');
  process.exit(message ? 2 : 0);
}

async function main() {
  if (flags.help) usage();
  const real = settings.baseUrl !== undefined;
  if (real && !API_NAMES.includes(settings.api as ApiName)) usage('with --base-url, say which API it is with --api channels|streams|policy');
  if (real && !settings.apiKey) usage('--api-key (or SDK_API_KEY) is required with --base-url');
  if (real && settings.api === 'streams' && !settings.secret) usage('--secret (or SDK_API_SECRET) is required for the streams API');

  let mocks: PrismMocks | undefined;
  const started = performance.now();
  try {
    if (!real) {
      console.log('Starting Prism mocks from generated/openapi/*.yaml …');
      mocks = await startPrismMocks();
      console.log(`  mocks ready in ${(performance.now() - started).toFixed(0)} ms\n`);
    }
    const apis = real ? [settings.api as ApiName] : API_NAMES;
    const writes = !real || settings.allowWrites;
    for (const api of apis) {
      console.log(`${api}:`);
      if (api === 'channels') {
        const baseUrl = real ? settings.baseUrl! : mocks!.urls.channels!;
        await channelsTour(() => createChannelsClient({ apiKey: real ? settings.apiKey! : MOCK_KEY, baseUrl }), !real, writes);
      } else if (api === 'streams') {
        const baseUrl = real ? settings.baseUrl! : mocks!.urls.streams!;
        await streamsTour(
          createStreamsClient({ apiKey: real ? settings.apiKey! : MOCK_HMAC_KEY, apiSecret: real ? settings.secret! : MOCK_HMAC_SECRET, baseUrl }),
        );
      } else {
        const policy = real
          ? createPolicyClient({ apiKey: settings.apiKey!, baseUrl: settings.baseUrl! })
          : createPolicyClient({
              apiKey: MOCK_KEY,
              baseUrls: { coordinator: mocks!.urls['policy-coordinator'], evaluation: mocks!.urls['policy-evaluation'], reporting: mocks!.urls['policy-reporting'] },
            });
        await policyTour(policy, !real, writes);
      }
      console.log('');
    }
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    if (mocks) await stopPrismMocks(mocks);
  }
}

main().catch((error: unknown) => {
  console.error(`\nFailed: ${(error as Error).message}`);
  process.exitCode = 1;
});
