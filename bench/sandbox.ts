/**
 * 10. Sandbox: what a user's test pays per request through the in-process
 * sandbox (`fetch: sandbox.fetch`) and through its HTTP listener, and a run
 * of 1,000 signed operations driven to `confirmed` with the heap it holds.
 * The state is the only thing that grows (events are capped per channel), so
 * a second run after `reset()` must hold no more than the first. The request
 * check generated from the spec (`src/sandbox/request-check.ts`) is also timed
 * alone, on a read (path only) and on a signed operation (path and body): its
 * share of a request's cost.
 */
import { createChannelsClient, createOperation, unwrap, type ChannelsClient } from '../src/channels/index.js';
import { http, RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox, type Sandbox } from '../src/sandbox/index.js';
import { sandboxHandlers } from '../src/sandbox/msw/index.js';
import { checkRequest, GENERATED_REQUEST_CHECKS, type CheckedRequest, type RequestChecks } from '../src/sandbox/request-check.js';
import { createSandboxWith } from '../src/sandbox/sandbox.js';
import { measure } from './measure.js';
import { ratioSpread, timingRow, verdict } from './rows.js';
import type { Row } from './table.js';

const BENCH = '10 sandbox';
const SEPOLIA = '16015286601757825753';
const OWNER = `0x${'11'.repeat(20)}`;
const TOKEN = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const TRANSFER_DATA = `0xa9059cbb${'0'.repeat(24)}${'4b'.repeat(20)}${(2_500_000_000).toString(16).padStart(64, '0')}`;
/** Sandbox time given to the operations to reach `confirmed` (every stage of the default timings fits). */
const CONFIRM_WITHIN_MS = 120_000;

export interface SandboxBenchOptions {
  scale?: number;
  /** Operations driven to confirmed (default 1,000). */
  operations?: number;
  gc?: (() => void) | undefined;
}

/**
 * Heap in use once garbage is gone. Several collections with pauses between:
 * undici ties each Request to its signal through a FinalizationRegistry,
 * whose cleanups run as tasks after a collection, so one synchronous GC
 * leaves the last run's request bookkeeping on the heap.
 */
async function heapMB(gc: (() => void) | undefined): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function walletAndChannel(client: ChannelsClient, tag: string) {
  const channel = await unwrap(client.POST('/channels', { body: { name: `bench-${tag}` } }));
  const wallet = await unwrap(
    client.POST('/wallets', { body: { name: `bench-${tag}`, wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } }),
  );
  return { channel, wallet };
}

/** Creates `count` signed operations, moves sandbox time on, and checks every one reached `confirmed`. */
async function confirmMany(sandbox: Sandbox, client: ChannelsClient, count: number, tag: string): Promise<{ createMs: number; confirmMs: number }> {
  const { channel, wallet } = await walletAndChannel(client, tag);
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const operation = await createOperation(client, channel.channel_id, {
      chain_selector: wallet.chain_selector,
      address: wallet.address,
      wallet_operation_id: String(i + 1),
      deadline: 0,
      signature: SIGNATURE,
      transactions: [{ to: TOKEN, value: '0', data: TRANSFER_DATA }],
    });
    ids.push(operation.operation_id);
  }
  const t1 = performance.now();
  sandbox.advance(CONFIRM_WITHIN_MS);
  for (const operation_id of ids) {
    const operation = await unwrap(
      client.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id: channel.channel_id, operation_id } } }),
    );
    if (operation.status !== 'confirmed') throw new Error(`operation ${operation_id} is ${operation.status}, not confirmed`);
  }
  return { createMs: t1 - t0, confirmMs: performance.now() - t1 };
}

