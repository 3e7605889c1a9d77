// The clients in a real browser: the streams and channels entries are bundled
// for the browser (no Node built-ins), loaded in a page served from
// 127.0.0.1, and called against the Prism mocks (cross-origin, so CORS too).
// In the browser there is no `node:crypto`, so this exercises the portable
// HMAC signer end to end; the vendor's test vector is checked in the page.
// The report decoder scans with WebAssembly there, and under a
// Content-Security-Policy that forbids compiling WebAssembly it falls back to
// its JavaScript scan and decodes the same report.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPrismMocks, stopPrismMocks, type PrismMocks } from '../../scripts/lib/prism.mjs';
import { describeWithBrowser, launchChromium } from './support/chromium.js';
import { signedReport, testDon, testSigner } from '../support/signed-reports.js';
import { closeServer, listenOnLoopback } from '../support/local-server.js';

const root = join(import.meta.dirname, '..', '..');

const PAGE_SCRIPT = `
import { createStreamsClient, getLatestReport, stringToSign, streamReports, ReportStreamUnsupportedError, verifyReport } from './streams-entry.js';
import { createChannelsClient, unwrap, ApiError } from './channels-entry.js';
import { useScanEngine } from './scan-entry.js';
window.runChecks = async (urls, signed) => {
  const out = {};
  out.scanEngine = useScanEngine('wasm'); // 'js' where WebAssembly may not compile
  // Reports signed by viem in Node: verified here (libsecp256k1 as WebAssembly, or @noble/curves under the CSP).
  out.verified = signed.map(({ fullReport, trust }) => { const r = verifyReport(fullReport, trust); return r.valid ? 'valid' : r.reason; });
  const { createHmacSigner } = await import('./hmac-entry.js');
  out.vector = createHmacSigner('test-secret-please-ignore').sign(stringToSign('GET',
    '/api/v1/reports/latest?feedID=0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782',
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11', 1700000000000));
  const streams = createStreamsClient({ baseUrl: urls.streams, apiKey: 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11', apiSecret: 's3cret' });
  const report = await getLatestReport(streams, '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782', { decode: true });
  out.reportVersion = report.decoded.version;
  out.price = String(report.decoded.price);
  const channels = createChannelsClient({ baseUrl: urls.channels, apiKey: 'browser-key' });
  out.networks = (await unwrap(channels.GET('/networks'))).data.length;
  try {
    await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } }, headers: { Prefer: 'code=404' } }));
  } catch (e) {
    out.error = e instanceof ApiError ? e.status + ' ' + e.type : String(e);
  }
  // No WebSocket here sends headers: the live stream refuses, typed, before it connects.
  const stream = streamReports(streams, ['0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782'], { wsUrl: urls.streams.replace(/^http/, 'ws') });
  try {
    await stream.next();
    out.stream = 'streamed';
  } catch (e) {
    out.stream = e instanceof ReportStreamUnsupportedError ? e.message : String(e);
  } finally {
    await stream.close();
  }
  return out;
};
`;

describeWithBrowser('the clients in Chromium', () => {
  let mocks: PrismMocks | undefined;
  let server: Server | undefined;
  let browser: Browser | undefined;
  let origin = '';
  const files = new Map<string, string>();
  /** A genuine report and one a stranger co-signed, with the trust (viem's signing). */
  let signedVectors: { fullReport: string; trust: unknown }[] = [];

  beforeAll(async () => {
    mocks = await startPrismMocks({ apis: ['streams', 'channels'] });
    const don = testDon(1);
    const genuine = await signedReport(don);
    const forged = await signedReport(don, { signers: [don.signers[0]!, testSigner(31337)] });
    signedVectors = [genuine, forged].map(({ fullReport }) => ({ fullReport, trust: don.trust }));
    const bundled = await build({
      entryPoints: {
        'streams-entry': join(root, 'src/streams/index.ts'),
        'channels-entry': join(root, 'src/channels/index.ts'),
        'hmac-entry': join(root, 'src/core/hmac/index.ts'),
        'scan-entry': join(root, 'src/reports/scan.ts'),
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      splitting: true,
      write: false,
      outdir: '/out',
      logLevel: 'silent',
    });
    for (const file of bundled.outputFiles) files.set(file.path.replace('/out', ''), file.text);
    files.set('/page.js', PAGE_SCRIPT);
    const html = '<!doctype html><title>sdk</title><script type="module" src="/page.js"></script>';
    files.set('/', html);
    files.set('/csp', html);
    server = createServer((req, res) => {
      const body = files.get(req.url ?? '/');
      if (body === undefined) return void res.writeHead(404).end();
      const page = req.url === '/' || req.url === '/csp';
      res.writeHead(200, {
        'content-type': page ? 'text/html' : 'text/javascript',
        // Scripts from the page's origin only: no 'wasm-unsafe-eval', so no WebAssembly.
        ...(req.url === '/csp' ? { 'content-security-policy': "script-src 'self'" } : {}),
      }).end(body);
    });
    origin = await listenOnLoopback(server);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer(server);
    if (mocks) await stopPrismMocks(mocks);
  });

  async function runChecksIn(path: string): Promise<{ result: unknown; consoleErrors: string[]; outside: string[] }> {
    const page = await browser!.newPage();
    const consoleErrors: string[] = [];
    const outside: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname !== '127.0.0.1') {
        outside.push(url.href);
        return route.abort();
      }
      return route.continue();
    });
    await page.goto(`${origin}${path}`);
    await page.waitForFunction(() => typeof (window as { runChecks?: unknown }).runChecks === 'function');
    const result = await page.evaluate(
      ({ urls, signed }) => (window as unknown as { runChecks: (u: unknown, s: unknown) => Promise<unknown> }).runChecks(urls, signed),
      { urls: mocks!.urls, signed: signedVectors },
    );
    await page.close();
    return { result, consoleErrors, outside };
  }

  const expected = (scanEngine: 'wasm' | 'js'): Record<string, unknown> => ({
    scanEngine,
    verified: ['valid', 'not_a_signer'],
    vector: '4bebd6f37f60496dfaf1d79f11011d0203e7473368cf5ef4c55f4dc1e45e8ff1',
    reportVersion: 'V3',
    price: expect.stringMatching(/^\d+$/),
    networks: expect.any(Number),
    error: '404 NOT_FOUND',
    stream: expect.stringMatching(/^cannot open a report stream here: a browser's or web worker's WebSocket cannot send request headers/),
  });

  it('signs with the portable HMAC, fetches and decodes a report, and maps errors, all in the browser', async () => {
    expect(files.get('/streams-entry.js')).not.toMatch(/from\s*["']node:/);
    const { result, consoleErrors, outside } = await runChecksIn('/');
    expect(result).toEqual(expected('wasm'));
    // A 404 is logged by Chromium as a failed resource load; nothing else may be.
    expect(consoleErrors.filter((text) => !text.includes('404'))).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);

  it('decodes the same report under a Content-Security-Policy that forbids WebAssembly', async () => {
    const plain = await runChecksIn('/');
    const { result, consoleErrors, outside } = await runChecksIn('/csp');
    expect(result).toEqual({ ...expected('js'), price: (plain.result as { price: string }).price });
    // Chromium reports the refused compilation; nothing else may be logged.
    expect(consoleErrors.filter((text) => !text.includes('404') && !/WebAssembly/i.test(text))).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);
});
