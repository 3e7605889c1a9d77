/**
 * 2. Signed requests: the streams client with HMAC-SHA256 signing against the
 * same client without credentials (unsigned), on GET /api/v1/reports/latest,
 * on the local server (where the ratio is read) and in memory (where the
 * added µs are read: nothing else varies there).
 */
import { hmacAuthorizer, pathWithQuery, stringToSign, type Authorizer } from '../src/core/auth.js';
import { createHmacSigner, EMPTY_BODY_SHA256 } from '../src/core/hmac/index.js';
import { createApiClient } from '../src/core/client.js';
import { createStreamsClient, getLatestReport, type StreamsClient } from '../src/streams/index.js';
import type { paths } from '../generated/types/streams.js';
import { inMemoryFetch } from './in-memory-fetch.js';
import { measure, quantile } from './measure.js';
import { pairedDifferences, spreadOf } from './harness.js';
import { deltaUs, ratioSpread, signed, timingRow, verdict } from './rows.js';
import { FEED_ID, latestReport, type BenchServer } from './server.js';
import type { Row } from './table.js';

const BENCH = '2 signed requests';
export const SIGNING_GOAL_RATIO = 1.1;
export const SIGNING_GOAL_US = 20;
const FIXED_SIGNATURE = 'a'.repeat(64);
const CREDENTIALS = { apiKey: '123e4567-e89b-12d3-a456-426614174000', apiSecret: 'bench-secret-0123456789abcdef' };

/** Wraps an authorizer to record the ns of each call. */
function timed(authorize: Authorizer, into: number[]): Authorizer {
  return (headers, method, url, body) => {
    const t0 = process.hrtime.bigint();
    authorize(headers, method, url, body);
    into.push(Number(process.hrtime.bigint() - t0));
  };
}

