/**
 * Where a request through MSW spends its time (issue 34's speed goal: one
 * request through `setupServer(...sandboxHandlers(sandbox))` ≤ 1.5× the same
 * request on `fetch: sandbox.fetch`). Diagnostic, not part of `npm run bench`:
 *
 *   node --import tsx bench/msw-steps.ts [scale=1] [only: a part of a setup's name]
 *
 * The same channels `GET /wallets/{id}` (a client without `fetch`, so global
 * `fetch`), under one interception setup at a time, each phase interleaved
 * with the client on `fetch: sandbox.fetch` in that same setup, so that each
 * ratio is against its own baseline. Each setup adds one layer:
 *
 * - `fetch, no MSW`: the baseline with nothing patched;
 * - `FetchInterceptor alone`: `@mswjs/interceptors`' fetch interceptor (msw's
 *   own dependency), its `request` listener answering a fixed body: the
 *   interception with no msw around it; then with a `response` listener, as
 *   msw has (every mocked response is cloned for it); then with msw's
 *   `node:http` interceptor applied too, which patches the global `Headers`,
 *   `Request` and `Response` (their constructors and `Headers`' setters);
 * - `msw, minimal handler`: `setupServer` with a `RequestHandler` whose
 *   parse and predicate do nothing, answering the fixed body: msw's request
 *   pipeline (all its interceptors, frames, events, handler run);
 * - `msw, http.get`: the same answer from `http.get(url, …)`: an
 *   `HttpHandler`'s parse (URL pattern, cookies);
 * - `msw, http.all + sandbox`: the handler `sandboxHandlers` gave before
 *   (`http.all(regex)` handing the request to `sandbox.fetch`);
 * - `msw, sandboxHandlers`: today's handler.
 */
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { http, RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { createChannelsClient, unwrap } from '../src/channels/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { sandboxHandlers } from '../src/sandbox/msw/index.js';
import { measure } from './measure.js';
import { deltaUs, ratioSpread } from './rows.js';

const scale = Number(process.argv[2] ?? 1);
/** Only the setups whose name contains this (default: all). */
const only = process.argv[3];
const FIXED = 'https://fixed.example/v1';

const sandbox = createSandbox();
const { apiKey } = sandbox.credentials.channels;
const direct = createChannelsClient({ apiKey, fetch: sandbox.fetch });
const wallet = await unwrap(
  direct.POST('/wallets', { body: { name: 'steps', wallet_owner_address: `0x${'11'.repeat(20)}`, chain_selector: '16015286601757825753', wallet_type: 'ecdsa' } }),
);
const walletJson = JSON.stringify(wallet);
const path = { params: { path: { wallet_id: wallet.wallet_id } } };
const fixedResponse = () => new Response(walletJson, { headers: { 'content-type': 'application/json' } });

/** A handler that takes every request and answers the fixed body: msw's pipeline with no parsing of ours or its. */
class FixedAnswer extends RequestHandler {
  constructor() {
    super({ info: { header: 'fixed' }, resolver: fixedResponse });
  }
  predicate(): boolean {
    return true;
  }
  log(): void {}
}

/** The handler `sandboxHandlers` returned before (default mounts only): `http.all` over a regex of the base URLs. */
function httpAllSandbox() {
  return http.all(/^(?:https:\/\/cre-connect\.api\.chain\.link\/v1)(?:\/|$)/, ({ request }) => sandbox.fetch(request));
}

interface Phase {
  name: string;
  /** Starts the interception; returns what stops it. */
  start(): () => void;
  baseUrl?: string;
}

const server = (...handlers: Parameters<typeof setupServer>) => () => {
  const s = setupServer(...handlers);
  s.listen({ onUnhandledRequest: 'error' });
  return () => s.close();
};

/**
 * msw's interception without msw: its fetch interceptor answering the fixed
 * body, with a `response` listener as msw's (each mocked response is cloned
 * for it), and its `node:http` interceptor applied, which patches the global
 * `Headers`, `Request` and `Response` to record raw header names.
 */
function interceptors({ responseListener, clientRequest }: { responseListener: boolean; clientRequest: boolean }): () => void {
  const fetchInterceptor = new FetchInterceptor();
  fetchInterceptor.on('request', ({ controller }) => controller.respondWith(fixedResponse()));
  if (responseListener) fetchInterceptor.on('response', () => {});
  const clientRequestInterceptor = clientRequest ? new ClientRequestInterceptor() : undefined;
  fetchInterceptor.apply();
  clientRequestInterceptor?.apply();
  return () => {
    clientRequestInterceptor?.dispose();
    fetchInterceptor.dispose();
  };
}

const phases: Phase[] = [
  { name: 'fetch, no MSW', start: () => () => {} },
  { name: 'FetchInterceptor alone, fixed body', baseUrl: FIXED, start: () => interceptors({ responseListener: false, clientRequest: false }) },
  { name: "  + a 'response' listener (msw has one)", baseUrl: FIXED, start: () => interceptors({ responseListener: true, clientRequest: false }) },
  { name: '  + ClientRequestInterceptor (patched Headers, Request, Response)', baseUrl: FIXED, start: () => interceptors({ responseListener: true, clientRequest: true }) },
  { name: 'msw, minimal RequestHandler, fixed body', baseUrl: FIXED, start: server(new FixedAnswer()) },
  { name: 'msw, http.get, fixed body', baseUrl: FIXED, start: server(http.get(`${FIXED}/wallets/:id`, fixedResponse)) },
  { name: 'msw, http.all(regex) + sandbox.fetch (before)', start: server(httpAllSandbox()) },
  { name: 'msw, sandboxHandlers (now)', start: server(...sandboxHandlers(sandbox)) },
];

console.log(`msw-steps, scale ${scale}; load ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const rows: string[][] = [];
for (const phase of phases.filter((p) => only === undefined || p.name.includes(only))) {
  const stop = phase.start();
  try {
    const intercepted = createChannelsClient({ apiKey, ...(phase.baseUrl === undefined ? { fetch: sandbox.fetch } : { baseUrl: phase.baseUrl }) });
    const underTest = phase.name === 'fetch, no MSW' ? direct : phase.baseUrl === undefined && phase.name.startsWith('msw') ? createChannelsClient({ apiKey }) : intercepted;
    const stats = await measure(
      [
        { name: 'fetch', run: () => unwrap(direct.GET('/wallets/{wallet_id}', path)) },
        { name: 'phase', run: () => unwrap(underTest.GET('/wallets/{wallet_id}', path)) },
      ],
      { warmup: 3_000, samples: Math.round(1_000 * scale), rounds: 20 },
    );
    const base = stats.get('fetch')!.medianNs;
    const own = stats.get('phase')!.medianNs;
    const mean = 1e6 / stats.get('phase')!.opsPerSec;
    const ratio = ratioSpread(stats, 'phase', 'fetch');
    const ratioText = `${ratio.median.toFixed(2)} (IQR ${ratio.q1.toFixed(2)}–${ratio.q3.toFixed(2)})`;
    rows.push([phase.name, (own / 1000).toFixed(1), mean.toFixed(1), (base / 1000).toFixed(1), ratioText, (deltaUs(stats, 'phase', 'fetch')).toFixed(1)]);
  } finally {
    stop();
  }
}
sandbox.close();
const header = ['setup', 'median µs', 'mean µs', 'sandbox.fetch median µs (same setup)', 'ratio, per round', 'µs over sandbox.fetch, per round'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
