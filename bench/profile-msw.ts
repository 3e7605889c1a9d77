/**
 * The MSW round trip of `npm run bench -- sandbox` in a plain loop, to run
 * under a profiler (issue 34's speed goal: where an intercepted request's
 * time goes):
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-msw.ts msw 6
 *   node --import tsx bench/cpuprofile-top.ts /tmp/prof/<file>.cpuprofile 30 msw
 *
 * Scenarios: `fetch` (the channels client on `sandbox.fetch`), `msw` (a
 * client without `fetch` under `setupServer(...sandboxHandlers(sandbox))`),
 * `msw-fixed` (the same client under `setupServer` with one `http.get`
 * answering a fixed body), `msw-bare` (global `fetch` of that fixed URL, no
 * client). The second argument is seconds (default 5).
 */
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { createChannelsClient, unwrap } from '../src/channels/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { sandboxHandlers } from '../src/sandbox/msw/index.js';

const scenario = process.argv[2] ?? 'msw';
const seconds = Number(process.argv[3] ?? 5);
const FIXED = 'https://fixed.example/v1';

const sandbox = createSandbox();
const { apiKey } = sandbox.credentials.channels;
const direct = createChannelsClient({ apiKey, fetch: sandbox.fetch });
const wallet = await unwrap(
  direct.POST('/wallets', { body: { name: 'profile', wallet_owner_address: `0x${'11'.repeat(20)}`, chain_selector: '16015286601757825753', wallet_type: 'ecdsa' } }),
);
const walletJson = JSON.stringify(wallet);
const path = { params: { path: { wallet_id: wallet.wallet_id } } };

function run(): () => Promise<unknown> {
  switch (scenario) {
    case 'fetch':
      return () => unwrap(direct.GET('/wallets/{wallet_id}', path));
    case 'msw': {
      const client = createChannelsClient({ apiKey });
      return () => unwrap(client.GET('/wallets/{wallet_id}', path));
    }
    case 'msw-fixed': {
      const client = createChannelsClient({ apiKey, baseUrl: FIXED });
      return () => unwrap(client.GET('/wallets/{wallet_id}', path));
    }
    case 'msw-bare':
      return async () => (await fetch(`${FIXED}/wallets/${wallet.wallet_id}`)).json();
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

const server = scenario.startsWith('msw')
  ? setupServer(
      ...(scenario === 'msw' ? sandboxHandlers(sandbox) : []),
      http.get(`${FIXED}/wallets/:id`, () => new Response(walletJson, { headers: { 'content-type': 'application/json' } })),
    )
  : undefined;
server?.listen({ onUnhandledRequest: 'error' });
try {
  const call = run();
  for (let i = 0; i < 500; i++) await call();
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await call();
    n += 100;
  }
  console.log(`${scenario}: ${n} calls in ${seconds} s, ${((seconds * 1e6) / n).toFixed(1)} µs/call`);
} finally {
  server?.close();
  sandbox.close();
}