/** A handler that answers `body` at once to every request under `base`, found by a bare prefix test: what any handler costs under MSW, and no more. */
class FixedAnswerHandler extends RequestHandler {
  readonly #base: string;
  constructor(base: string, body: string) {
    super({ info: { header: `fixed answer ${base}` }, resolver: () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
    this.#base = base;
  }
  predicate({ request }: { request: Request }): boolean {
    return request.url.startsWith(this.#base);
  }
  log(): void {}
}

/**
 * MSW's path takes some 2,500 requests to reach its steady speed (its
 * medians fall from ~450 µs over the first 500 to ~130 µs after 2,500, where
 * `sandbox.fetch` settles within a few hundred), so its contenders warm up
 * longer than the bench's other round trips.
 */
const MSW_WARMUP = 3_000;

/**
 * One GET through MSW's `setupServer` and the sandbox's handlers, against the
 * same GET on `sandbox.fetch` under the same `setupServer` (MSW patches the
 * global `Headers`, `Request` and `Response`, which `sandbox.fetch` pays too).
 * MSW's own cost is measured too, with handlers that return the same body at
 * once, behind the sandbox's (tried after it, as a user's own handlers are):
 * a `RequestHandler` that matches every request, the floor no handler can go
 * below, and `http.get` with a path pattern.
 */
async function mswRoundTrip(scale: number): Promise<Row[]> {
  const sandbox = createSandbox();
  const { apiKey } = sandbox.credentials.channels;
  const direct = createChannelsClient({ apiKey, fetch: sandbox.fetch });
  const { wallet } = await walletAndChannel(direct, 'msw');
  const walletJson = JSON.stringify(wallet);
  const FIXED = 'https://fixed.example/v1';
  const FLOOR = 'https://floor.example/v1';
  // The HttpHandler last: each handler MSW tries before the one that answers costs a request its parse.
  const server = setupServer(
    ...sandboxHandlers(sandbox),
    new FixedAnswerHandler(`${FLOOR}/`, walletJson),
    http.get(`${FIXED}/wallets/:id`, () => new Response(walletJson, { headers: { 'content-type': 'application/json' } })),
  );
  server.listen({ onUnhandledRequest: 'error' });
  try {
    // The channels client's default base URL, which the handlers serve without being told.
    const throughMsw = createChannelsClient({ apiKey });
    const httpGetAnswer = createChannelsClient({ apiKey, baseUrl: FIXED });
    const anyHandlerAnswer = createChannelsClient({ apiKey, baseUrl: FLOOR });
    const path = { params: { path: { wallet_id: wallet.wallet_id } } };
    const stats = await measure(
      [
        { name: 'fetch', run: () => unwrap(direct.GET('/wallets/{wallet_id}', path)) },
        { name: 'msw', run: () => unwrap(throughMsw.GET('/wallets/{wallet_id}', path)) },
        { name: 'msw-floor', run: () => unwrap(anyHandlerAnswer.GET('/wallets/{wallet_id}', path)) },
        { name: 'msw-http-get', run: () => unwrap(httpGetAnswer.GET('/wallets/{wallet_id}', path)) },
      ],
      { warmup: MSW_WARMUP, samples: Math.round(1_000 * scale), rounds: 20 },
    );
    const us = (key: string) => (stats.get(key)!.medianNs / 1000).toFixed(0);
    const row = timingRow(BENCH, 'GET /wallets/{id} through MSW setupServer + sandboxHandlers (client without fetch)', stats, {
      key: 'msw',
      baselineKey: 'fetch',
      baseline: 'sandbox.fetch',
      goal: '≤ 1.5 × sandbox.fetch',
      ...verdict(ratioSpread(stats, 'msw', 'fetch'), { atMost: 1.5 }, (x) => `${x.toFixed(2)}×`),
      note: `sandbox.fetch under the same setupServer: ${us('fetch')} µs`,
    });
    const floor = timingRow(BENCH, '… MSW alone: a RequestHandler answering the same body at once (no sandbox)', stats, {
      key: 'msw-floor',
      baselineKey: 'fetch',
      baseline: 'sandbox.fetch',
      note: `the floor of any handler; http.get with the same answer: ${us('msw-http-get')} µs (its URL pattern and cookies)`,
    });
    return [row, floor];
  } finally {
    server.close();
    sandbox.close();
  }
}

export async function benchSandbox(options: SandboxBenchOptions = {}): Promise<Row[]> {
  const scale = options.scale ?? 1;
  const count = options.operations ?? 1_000;
  const rows: Row[] = [];

  // Round trips: one GET through the client, answered by the sandbox.
  const sandbox = createSandbox();
  const listener = await sandbox.listen();
  try {
    const { apiKey } = sandbox.credentials.channels;
    const inProcess = createChannelsClient({ apiKey, fetch: sandbox.fetch });
    const overHttp = createChannelsClient({ apiKey, baseUrl: listener.baseUrls.channels });
    const { wallet } = await walletAndChannel(inProcess, 'round-trip');
    const path = { params: { path: { wallet_id: wallet.wallet_id } } };
    const stats = await measure(
      [
        { name: 'fetch', run: () => unwrap(inProcess.GET('/wallets/{wallet_id}', path)) },
        { name: 'listen', run: () => unwrap(overHttp.GET('/wallets/{wallet_id}', path)) },
      ],
      { warmup: 200, samples: Math.round(1_000 * scale), rounds: 20 },
    );
    rows.push(timingRow(BENCH, 'GET /wallets/{id} through sandbox.fetch (in process)', stats, { key: 'fetch' }));
    rows.push(
      timingRow(BENCH, 'GET /wallets/{id} through sandbox.listen() (HTTP on 127.0.0.1)', stats, {
        key: 'listen',
        baselineKey: 'fetch',
        baseline: 'sandbox.fetch',
      }),
    );
  } finally {
    await listener.close();
    sandbox.close();
  }

  // The same GET through MSW (issue 34): a client without `fetch`, its global fetch intercepted by
  // setupServer(...sandboxHandlers(sandbox)), against the client on sandbox.fetch, interleaved.
  rows.push(...(await mswRoundTrip(scale)));

  // The generated request check alone, on what the round trip above sends and on a signed operation.
  const channelsChecks = GENERATED_REQUEST_CHECKS.channels;
  const read: CheckedRequest = { pathParams: { wallet_id: crypto.randomUUID() }, query: new URLSearchParams(), headers: new Headers(), body: undefined };
  const signed: CheckedRequest = {
    pathParams: { channel_id: crypto.randomUUID() },
    query: new URLSearchParams(),
    headers: new Headers({ 'content-type': 'application/json' }),
    body: { chain_selector: '16015286601757825753', address: OWNER, wallet_operation_id: '7', deadline: 0, signature: SIGNATURE, transactions: [{ to: TOKEN, value: '0', data: TRANSFER_DATA }] },
  };
  for (const [operationId, request] of [['getWallet', read], ['createOperation', signed]] as const) {
    if (checkRequest(channelsChecks[operationId]!, request) !== undefined) throw new Error(`the bench's ${operationId} request does not pass its check`);
  }
  const checkStats = await measure(
    [
      { name: 'read', run: () => checkRequest(channelsChecks.getWallet!, read) },
      { name: 'signed', run: () => checkRequest(channelsChecks.createOperation!, signed) },
    ],
    { warmup: 2_000, samples: Math.round(1_000 * scale), rounds: 20 },
  );
  rows.push(timingRow(BENCH, 'request check alone: GET /wallets/{id} (path parameter)', checkStats, { key: 'read', note: 'Ajv standalone code generated from the spec' }));
  rows.push(timingRow(BENCH, 'request check alone: POST /channels/{id}/operations (path + signed body)', checkStats, { key: 'signed' }));

  // What the checks add to a whole request: the same calls to a sandbox with them and to one without, interleaved.
  const unchecked = Object.fromEntries(Object.keys(GENERATED_REQUEST_CHECKS).map((api) => [api, {}])) as unknown as RequestChecks;
  const withAndWithout = await Promise.all(
    [GENERATED_REQUEST_CHECKS, unchecked].map(async (checks) => {
      const box = createSandboxWith(checks, { pace: 0 });
      const boxClient = createChannelsClient({ apiKey: box.credentials.channels.apiKey, fetch: box.fetch });
      const { wallet } = await walletAndChannel(boxClient, 'checks');
      let n = 0;
      return {
        box,
        get: () => unwrap(boxClient.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } })),
        post: () => unwrap(boxClient.POST('/channels', { body: { name: `bench-${n++}`, description: 'bench' } })),
      };
    }),
  );
  const [checked, bare] = withAndWithout as [(typeof withAndWithout)[0], (typeof withAndWithout)[0]];
  const abStats = await measure(
    [
      { name: 'get-bare', run: bare.get },
      { name: 'get-checked', run: checked.get },
      { name: 'post-bare', run: bare.post },
      { name: 'post-checked', run: checked.post },
    ],
    { warmup: 300, samples: Math.round(1_000 * scale), rounds: 20 },
  );
  for (const { box } of withAndWithout) box.close();
  rows.push(timingRow(BENCH, 'GET /wallets/{id}, sandbox.fetch, with the request checks', abStats, { key: 'get-checked', baselineKey: 'get-bare', baseline: 'without them' }));
  rows.push(timingRow(BENCH, 'POST /channels, sandbox.fetch, with the request checks', abStats, { key: 'post-checked', baselineKey: 'post-bare', baseline: 'without them' }));

