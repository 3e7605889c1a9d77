// The docs as one site, in Chromium: every page built by `npm run docs`
// (the index, the guides made from the README, the five API references, the
// CLI reference) carries the same navigation, and every link of it, and of
// Redoc's sidebar, opens when requested on its own (HTTP 200: what a link
// opened in a new tab gets). A reader goes from the index to the guide on
// verifying reports in a few clicks and the sample it shows compiles; the
// search finds guides and reference alike; each page has a favicon; axe-core
// finds no serious or critical accessibility violation on any page. Nothing
// is requested from off the machine.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser, launchChromium } from './support/chromium.js';
import { ensureDocs, expectQuiet, normalize, openWatchedPage, serveDocs } from './support/docs-site.js';
import { axeViolations } from './support/axe.js';
import { closeServer } from '../support/local-server.js';
import { typeCheckUserModules } from '../support/user-modules.js';

const root = join(import.meta.dirname, '..', '..');
const APIS = Object.keys((parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')) as { apis: Record<string, unknown> }).apis);
const bundleOf = (api: string) => join(root, 'generated', 'openapi', `${api}.yaml`);
const samplesDir = join(root, 'test-results', 'docs-site-samples');

/** The pages the site is made of besides the references, by the file they are written to. */
const OWN_PAGES = ['index.html', 'verifying-reports.html', 'getting-started-channels.html', 'cli.html'];

/** Redoc's route of an API's first operation (`/<tag>/<operationid>`), as its sidebar links to it. */
function firstOperationRoute(api: string): string {
  const doc = parse(readFileSync(bundleOf(api), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };
  const operation = Object.values(Object.values(doc.paths)[0]!).find((candidate) => candidate?.operationId !== undefined)!;
  return `/${operation.tags![0]!.toLowerCase().replace(/\s+/g, '-')}/${operation.operationId!.toLowerCase()}`;
}

/** The site's navigation on a page: the header's links (closed menus included), as absolute URLs. */
async function navigationLinks(page: Page): Promise<string[]> {
  return page.locator('nav[aria-label="Site"] a, header a').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
}

const statuses = new Map<string, number>();
/** The document a link opens (its fragment is the browser's business), and its status as served (HEAD, asked once per document). */
async function statusOf(page: Page, href: string): Promise<number> {
  const url = new URL(href);
  url.hash = '';
  if (!statuses.has(url.href)) statuses.set(url.href, (await page.request.head(url.href)).status());
  return statuses.get(url.href)!;
}

describeWithBrowser('the docs site in Chromium', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = '';

  beforeAll(async () => {
    ensureDocs(APIS.map((api) => ({ api, bundle: bundleOf(api) })));
    ({ server, origin } = await serveDocs());
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await closeServer(server);
    }
  });

  it('every page has one navigation to the index, the guides, every API reference and the CLI reference, and each of its links answers 200', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      const problems: string[] = [];
      for (const file of [...OWN_PAGES, ...APIS.map((api) => `${api}.html`)]) {
        await page.goto(`${origin}/${file}`, { waitUntil: 'load' });
        const links = await navigationLinks(page);
        const targets = new Set(links.map((link) => new URL(link).pathname.replace(/^\//, '')));
        for (const wanted of ['index.html', 'verifying-reports.html', 'cli.html', ...APIS.map((api) => `${api}.html`)]) {
          if (!targets.has(wanted)) problems.push(`${file}: its navigation has no link to ${wanted}`);
        }
        for (const link of new Set(links)) {
          const status = await statusOf(page, link);
          if (status !== 200) problems.push(`${file}: ${link} answers ${status}`);
        }
        // The page's icon is served (no 404 for favicon.ico either).
        const icon = await page.locator('link[rel="icon"]').getAttribute('href');
        if (icon === null) problems.push(`${file}: no <link rel="icon">`);
        else if ((await statusOf(page, new URL(icon, page.url()).href)) !== 200) problems.push(`${file}: its icon ${icon} is not served`);
      }
      expect((await page.request.get(`${origin}/favicon.ico`)).status(), 'favicon.ico').toBe(200);
      expect(problems).toEqual([]);
      expectQuiet(watched, 'the site\'s pages');
    } finally {
      await watched.context.close();
    }
  }, 300_000);

  it.each(APIS)('%s: every link of the reference\'s sidebar, as served and once running, opens the page it names (200) and its section', async (api) => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      const served = (await page.request.get(`${origin}/${api}.html`)).text();
      const servedLinks = [...(await served).matchAll(/<a [^>]*href="([^"]+)"/g)].map((match) => match[1]!).filter((href) => !/^(https?:|mailto:|data:)/.test(href));
      await page.goto(`${origin}/${api}.html`, { waitUntil: 'load' });
      await page.locator('.menu-content a').first().waitFor();
      const running = await page.locator('.menu-content a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      const problems: string[] = [];
      for (const href of new Set([...servedLinks, ...running].filter((href) => !/^https?:/.test(href)))) {
        const status = await statusOf(page, new URL(href, page.url()).href);
        if (status !== 200) problems.push(`${href} answers ${status}`);
      }
      expect(problems, `${api}.html`).toEqual([]);
      // A tag's link, opened on its own, lands on that tag's operations.
      const tagLink = running.find((href) => /^#\/[\w-]+$/.test(href) && href !== '#/');
      expect(tagLink, `${api}.html has a link to a tag`).toBeDefined();
      const fresh = await watched.context.newPage();
      await fresh.goto(new URL(tagLink!, `${origin}/${api}.html`).href, { waitUntil: 'load' });
      await expect.poll(() => fresh.locator('[data-item-kind="httpItem"]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await fresh.close();
      expectQuiet(watched, `${api}.html`);
    } finally {
      await watched.context.close();
    }
  });

  it('a reader reaches the guide on verifying reports from the index in three clicks or fewer, and its code sample compiles', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
      let clicks = 0;
      // By what a reader sees: the header's "Guides" menu, then the guide's name.
      await page.getByRole('navigation', { name: 'Site' }).getByText('Guides', { exact: true }).click();
      clicks += 1;
      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: /verifying reports/i }).click();
      clicks += 1;
      await page.waitForURL(/verifying-reports\.html/);
      expect(clicks).toBeLessThanOrEqual(3);
      const content = page.locator('main');
      const text = normalize(await content.innerText());
      for (const topic of ['verify', 'verifyReport', 'readReportTrust', 'service-sdk streams verify']) {
        expect(text, `the guide speaks of ${topic}`).toContain(topic);
      }
      const samples = await content.locator('pre code.language-ts').allInnerTexts();
      expect(samples.length, 'the guide shows TypeScript').toBeGreaterThan(0);
      rmSync(samplesDir, { recursive: true, force: true });
      mkdirSync(samplesDir, { recursive: true });
      const files = samples.map((sample, at) => {
        const file = join(samplesDir, `verifying-reports-${at + 1}.ts`);
        writeFileSync(file, `${sample}\nexport {};\n`);
        return file;
      });
      expect(typeCheckUserModules(files, (file, line) => `${file}:${line}`)).toEqual([]);
      expectQuiet(watched, 'index.html to verifying-reports.html');
    } finally {
      await watched.context.close();
    }
  }, 180_000);

  it('the search finds guides and reference alike, and its results open', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/getting-started-channels.html`, { waitUntil: 'load' });
      const search = page.getByRole('searchbox', { name: 'Search' });
      await search.fill('readReportTrust');
      const results = page.locator('#site-search-results a');
      await expect.poll(() => results.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/Verifying reports/)]));
      await search.fill('latest report');
      await expect.poll(() => results.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/Get the latest report of a stream/)]));
      await results.filter({ hasText: 'Get the latest report of a stream' }).first().click();
      await page.waitForURL(/streams\.html#\/reports\/getlatestreport/);
      await expect.poll(() => page.locator('[data-item-kind="httpItem"]').first().getAttribute('id'), { timeout: 15_000 }).toBe('reports/getlatestreport');
      expectQuiet(watched, 'the search');
    } finally {
      await watched.context.close();
    }
  });

  /** Each page, and each reference at its first operation (its parameters, samples and Try it on screen), in both schemes. */
  const AXE_PAGES = [...OWN_PAGES, ...APIS.map((api) => `${api}.html`), ...APIS.map((api) => `${api}.html#${firstOperationRoute(api)}`)];
  it.each(AXE_PAGES.flatMap((file) => [[file, 'light'], [file, 'dark']] as const))('%s (%s): axe-core finds no serious or critical violation', async (file, scheme) => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${origin}/${file}`, { waitUntil: 'load' });
      if (file.includes('#/')) {
        const section = page.locator('[data-item-kind="httpItem"]').first();
        await section.waitFor();
        await section.locator('.try-it-button').click({ timeout: 30_000 });
        await section.locator('.try-it-panel').waitFor();
      } else if (!OWN_PAGES.includes(file)) {
        await page.locator('.menu-content a').first().waitFor();
      }
      const violations = await axeViolations(page, ['serious', 'critical']);
      expect(violations, `${file}:\n${violations.join('\n')}`).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });
});
