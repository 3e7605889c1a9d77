// The built reference docs as the browser tests use them: docs/ built by
// `npm run docs` (scripts/build-docs.mjs), rebuilt only when build-info.json
// says an input changed; a static server for it on 127.0.0.1; pages opened in
// a context that records (and aborts) any request leaving 127.0.0.1 and every
// console error; and the section of a Redoc page that holds an operation.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/**
 * Where `npm run docs` writes the pages. DOCS_DIR points the tests at a site
 * built elsewhere (another revision's, to see a test fail on it), used as it is.
 */
export const docsDir = process.env.DOCS_DIR ? resolve(process.env.DOCS_DIR) : join(root, 'docs');
const buildScript = join(root, 'scripts', 'build-docs.mjs');

/** An API's page and the bundle it is built from. */
export interface DocsPageSource {
  api: string;
  bundle: string;
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** docs/ is reused when build-info.json says it was built from the current bundles, options and scripts. */
export function docsAreFresh(apis: DocsPageSource[]): boolean {
  const infoFile = join(docsDir, 'build-info.json');
  if (!existsSync(infoFile) || !existsSync(join(docsDir, 'index.html'))) return false;
  try {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as {
      redoclyCli?: string;
      inputs?: Record<string, string>;
      apis?: Record<string, { sha256?: string }>;
    };
    const cliVersion = (
      JSON.parse(readFileSync(join(root, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')) as { version: string }
    ).version;
    return (
      info.redoclyCli === cliVersion &&
      info.inputs?.['redocly.yaml'] !== undefined &&
      info.inputs['scripts/build-docs.mjs'] !== undefined &&
      Object.entries(info.inputs).every(([file, hash]) => existsSync(join(root, file)) && sha256(join(root, file)) === hash) &&
      Object.keys(info.apis ?? {}).length === apis.length &&
      apis.every(
        ({ api, bundle }) => info.apis?.[api]?.sha256 === sha256(bundle) && existsSync(join(docsDir, `${api}.html`)),
      )
    );
  } catch {
    return false;
  }
}

export function buildDocs(): void {
  const result = spawnSync(process.execPath, [buildScript], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error || result.status !== 0) {
    throw new Error(
      `npm run docs (node scripts/build-docs.mjs) failed: ${result.error?.message ?? `exit code ${result.status}`}\n` +
        `${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static file server for docs/, on 127.0.0.1 and a free port. */
export async function serveDocs(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = resolve(docsDir, `.${pathname === '/' ? '/index.html' : pathname}`);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !file.startsWith(docsDir + sep) || !existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = readFileSync(file);
    response
      .writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
      .end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((ready, failed) => {
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => ready());
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** data:, blob: and about: never reach the network; anything else must go to 127.0.0.1. */
export function staysLocal(url: string): boolean {
  const parsed = new URL(url);
  if (['data:', 'blob:', 'about:'].includes(parsed.protocol)) return true;
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname === '127.0.0.1';
}

export interface Watched {
  page: Page;
  context: BrowserContext;
  external: string[];
  consoleErrors: string[];
}

export async function openWatchedPage(browser: Browser): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const external: string[] = [];
  const consoleErrors: string[] = [];
  context.on('request', (request) => {
    if (!staysLocal(request.url())) external.push(request.url());
  });
  // Nothing may leak even when a check fails: whatever is not for 127.0.0.1 is aborted.
  await context.route(
    (url) => !staysLocal(url.href),
    (route) => route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const { url, lineNumber } = message.location();
      consoleErrors.push(`${message.text()}${url ? ` (${url.slice(0, 120)}:${lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { page, context, external, consoleErrors };
}

export function expectQuiet({ external, consoleErrors }: Watched, what: string): void {
  expect(external, `${what} requested URLs outside 127.0.0.1: ${external.join(', ')}`).toEqual([]);
  expect(consoleErrors, `${what} logged console errors:\n${consoleErrors.join('\n')}`).toEqual([]);
}

/** Builds docs/ unless it is fresh for these pages. */
export function ensureDocs(apis: DocsPageSource[]): void {
  if (process.env.DOCS_DIR) return;
  if (!docsAreFresh(apis)) buildDocs();
}

/** Text with its runs of white space made one space, trimmed. */
export const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * An operation's section of a Redoc page (its heading, description and, in
 * the right-hand column, its request and response panels), found by its
 * heading.
 */
export function operationSection(page: Page, summary: string): Locator {
  // By the heading's text: its accessible name also holds the anchor link's label.
  const exactly = new RegExp(`^\\s*${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return page.locator('main [data-item-kind="httpItem"]').filter({ has: page.locator('h1, h2, h3', { hasText: exactly }) });
}

