/**
 * A scenario of the request benches in a plain loop, to run under a profiler:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts ours-http 5
 *   node --import tsx bench/cpuprofile-top.ts /tmp/prof/<main thread>.cpuprofile
 *
 * Scenarios: bare-http, openapi-http, ours-http, ours-notimeout-http (local
 * server, sequential), bare-mem, openapi-mem, ours-mem, unsigned-mem,
 * signed-mem (in-memory fetch). The second argument is seconds (default 5).
 */
import createClient from 'openapi-fetch';
import { createChannelsClient, unwrap, type ChannelsPaths } from '../src/channels/index.js';
import { createStreamsClient, getLatestReport } from '../src/streams/index.js';
import { inMemoryFetch } from './in-memory-fetch.js';
import { FEED_ID, latestReport, startServer, wallet, type BenchServer } from './server.js';

const scenario = process.argv[2] ?? 'ours-http';
const seconds = Number(process.argv[3] ?? 5);
const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const params = { params: { path: { wallet_id: ID } } };
const headers = { Authorization: 'Apikey bench-api-key', 'User-Agent': 'bench' };
const credentials = { apiKey: '123e4567-e89b-12d3-a456-426614174000', apiSecret: 'bench-secret' };

async function scenarioFn(server: BenchServer | undefined): Promise<() => Promise<unknown>> {
  const baseUrl = `${server?.url ?? 'http://127.0.0.1:9'}/v1`;
  const walletMem = inMemoryFetch({ ...wallet(1), wallet_id: ID });
  const reportMem = inMemoryFetch(latestReport(FEED_ID));
  switch (scenario) {
    case 'bare-http':
      return async () => (await fetch(`${baseUrl}/wallets/${ID}`, { headers })).json();
    case 'openapi-http': {
      const client = createClient<ChannelsPaths>({ baseUrl, headers });
      return () => client.GET('/wallets/{wallet_id}', params);
    }
    case 'ours-http':
    case 'ours-notimeout-http': {
      const timeoutMs = scenario === 'ours-http' ? undefined : 0;
      const client = createChannelsClient({ apiKey: 'bench-api-key', baseUrl, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
      return () => unwrap(client.GET('/wallets/{wallet_id}', params));
    }
    case 'bare-mem':
      return async () => (await walletMem(new Request(`${baseUrl}/wallets/${ID}`, { headers }))).json();
    case 'openapi-mem': {
      const client = createClient<ChannelsPaths>({ baseUrl, headers, fetch: walletMem });
      return () => client.GET('/wallets/{wallet_id}', params);
    }
    case 'ours-mem': {
      const client = createChannelsClient({ apiKey: 'bench-api-key', baseUrl, fetch: walletMem });
      return () => unwrap(client.GET('/wallets/{wallet_id}', params));
    }
    case 'unsigned-mem':
    case 'signed-mem': {
      const client = createStreamsClient({
        baseUrl: 'http://127.0.0.1:9',
        fetch: reportMem,
        ...(scenario === 'signed-mem' ? credentials : {}),
      });
      return () => getLatestReport(client, FEED_ID);
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

const server = scenario.endsWith('-http') ? await startServer() : undefined;
try {
  const run = await scenarioFn(server);
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await run();
    n += 100;
  }
  console.log(`${scenario}: ${n} calls in ${seconds} s, ${((seconds * 1e6) / n).toFixed(1)} µs/call`);
} finally {
  await server?.close();
}