export async function benchSigning(server: BenchServer, options: { scale?: number } = {}): Promise<Row[]> {
  const scale = options.scale ?? 1;
  const baseUrl = server.url;
  const unsignedClient = createStreamsClient({ baseUrl });
  const signedClient = createStreamsClient({ baseUrl, ...CREDENTIALS });
  const report = await getLatestReport(signedClient, FEED_ID);
  if (report.feedID !== FEED_ID) throw new Error('local server answered an unexpected report');

  // Diagnostic: the same signed client with its authorizer timed, call by call, between real requests.
  const inSitu: number[] = [];
  const authorize = timed(hmacAuthorizer(CREDENTIALS), inSitu);
  const timedClient: StreamsClient = createApiClient<paths>({ baseUrl }, { baseUrl, authorize });
  // Diagnostics: the two halves of signing apart: the HMAC computed but no header set, and the three headers set with fixed values.
  const signer = createHmacSigner(CREDENTIALS.apiSecret);
  let sink = '';
  const signOnly: StreamsClient = createApiClient<paths>({ baseUrl }, {
    baseUrl,
    authorize: (_headers, method, url) => {
      sink = signer.sign(stringToSign(method, pathWithQuery(url), EMPTY_BODY_SHA256, CREDENTIALS.apiKey, Date.now()));
    },
  });
  const headersOnly: StreamsClient = createApiClient<paths>({ baseUrl }, {
    baseUrl,
    authorize: (headers) => {
      headers.set('Authorization', CREDENTIALS.apiKey);
      headers.set('X-Authorization-Timestamp', '1764590400123');
      headers.set('X-Authorization-Signature-SHA256', FIXED_SIGNATURE);
    },
  });

  const local = await measure(
    [
      { name: 'unsigned', run: () => getLatestReport(unsignedClient, FEED_ID) },
      { name: 'signed', run: () => getLatestReport(signedClient, FEED_ID) },
      { name: 'signed-timed', run: () => getLatestReport(timedClient, FEED_ID) },
      { name: 'sign-only', run: () => getLatestReport(signOnly, FEED_ID) },
      { name: 'headers-only', run: () => getLatestReport(headersOnly, FEED_ID) },
    ],
    // 40 interleaved rounds of ~15 ms turns, a GC before each.
    { warmup: 300, samples: Math.round(2_000 * scale), rounds: 40, minSampleNs: 0 },
  );
  if (sink.length !== 64) throw new Error('sign-only client did not sign');
  const localDelta = deltaUs(local, 'signed', 'unsigned');

  const answer = inMemoryFetch(latestReport(FEED_ID));
  const unsignedMem = createStreamsClient({ baseUrl, fetch: answer });
  const signedMem = createStreamsClient({ baseUrl, fetch: answer, ...CREDENTIALS });
  const memory = await measure(
    [
      { name: 'unsigned', run: () => getLatestReport(unsignedMem, FEED_ID) },
      { name: 'signed', run: () => getLatestReport(signedMem, FEED_ID) },
    ],
    // 40 rounds of ~2.5 ms turns: no GC between turns (one would outlast the turn).
    { warmup: 2_000, samples: Math.round(2_000 * scale), rounds: 40, minSampleNs: 50_000, gc: false },
  );
  const memDelta = spreadOf(pairedDifferences(memory.get('signed')!.perRound, memory.get('unsigned')!.perRound).map((ns) => ns / 1_000));

  // The authorizer alone in a hot loop, on the headers of a real Request.
  const hot: number[] = [];
  const hotAuthorize = timed(hmacAuthorizer(CREDENTIALS), hot);
  const url = `${baseUrl}/api/v1/reports/latest?feedID=${FEED_ID}`;
  const request = new Request(url);
  for (let i = 0; i < 20_000; i++) hotAuthorize(request.headers, 'GET', url, undefined);
  const sorted = (list: number[]): number[] => list.slice(list.length >> 2).sort((a, b) => a - b);
  const inSituSorted = sorted(inSitu);
  const hotSorted = sorted(hot);

  return [
    timingRow(BENCH, 'GET /api/v1/reports/latest: unsigned (no credentials)', local, { key: 'unsigned' }),
    timingRow(BENCH, 'GET /api/v1/reports/latest: HMAC-signed', local, {
      key: 'signed',
      baselineKey: 'unsigned',
      goal: `ratio ≤ ${SIGNING_GOAL_RATIO}`,
      ...verdict(ratioSpread(local, 'signed', 'unsigned'), { atMost: SIGNING_GOAL_RATIO }, (x) => x.toFixed(3)),
      note: `${signed(localDelta)} µs/req`,
    }),
    timingRow(BENCH, 'GET …/latest: HMAC computed, no header set (diagnostic)', local, {
      key: 'sign-only',
      baselineKey: 'unsigned',
      note: `${signed(deltaUs(local, 'sign-only', 'unsigned'))} µs/req`,
    }),
    timingRow(BENCH, 'GET …/latest: the 3 auth headers set, no HMAC (diagnostic)', local, {
      key: 'headers-only',
      baselineKey: 'unsigned',
      note: `${signed(deltaUs(local, 'headers-only', 'unsigned'))} µs/req`,
    }),
    timingRow(BENCH, 'in-memory: unsigned', memory, { key: 'unsigned' }),
    timingRow(BENCH, 'in-memory: HMAC-signed', memory, {
      key: 'signed',
      baselineKey: 'unsigned',
      goal: `≤ +${SIGNING_GOAL_US} µs/req`,
      ...verdict(memDelta, { atMost: SIGNING_GOAL_US }, (us) => `${signed(us, 1)} µs`),
      note: `${signed(memDelta.median, 2)} µs/req (median of per-round differences; IQR ${signed(memDelta.q1, 2)} to ${signed(memDelta.q3, 2)})`,
    }),
    {
      bench: BENCH,
      name: 'hmacAuthorizer alone, per call, between requests to the local server (diagnostic)',
      medianNs: quantile(inSituSorted, 0.5),
      p99Ns: quantile(inSituSorted, 0.99),
      note: `${inSituSorted.length} calls timed inside the transport`,
    },
    {
      bench: BENCH,
      name: 'hmacAuthorizer alone, per call, hot loop (diagnostic)',
      medianNs: quantile(hotSorted, 0.5),
      p99Ns: quantile(hotSorted, 0.99),
      baseline: 'hmacAuthorizer between requests',
      note: `between requests it costs ${(quantile(inSituSorted, 0.5) / quantile(hotSorted, 0.5)).toFixed(1)}× as much (cold caches)`,
    },
  ];
}
