/**
 * 1. Client overhead: our typed channels client (`createChannelsClient` with
 * its default retry and timeout, plus `unwrap`) against a bare `fetch` +
 * `res.json()` doing the same GET, on the local server (sequential, and 32
 * requests at a time), then against an in-memory fetch, where the only cost
 * left is the client's own: there ours is compared with openapi-fetch alone.
 */
import createClient from 'openapi-fetch';
import { PerformanceObserver } from 'node:perf_hooks';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createChannelsClient, openTelemetryObserver, unwrap, type ChannelsPaths } from '../src/channels/index.js';
import { DEFAULT_DEADLINE_MS, DEFAULT_TIMEOUT_MS } from '../src/core/client.js';
import { inMemoryFetch } from './in-memory-fetch.js';
import { median, pairedDifferences, pairedRatios, spreadOf } from './harness.js';
import { measure, type Stats } from './measure.js';
import { deltaUs, ratioSpread, signed, timingRow, verdict } from './rows.js';
import type { BenchServer } from './server.js';
import { wallet } from './server.js';
import type { Row } from './table.js';

const BENCH = '1 client overhead';
const API_KEY = 'bench-api-key-0123456789';
const WALLET_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const CONCURRENCY = 32;
/** Ours with its default time limits, against openapi-fetch alone doing the same GET. */
export const OVERHEAD_GOAL_RATIO = 1.15;
/** Ours with its default time limits, against ours with none: what the deadlines cost. */
export const DEADLINE_GOAL_RATIO = 1.1;
export const OVERHEAD_GOAL_US = 10;

export interface ClientOverheadOptions {
  /** Scales the number of samples (1 = default). */
  scale?: number;
  /** A full GC, for the retained-heap figure of the sustained run. */
  gc?: (() => void) | undefined;
}

/**
 * Back-to-back requests through the in-memory fetch: mean µs per request, and
 * the garbage collector's time per request (from `gc` performance entries).
 */
async function backToBack(run: () => Promise<unknown>, count: number, gc: (() => void) | undefined): Promise<{ us: number; gcUs: number }> {
  gc?.();
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await run();
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / count;
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  return { us, gcUs: (gcMs * 1e3) / count };
}

const ratioText = (x: number): string => x.toFixed(3);