  // 1,000 operations to confirmed, sandbox time moved by hand (pace 0), twice, with a reset between.
  // A short warm-up run first, so that compiled code and caches are in the baseline, not in the figures.
  const gc = options.gc;
  const frozen = createSandbox({ pace: 0 });
  const client = createChannelsClient({ apiKey: frozen.credentials.channels.apiKey, fetch: frozen.fetch });
  await confirmMany(frozen, client, 50, 'warm-up');
  frozen.reset();
  const before = await heapMB(gc);
  const first = await confirmMany(frozen, client, count, 'first');
  const afterFirst = await heapMB(gc);
  frozen.reset();
  const afterReset = await heapMB(gc);
  const second = await confirmMany(frozen, client, count, 'second');
  const afterSecond = await heapMB(gc);
  frozen.close();
  const perOperationKB = ((afterFirst - before) * 1024) / count;

  rows.push({
    bench: BENCH,
    name: `${count.toLocaleString('en')} signed operations created (POST, in process)`,
    value: first.createMs / 1000,
    unit: 's',
    note: `${((first.createMs * 1000) / count).toFixed(0)} µs per operation`,
  });
  rows.push({
    bench: BENCH,
    name: `… moved to confirmed and each read back (advance + ${count.toLocaleString('en')} GETs)`,
    value: first.confirmMs / 1000,
    unit: 's',
    note: `every one confirmed; second run after reset(): ${((second.createMs + second.confirmMs) / 1000).toFixed(2)} s in all`,
  });
  rows.push({
    bench: BENCH,
    name: `sandbox heap held by ${count.toLocaleString('en')} confirmed operations`,
    value: afterFirst - before,
    unit: 'MB',
    note: `${perOperationKB.toFixed(1)} kB per operation (the operation, its events, its keys)`,
  });
  rows.push({
    bench: BENCH,
    name: 'heap after reset() (informational: V8 keeps compiled code and caches)',
    value: afterReset - before,
    unit: 'MB',
  });
  rows.push({
    bench: BENCH,
    name: `heap after a second run of ${count.toLocaleString('en')} (after reset())`,
    value: afterSecond - before,
    unit: 'MB',
    goal: 'no growth across runs: ≤ 1.1 × the first run',
    pass: afterSecond - before <= 1.1 * (afterFirst - before),
    note: `first run ${(afterFirst - before).toFixed(2)} MB`,
  });
  return rows;
}
