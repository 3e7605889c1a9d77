// The sandbox under MSW in a real browser (issue 34): the README's browser
// example, as written, starts `setupWorker(...sandboxHandlers(sandbox))` in a
// page served from 127.0.0.1 (with MSW's worker script from the page's
// origin); the page's SDK client, made without a `fetch`, and its plain
// `fetch` then reach the sandbox running in the page, and nothing goes to
// the network. A streams client made without a `fetch` streams live reports
// from the same sandbox (its probe goes through the intercepted `fetch`).
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { entrySource } from '../support/user-modules.js';
import { describeWithBrowser, launchChromium } from './support/chromium.js';
import { closeServer, listenOnLoopback } from '../support/local-server.js';

const root = join(import.meta.dirname, '..', '..');
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

/** The README's TypeScript block that contains `marker`. */
async function readmeBlock(marker: string): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).find((source) => source.includes(marker));
  if (block === undefined) throw new Error(`README has no TypeScript block with ${marker}`);
  return block;
}

/** The page: the README's example first (it starts the worker), then what the application would do. */
const PAGE_SCRIPT = `
import { sandbox } from './readme-example.ts';
import { createChannelsClient, unwrap } from '@ourteam/service-sdk/channels';
import { createStreamsClient, streamReports } from '@ourteam/service-sdk/streams';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

/** Live reports on a streams client made without a fetch: the first two, moving the sandbox's clock a second at a time. */
async function liveReports() {
  const streams = createStreamsClient({ ...sandbox.credentials.streams, retry: false });
  const stream = streamReports(streams, [ETH_USD], { reconnect: { baseDelayMs: 20, maxDelayMs: 50 } });
  const feeds = [];
  const reading = (async () => {
    for await (const report of stream) feeds.push(report.feedID);
  })();
  const deadline = Date.now() + 20000;
  while (feeds.length < 2 && Date.now() < deadline) {
    sandbox.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await stream.close();
  await reading;
  return feeds.slice(0, 2);
}

window.runChecks = async () => {
  const headers = { Authorization: 'Apikey my-app-key' };
  const channels = createChannelsClient({ apiKey: 'my-app-key', baseUrl: 'https://acme.example/v1', retry: false });
  const created = await unwrap(channels.POST('/channels', { body: { name: 'from-the-page' } }));
  const listed = await (await fetch('https://acme.example/v1/channels', { headers })).json();
  const missing = await fetch('https://acme.example/v1/no-such-thing', { headers });
  const wrongKey = await fetch('https://acme.example/v1/channels', { headers: { Authorization: 'Apikey someone-else' } });
  return {
    controlled: navigator.serviceWorker.controller !== null,
    created: created.name,
    listed: listed.data.map((channel) => channel.channel_id).includes(created.channel_id),
    missing: { status: missing.status, body: await missing.json() },
    wrongKey: wrongKey.status,
    liveReports: await liveReports(),
  };
};
`;

/** `@ourteam/service-sdk/<entry>` → the entry's source; the page's own two modules from memory. */
function pageModules(example: string): Plugin {
  return {
    name: 'page-modules',
    setup(builder) {
      builder.onResolve({ filter: /^@ourteam\/service-sdk\// }, (args) => ({ path: entrySource(args.path.slice('@ourteam/service-sdk/'.length)) }));
      builder.onResolve({ filter: /^(page|\.\/readme-example)\.ts$/ }, (args) => ({ path: args.path.replace('./', ''), namespace: 'page' }));
      builder.onLoad({ filter: /.*/, namespace: 'page' }, (args) => ({
        // The example as written; the page reaches its sandbox through an export added after it.
        contents: args.path === 'page.ts' ? PAGE_SCRIPT : `${example}\nexport { sandbox };\n`,
        loader: 'ts',
        resolveDir: root,
      }));
    },
  };
}

describeWithBrowser('the sandbox under MSW in Chromium', () => {
  let server: Server | undefined;
  let browser: Browser | undefined;
  let origin = '';
  const files = new Map<string, string>();
  /** Every path the page asked our server for. */
  const served: string[] = [];

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: ['page.ts'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      outfile: '/out/page.js',
      plugins: [pageModules(await readmeBlock("from 'msw/browser'"))],
      logLevel: 'silent',
    });
    files.set('/page.js', bundled.outputFiles[0]!.text);
    // What `npx msw init <dir>` writes: the worker script of the installed msw, served from the page's origin.
    files.set('/mockServiceWorker.js', await readFile(join(root, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), 'utf8'));
    files.set('/', '<!doctype html><title>msw</title><script type="module" src="/page.js"></script>');
    server = createServer((req, res) => {
      served.push(req.url ?? '/');
      const body = files.get(req.url ?? '/');
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'text/javascript' }).end(body);
    });
    origin = await listenOnLoopback(server);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer(server);
  });

  it("the README's setupWorker example serves the page's client and fetch from one sandbox in the page", async () => {
    const context = await browser!.newContext();
    const outside: string[] = [];
    // Requests that reach the network, the worker's own included, are seen here; none may leave 127.0.0.1.
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => typeof (window as { runChecks?: unknown }).runChecks === 'function', undefined, { timeout: 30_000 });
    const result = await page.evaluate(() => (window as unknown as { runChecks: () => Promise<unknown> }).runChecks());
    await context.close();

    expect(result).toEqual({
      controlled: true,
      created: 'from-the-page',
      listed: true,
      missing: { status: 404, body: expect.objectContaining({ message: expect.stringContaining('/no-such-thing') }) },
      wrongKey: 401,
      liveReports: [ETH_USD, ETH_USD],
    });
    expect(pageErrors).toEqual([]);
    expect(outside).toEqual([]);
    expect([...new Set(served)].sort()).toEqual(['/', '/mockServiceWorker.js', '/page.js']);
  }, 60_000);
});