export async function benchClientOverhead(server: BenchServer, options: ClientOverheadOptions = {}): Promise<Row[]> {
  const scale = options.scale ?? 1;
  const baseUrl = `${server.url}/v1`;
  const rows: Row[] = [];

  // What a user would write instead: the same headers, one GET, the JSON body.
  const bareHeaders = { Authorization: `Apikey ${API_KEY}`, 'User-Agent': 'bench' };
  const walletUrl = `${baseUrl}/wallets/${WALLET_ID}`;
  const bare = async (): Promise<unknown> => {
    const res = await fetch(walletUrl, { headers: bareHeaders });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.json();
  };
  const channels = createChannelsClient({ apiKey: API_KEY, baseUrl });
  const ours = (): Promise<unknown> =>
    unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } }));

  const sanity = (await ours()) as { wallet_id?: string };
  if (sanity.wallet_id !== WALLET_ID) throw new Error('local server answered an unexpected wallet');

  // Diagnostics: openapi-fetch alone with the same headers, and ours without its per-attempt timeout.
  const plainHttp = createClient<ChannelsPaths>({ baseUrl, headers: bareHeaders });
  const plainHttpGet = (): Promise<unknown> => plainHttp.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } });
  const channelsNoTimeout = createChannelsClient({ apiKey: API_KEY, baseUrl, timeoutMs: 0, deadlineMs: 0 });
  const oursNoTimeoutHttp = (): Promise<unknown> =>
    unwrap(channelsNoTimeout.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } }));

  const httpRows = (mode: string, stats: Map<string, Stats>, per: string): void => {
    rows.push(timingRow(BENCH, `GET /wallets/{id}: bare fetch + res.json(), ${mode}`, stats, { key: 'bare' }));
    rows.push(
      timingRow(BENCH, `GET /wallets/{id}: openapi-fetch alone, ${mode} (diagnostic)`, stats, {
        key: 'openapi-fetch',
        baselineKey: 'bare',
        note: `${signed(deltaUs(stats, 'openapi-fetch', 'bare'))} µs/req${per}`,
      }),
    );
    rows.push(
      timingRow(BENCH, `GET /wallets/{id}: ours, no time limits (timeoutMs: 0, deadlineMs: 0), ${mode} (diagnostic)`, stats, {
        key: 'ours-no-timeout',
        baselineKey: 'bare',
        note: `${signed(deltaUs(stats, 'ours-no-timeout', 'bare'))} µs/req${per}`,
      }),
    );
    rows.push(
      timingRow(BENCH, `GET /wallets/{id}: createChannelsClient + unwrap, default limits, ${mode}`, stats, {
        key: 'ours',
        baselineKey: 'openapi-fetch',
        baseline: 'openapi-fetch alone',
        goal: `ratio ≤ ${OVERHEAD_GOAL_RATIO}`,
        ...verdict(ratioSpread(stats, 'ours', 'openapi-fetch'), { atMost: OVERHEAD_GOAL_RATIO }, ratioText),
        note: `${signed(deltaUs(stats, 'ours', 'openapi-fetch'))} µs/req over openapi-fetch${per}`,
      }),
    );
    rows.push(
      timingRow(BENCH, `GET /wallets/{id}: the default time limits' cost, ${mode}`, stats, {
        key: 'ours',
        baselineKey: 'ours-no-timeout',
        baseline: 'ours, no time limits',
        goal: `ratio ≤ ${DEADLINE_GOAL_RATIO}`,
        ...verdict(ratioSpread(stats, 'ours', 'ours-no-timeout'), { atMost: DEADLINE_GOAL_RATIO }, ratioText),
        note: `${signed(deltaUs(stats, 'ours', 'ours-no-timeout'))} µs/req (timeoutMs ${DEFAULT_TIMEOUT_MS / 1000} s, deadlineMs ${DEFAULT_DEADLINE_MS / 1000} s)${per}`,
      }),
    );
  };

  // Diagnostics of the bare side: a Request object handed to fetch, and a per-request timeout signal.
  const bareRequest = async (): Promise<unknown> => (await fetch(new Request(walletUrl, { headers: bareHeaders }))).json();
  const bareSignal = async (): Promise<unknown> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      return await (await fetch(walletUrl, { headers: bareHeaders, signal: controller.signal })).json();
    } finally {
      clearTimeout(timer);
    }
  };

  // Sequential: one request at a time. Contenders alternate every 10 samples (2 ms):
  // in 20 blocks of 100, a load change landed on single rows and moved the
  // ratios by ±5 % from run to run.
  const sequential = await measure(
    [
      { name: 'bare', run: bare },
      { name: 'bare-request', run: bareRequest },
      { name: 'bare-signal', run: bareSignal },
      { name: 'openapi-fetch', run: plainHttpGet },
      { name: 'ours-no-timeout', run: oursNoTimeoutHttp },
      { name: 'ours', run: ours },
    ],
    // Hundreds of 2 ms rounds: no GC between turns (one would outlast the turn).
    { warmup: 300, samples: Math.round(4_000 * scale), rounds: Math.round(400 * scale), minSampleNs: 0, gc: false },
  );
  const seqBareIndex = rows.length;
  httpRows('sequential', sequential, '');
  rows.splice(
    seqBareIndex + 1,
    0,
    timingRow(BENCH, 'GET /wallets/{id}: bare fetch(new Request(url)), sequential (diagnostic)', sequential, {
      key: 'bare-request',
      baselineKey: 'bare',
      note: `${signed(deltaUs(sequential, 'bare-request', 'bare'))} µs/req`,
    }),
    timingRow(BENCH, 'GET /wallets/{id}: bare fetch with a 30 s timeout signal, sequential (diagnostic)', sequential, {
      key: 'bare-signal',
      baselineKey: 'bare',
      note: `${signed(deltaUs(sequential, 'bare-signal', 'bare'))} µs/req (AbortController + setTimeout/clearTimeout)`,
    }),
  );

  // 32 at a time: one call sends 32 requests and waits for all of them; figures are per request.
  const times = <T>(run: () => Promise<T>) => () => Promise.all(Array.from({ length: CONCURRENCY }, run));
  const concurrent = await measure(
    [
      { name: 'bare', run: times(bare), opsPerCall: CONCURRENCY },
      { name: 'openapi-fetch', run: times(plainHttpGet), opsPerCall: CONCURRENCY },
      { name: 'ours-no-timeout', run: times(oursNoTimeoutHttp), opsPerCall: CONCURRENCY },
      { name: 'ours', run: times(ours), opsPerCall: CONCURRENCY },
    ],
    // One sample per contender per round: 32-at-a-time batches are the noisiest rows, so
    // contenders alternate at the finest grain and a load change hits them alike.
    { warmup: 30, samples: Math.round(300 * scale), rounds: Math.round(300 * scale), minSampleNs: 0, gc: false },
  );
  httpRows(`${CONCURRENCY} concurrent`, concurrent, ` (batch time / ${CONCURRENCY})`);

  // In memory: the same calls with a fetch that answers at once.
  const answer = inMemoryFetch({ ...wallet(1), wallet_id: WALLET_ID });
  const bareMem = async (): Promise<unknown> => {
    const res = await answer(new Request(walletUrl, { headers: bareHeaders }));
    return res.json();
  };
  // The same headers as ours sends (API key and User-Agent), as on the local server.
  const plain = createClient<ChannelsPaths>({ baseUrl, fetch: answer, headers: bareHeaders });
  const plainGet = async (): Promise<unknown> => {
    const { data, error } = await plain.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } });
    if (error !== undefined) throw new Error('unexpected error');
    return data;
  };
  const oursMem = createChannelsClient({ apiKey: API_KEY, baseUrl, fetch: answer });
  const oursMemGet = (): Promise<unknown> =>
    unwrap(oursMem.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } }));
  // Diagnostic: the same client without its per-attempt timeout (timeoutMs: 0).
  const oursNoTimeout = createChannelsClient({ apiKey: API_KEY, baseUrl, fetch: answer, timeoutMs: 0, deadlineMs: 0 });
  const oursNoTimeoutGet = (): Promise<unknown> =>
    unwrap(oursNoTimeout.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } }));

  // Beside it: a logger at `info` (a successful attempt writes nothing at that level, so this is the
  // cost of the observer itself), and OpenTelemetry tracing every attempt into an in-memory exporter.
  const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const oursLogged = createChannelsClient({ apiKey: API_KEY, baseUrl, fetch: answer, logger: quietLogger, logLevel: 'info' });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const oursTraced = createChannelsClient({ apiKey: API_KEY, baseUrl, fetch: answer, observers: [openTelemetryObserver(otel, { tracerProvider })] });
  const oursLoggedGet = (): Promise<unknown> => unwrap(oursLogged.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } }));
  const oursTracedGet = (): Promise<unknown> => {
    exporter.reset();
    return unwrap(oursTraced.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET_ID } } }));
  };

  const memory = await measure(
    [
      { name: 'bare', run: bareMem },
      { name: 'openapi-fetch', run: plainGet },
      { name: 'ours', run: oursMemGet },
      { name: 'ours-no-timeout', run: oursNoTimeoutGet },
      { name: 'ours-logger-info', run: oursLoggedGet },
      { name: 'ours-opentelemetry', run: oursTracedGet },
    ],
    { warmup: 2_000, samples: Math.round(2_000 * scale), rounds: Math.round(200 * scale), minSampleNs: 50_000, gc: false },
  );
  const oursDelta = spreadOf(pairedDifferences(memory.get('ours')!.perRound, memory.get('openapi-fetch')!.perRound).map((ns) => ns / 1_000));
  rows.push(timingRow(BENCH, 'in-memory: new Request + res.json() (no client)', memory, { key: 'bare' }));
  rows.push(timingRow(BENCH, 'in-memory: openapi-fetch createClient alone, same headers', memory, { key: 'openapi-fetch' }));
  rows.push(
    timingRow(BENCH, 'in-memory: createChannelsClient + unwrap', memory, {
      key: 'ours',
      baselineKey: 'openapi-fetch',
      goal: `≤ +${OVERHEAD_GOAL_US} µs over openapi-fetch`,
      ...verdict(oursDelta, { atMost: OVERHEAD_GOAL_US }, (us) => `${signed(us, 1)} µs`),
      note: `${signed(oursDelta.median, 2)} µs/req over openapi-fetch (median of per-round differences; IQR ${signed(oursDelta.q1, 2)} to ${signed(oursDelta.q3, 2)})`,
    }),
  );
  for (const [key, label] of [
    ['ours-logger-info', 'in-memory: createChannelsClient with a logger at info'],
    ['ours-opentelemetry', 'in-memory: createChannelsClient with OpenTelemetry tracing (in-memory exporter)'],
  ] as const) {
    rows.push(
      timingRow(BENCH, label, memory, {
        key,
        baselineKey: 'openapi-fetch',
        note: `${signed(deltaUs(memory, key, 'openapi-fetch'), 2)} µs/req over openapi-fetch, ${signed(deltaUs(memory, key, 'ours'), 2)} µs over ours without`,
      }),
    );
  }
  rows.push(
    timingRow(BENCH, 'in-memory: createChannelsClient, no time limits (diagnostic)', memory, {
      key: 'ours-no-timeout',
      baselineKey: 'openapi-fetch',
      note: `${signed(deltaUs(memory, 'ours-no-timeout', 'openapi-fetch'), 2)} µs/req over openapi-fetch`,
    }),
  );

  // Sustained: 20,000 requests back to back each, with the garbage collector's share, in 10
  // interleaved rounds of 2,000 (alternating which goes first, a full GC before each).
  const count = Math.round(20_000 * scale);
  const sustainedRounds = 10;
  const perRound = { free: [] as { us: number; gcUs: number }[], held: [] as { us: number; gcUs: number }[] };
  for (let round = 0; round < sustainedRounds; round++) {
    const order = round % 2 === 0 ? (['free', 'held'] as const) : (['held', 'free'] as const);
    for (const which of order) {
      perRound[which].push(await backToBack(which === 'free' ? oursNoTimeoutGet : oursMemGet, count / sustainedRounds, options.gc));
    }
  }
  const mean = (list: { us: number; gcUs: number }[]) => ({ us: median(list.map((x) => x.us)), gcUs: median(list.map((x) => x.gcUs)) });
  const free = mean(perRound.free);
  const held = mean(perRound.held);
  const heldSpread = spreadOf(pairedRatios(perRound.held.map((x) => x.us), perRound.free.map((x) => x.us)));
  rows.push({
    bench: BENCH,
    name: `in-memory, ${count.toLocaleString('en')} back to back (${sustainedRounds} rounds): no time limits (diagnostic)`,
    value: free.us,
    unit: 'µs/req',
    note: `GC ${free.gcUs.toFixed(1)} µs/req`,
  });
  rows.push({
    bench: BENCH,
    name: `in-memory, ${count.toLocaleString('en')} back to back (${sustainedRounds} rounds): default timeout (diagnostic)`,
    value: held.us,
    unit: 'µs/req',
    ratio: heldSpread.median,
    ratioSpread: heldSpread,
    baseline: 'no time limits, back to back',
    note: `GC ${held.gcUs.toFixed(1)} µs/req (timeoutMs ${DEFAULT_TIMEOUT_MS / 1000} s and deadlineMs ${DEFAULT_DEADLINE_MS / 1000} s; attempts share signals, src/core/batched-deadline.ts)`,
  });
  return rows;
}
