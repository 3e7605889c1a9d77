// The published reference docs, checked in a real browser: every page built by
// `npm run docs` (scripts/build-docs.mjs) is served from 127.0.0.1 and opened
// in Debian's Chromium through playwright-core (never a browser download). The
// checks read what the browser renders (innerText), never the definition the
// page embeds. Per page: the API title and every operation summary of the
// bundle are rendered; no visible text speaks of how the spec was written
// (MAINTAINER_WORDING); each operation's request panel shows its SDK call
// without a click, and the JSON payload is the panel's other choice; the
// code panels (request and response samples) are whole at the default width:
// no content wider than its panel, no text under a copy button; the
// console has no errors, and no request leaves 127.0.0.1 (such requests are
// aborted so nothing leaks, and the test names them). The index says how to
// install the SDK and shows its first call. Screenshots land in
// test-results/docs/<page>.png. Without a browser, the built pages are still
// read: they must carry no authoring notes and no `x-decision`.
//
// Chromium is /usr/bin/chromium (`apt-get install -y chromium`), or
// CHROMIUM_PATH. Without it the test is skipped, unless REQUIRE_BROWSER=1 (as
// in .ci/run), which makes a missing browser a failure.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_HTTP_METHODS, loadBundle, operationsOf } from '../contract/support/spec.js';
import { describeWithBrowser, launchChromium } from './support/chromium.js';
import { docsDir, ensureDocs, expectQuiet, normalize, openWatchedPage, operationSection, serveDocs } from './support/docs-site.js';
import { parse } from 'yaml';
import { AUTHORING_NOTE, MAINTAINER_WORDING, NOTE_KEY } from '../../scripts/lib/maintainer-notes.mjs';
import { codeSamplesOf, FIRST_CALL_SAMPLE } from '../../scripts/lib/code-samples.mjs';
import { consoleData } from '../../scripts/docs-console/console-data.mjs';
import { closeServer } from '../support/local-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shotsDir = join(root, 'test-results', 'docs');
const PAGE_TIMEOUT = 180_000;
/** How long one tag's operations may take to appear after it is opened. */
const SUMMARY_WAIT = 10_000;
/** How long an operation's request panel may take to show after its sidebar entry is clicked. */
const PANEL_WAIT = 4_000;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  tag: string | undefined;
  /** Whether the operation takes a JSON body (its request panel then offers the JSON payload too). */
  hasBody: boolean;
}

interface ApiDoc {
  api: string;
  bundle: string;
  title: string;
  version: string;
  description: boolean;
  /** Sidebar label of each tag (x-displayName or name), by tag name. */
  tagLabels: Map<string, string>;
  operations: Operation[];
}

type OpenApiTag = { name?: unknown; 'x-displayName'?: unknown };
type OpenApiOperation = { operationId?: unknown; summary?: unknown; tags?: unknown; requestBody?: unknown };

const apiNames = Object.keys(
  (parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')) as { apis?: Record<string, unknown> }).apis ?? {},
);

function loadApi(api: string): ApiDoc {
  const bundle = join(root, 'generated', 'openapi', `${api}.yaml`);
  if (!existsSync(bundle)) {
    throw new Error(`generated/openapi/${api}.yaml is missing: run \`npm run generate\` first`);
  }
  const document = parse(readFileSync(bundle, 'utf8')) as {
    info?: { title?: unknown; version?: unknown; summary?: unknown; description?: unknown };
    tags?: OpenApiTag[];
    paths?: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
  };
  const tagLabels = new Map<string, string>();
  for (const tag of document.tags ?? []) {
    if (typeof tag.name === 'string') {
      tagLabels.set(tag.name, typeof tag['x-displayName'] === 'string' ? tag['x-displayName'] : tag.name);
    }
  }
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      if (typeof operation.summary !== 'string' || operation.summary.trim() === '') {
        throw new Error(`${api}: ${method.toUpperCase()} ${path} has no summary`);
      }
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [];
      operations.push({
        operationId: String(operation.operationId),
        method,
        path,
        summary: operation.summary,
        tag: tags[0],
        hasBody: operation.requestBody !== undefined,
      });
      if (tags[0] !== undefined && !tagLabels.has(tags[0])) tagLabels.set(tags[0], tags[0]);
    }
  }
  if (typeof document.info?.title !== 'string') throw new Error(`${api}: info.title is missing`);
  return {
    api,
    bundle,
    title: document.info.title,
    version: String(document.info.version ?? ''),
    description: Boolean(document.info.summary ?? document.info.description),
    tagLabels,
    operations,
  };
}


/**
 * Reads the content panel (<main>) from the top of the page to the bottom:
 * Redoc mounts sections only near the viewport (and drops those far from
 * it), so the text is read at every step. Returns which of `wanted` it
 * showed, and every passage of visible text that `forbidden` matches (with a
 * little context). Without `forbidden` it stops once everything is found;
 * with it, it always reads to the bottom.
 */
async function readWhileScrolling(
  page: Page,
  wanted: string[],
  forbidden?: RegExp,
): Promise<{ found: Set<string>; forbiddenPassages: string[] }> {
  const result = await page.evaluate(
    async ({ targets, pattern }: { targets: string[]; pattern: { source: string; flags: string } | null }) => {
      const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
      const scroller = document.scrollingElement ?? document.documentElement;
      const main = document.querySelector('main');
      const seen = new Set<string>();
      const passages = new Set<string>();
      const forbiddenText = pattern ? new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`) : null;
      const look = () => {
        // innerText: only what is rendered (collapsed or hidden parts are not).
        const text = (main?.innerText ?? '').replace(/\s+/g, ' ');
        for (const target of targets) if (text.includes(target)) seen.add(target);
        if (forbiddenText) {
          for (const match of text.matchAll(forbiddenText)) {
            const at = match.index ?? 0;
            passages.add(`…${text.slice(Math.max(0, at - 60), at + match[0].length + 60)}…`);
          }
        }
      };
      window.scrollTo(0, 0);
      await sleep(60);
      look();
      let stable = 0;
      let lastHeight = -1;
      const done = () => !forbiddenText && seen.size === targets.length;
      for (let step = 0; step < 5000 && stable < 4 && !done(); step += 1) {
        window.scrollBy(0, Math.round(window.innerHeight * 0.8));
        await sleep(40);
        look();
        const atEnd = window.scrollY + window.innerHeight >= scroller.scrollHeight - 2;
        stable = atEnd && scroller.scrollHeight === lastHeight ? stable + 1 : 0;
        lastHeight = scroller.scrollHeight;
      }
      return { found: [...seen], passages: [...passages] };
    },
    { targets: wanted, pattern: forbidden ? { source: forbidden.source, flags: forbidden.flags } : null },
  );
  return { found: new Set(result.found), forbiddenPassages: result.passages };
}

/**
 * The visible text of an operation's right-hand column as a reader sees it
 * on arrival (nothing clicked; innerText leaves out whatever is not
 * rendered), or undefined while the section is not mounted.
 */
async function rightPanelText(page: Page, summary: string): Promise<string | undefined> {
  const section = operationSection(page, summary);
  if ((await section.count()) === 0) return undefined;
  return normalize((await section.first().locator('[data-testid="right-panel"]').allInnerTexts()).join(' '));
}

/** The call a sample makes by its path (after the helper, when a helper covers the operation): what the request panel must show. */
function callOf(sample: string): string {
  const line = sample.split('\n').find((candidate) => /\bawait\b.*(\.(GET|PUT|POST|DELETE|PATCH|HEAD)\(|streamReports\()/.test(candidate));
  if (line === undefined) throw new Error(`a code sample without an awaited call:\n${sample}`);
  // `const answer = await unwrap(channels.GET('/wallets/{wallet_id}', {` -> `channels.GET('/wallets/{wallet_id}'`
  const call = line.match(/[\w.]+\.(?:GET|PUT|POST|DELETE|PATCH|HEAD)\('[^']*'|streamReports\(\w+/);
  if (call === null) throw new Error(`no SDK call found in: ${line}`);
  return call[0];
}

/**
 * What a reader cannot read in an operation's code panels (request and
 * response samples) at the page's width: a panel whose content is wider than
 * the panel (scrolled or cut off), and text under a panel's copy button.
 * Measured in the page, on rendered boxes; empty when every panel is whole.
 */
async function hiddenCodeText(section: Locator): Promise<string[]> {
  return section.evaluate((element) => {
    const problems: string[] = [];
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const pre of element.querySelectorAll('pre')) {
      if (pre.getClientRects().length === 0) continue; // not rendered (another tab, a collapsed part)
      const firstLine = (pre.textContent ?? '').trim().split('\n')[0]?.slice(0, 60);
      if (pre.scrollWidth > pre.clientWidth) {
        problems.push(`content ${pre.scrollWidth} px wide in a ${pre.clientWidth} px panel ("${firstLine}")`);
      }
      const block = pre.closest('[data-component-name="CodeBlock/CodeBlock"]') ?? pre.parentElement;
      const button = block?.querySelector('[data-testid="copy-button"]');
      const box = button?.getBoundingClientRect();
      if (box === undefined || box.width === 0) continue;
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        if (text.trim() === '') continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if ([...range.getClientRects()].some((rect) => rect.width > 0 && overlaps(rect, box))) {
          problems.push(`the copy button covers "${text.trim().slice(0, 40)}" ("${firstLine}")`);
        }
      }
    }
    return problems;
  });
}

describeWithBrowser('reference docs in Chromium', () => {
  const apis = apiNames.map(loadApi);
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = '';
  const timings: string[] = [];

  beforeAll(async () => {
    ensureDocs(apis);
    mkdirSync(shotsDir, { recursive: true });
    ({ server, origin } = await serveDocs());
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await closeServer(server);
      if (timings.length > 0) console.log(`docs pages:\n  ${timings.join('\n  ')}`);
    }
  });

  it('index links every API with its title, version and description', async () => {
    const started = performance.now();
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/index.html`, { waitUntil: 'networkidle' });
      for (const { api, title, version, description } of apis) {
        const link = page.getByRole('link', { name: title, exact: true });
        expect(await link.count(), `index has one link named "${title}"`).toBe(1);
        expect(await link.getAttribute('href')).toBe(`${api}.html`);
        const item = page.locator('li', { has: link });
        expect(normalize(await item.innerText()), `index entry of ${api} shows its version`).toContain(version);
        if (description) {
          expect(normalize(await item.locator('p').innerText()), `index entry of ${api} has a description`).not.toBe('');
        }
        const response = await page.request.get(`${origin}/${api}.html`);
        expect(response.status(), `${api}.html is served`).toBe(200);
      }
      // A reader arriving here learns how to install the SDK and sees its first call.
      const shown = normalize(await page.locator('main').innerText());
      expect(shown, 'index shows the install command').toContain('npm install @ourteam/service-sdk');
      expect(shown, 'index shows the first call with the SDK').toContain(normalize(FIRST_CALL_SAMPLE));
      expect(shown, 'index shows the first call with the SDK').toMatch(/await unwrap\(\w+\.GET\('\//);
      // …and how to run an operation in the page: "Try it", offline, "Send", "Reset sandbox".
      const tryIt = normalize(await page.locator('section', { has: page.getByRole('heading', { name: 'Try it in the page', exact: true }) }).innerText());
      for (const phrase of ['Try it', 'Send', 'Reset sandbox', 'nothing leaves your browser', 'sandboxHandlers(sandbox, { baseUrls })', 'setupServer']) {
        expect(tryIt, `index says how to use Try it ("${phrase}")`).toContain(phrase);
      }
      expect(shown.match(MAINTAINER_WORDING)?.[0], 'index shows maintainers\' wording').toBeUndefined();
      await page.screenshot({ path: join(shotsDir, 'index.png') });
      expectQuiet(watched, 'index.html');
    } finally {
      await watched.context.close();
    }
    timings.push(`index.html: ${Math.round(performance.now() - started)} ms`);
  });

  it.each(apiNames)(
    '%s page renders its title and every operation, offline',
    async (api) => {
      const started = performance.now();
      const doc = apis.find((candidate) => candidate.api === api)!;
      const watched = await openWatchedPage(browser!);
      try {
        const { page } = watched;
        await page.goto(`${origin}/${api}.html`, { waitUntil: 'load' });
        const content = page.locator('main'); // the content panel; the sidebar is outside it
        await content
          .locator('h1')
          .first()
          .waitFor({ state: 'visible' })
          .catch((error: unknown) => {
            throw new Error(
              `${api}.html did not render its content panel (${error instanceof Error ? error.message.split('\n')[0] : String(error)})\n` +
                `console errors:\n${watched.consoleErrors.join('\n') || '(none)'}\nrequests outside 127.0.0.1: ${watched.external.join(', ') || '(none)'}`,
            );
          });
        await page.waitForLoadState('networkidle');
        expect(normalize(await content.innerText()), `${api}.html shows its title`).toContain(doc.title);
        // The search box says "Loading..." while its index builds; a cosmetic wait for the screenshot.
        await page
          .locator('.menu-content')
          .getByText('Loading...', { exact: true })
          .waitFor({ state: 'hidden', timeout: 10_000 })
          .catch(() => undefined);
        await page.screenshot({ path: join(shotsDir, `${api}.png`) });

        // What a reader sees first (the API's introduction), then each tag
        // below: none of it may speak of how the spec was written.
        const maintainerWording = new Set((await readWhileScrolling(page, [], MAINTAINER_WORDING)).forbiddenPassages);

        // Redoc 3 expands one tag at a time (the current route) and mounts its
        // operations lazily: open each tag from the sidebar, scroll through
        // it, and look for the summaries of its operations in the content.
        const missing: string[] = [];
        const byTag = new Map<string | undefined, Operation[]>();
        for (const operation of doc.operations) {
          byTag.set(operation.tag, [...(byTag.get(operation.tag) ?? []), operation]);
        }
        for (const [tag, operations] of byTag) {
          if (tag !== undefined) {
            const before = page.url();
            const label = doc.tagLabels.get(tag) ?? tag;
            await page.locator('.menu-content').getByRole('link', { name: label, exact: true }).first().click();
            await page.waitForURL((url) => url.href !== before);
          }
          const pending = new Set(operations);
          const deadline = Date.now() + SUMMARY_WAIT;
          do {
            const { found, forbiddenPassages } = await readWhileScrolling(
              page,
              [...pending].map((operation) => normalize(operation.summary)),
              MAINTAINER_WORDING,
            );
            for (const passage of forbiddenPassages) maintainerWording.add(passage);
            for (const operation of pending) if (found.has(normalize(operation.summary))) pending.delete(operation);
          } while (pending.size > 0 && Date.now() < deadline);
          for (const operation of pending) {
            missing.push(`${operation.method.toUpperCase()} ${operation.path} "${operation.summary}" (tag ${tag ?? 'none'})`);
          }
        }
        expect(missing, `${api}.html does not render these operation summaries:\n${missing.join('\n')}`).toEqual([]);
        expect([...maintainerWording], `${api}.html shows maintainers' wording to readers`).toEqual([]);
        expectQuiet(watched, `${api}.html`);
      } finally {
        await watched.context.close();
      }
      timings.push(
        `${api}.html: ${Math.round(performance.now() - started)} ms (${doc.operations.length} operations)`,
      );
    },
    PAGE_TIMEOUT,
  );
  it.each(apiNames)(
    '%s page: each operation shows its SDK call first, without a click',
    async (api) => {
      const started = performance.now();
      const doc = apis.find((candidate) => candidate.api === api)!;
      const samples = new Map(codeSamplesOf(api, parse(readFileSync(doc.bundle, 'utf8'))));
      const inConsole = new Set(consoleData(api, parse(readFileSync(doc.bundle, 'utf8'))).operations.map((operation) => operation.id));
      const watched = await openWatchedPage(browser!);
      try {
        const { page } = watched;
        await page.goto(`${origin}/${api}.html`, { waitUntil: 'load' });
        await page.locator('main h1').first().waitFor({ state: 'visible' });
        const menu = page.locator('.menu-content');
        const problems: string[] = [];
        let lastWithBody: { operation: Operation; route: string } | undefined;
        const byTag = new Map<string | undefined, Operation[]>();
        for (const operation of doc.operations) {
          byTag.set(operation.tag, [...(byTag.get(operation.tag) ?? []), operation]);
        }
        for (const [tag, operations] of byTag) {
          if (tag !== undefined) {
            await menu.getByRole('link', { name: doc.tagLabels.get(tag) ?? tag, exact: true }).first().click();
          }
          for (const operation of operations) {
            const what = `${operation.method.toUpperCase()} ${operation.path} (${operation.operationId})`;
            const sample = samples.get(operation.operationId);
            if (sample === undefined) {
              problems.push(`${what}: no SDK sample made for it`);
              continue;
            }
            const call = callOf(sample);
            // The sidebar entry scrolls the operation into view, as a reader's click would.
            const link = menu.locator('a').filter({ has: page.getByText(operation.summary, { exact: true }) }).first();
            await link.click();
            let panel: string | undefined;
            const deadline = Date.now() + PANEL_WAIT;
            for (;;) {
              panel = await rightPanelText(page, normalize(operation.summary));
              if (panel?.includes(call) || Date.now() > deadline) break;
              await page.waitForTimeout(100);
            }
            if (panel === undefined) {
              problems.push(`${what}: no section of the page has the heading "${operation.summary}"`);
            } else if (!panel.includes(call)) {
              problems.push(`${what}: the request panel shows "${panel.slice(0, 160)}", not the SDK call ${call}`);
            } else {
              // Nothing of its code panels is clipped or under a copy button at the default width.
              const hidden = await hiddenCodeText(operationSection(page, normalize(operation.summary)).first());
              for (const problem of hidden) problems.push(`${what}: ${problem}`);
              // Each operation the console can run has its visible "Try it" button (test/browser/try-it.test.ts runs them).
              const tryIt = operationSection(page, normalize(operation.summary)).first().getByRole('button', { name: `Try it: ${operation.operationId}`, exact: true });
              const shown = await tryIt.waitFor({ state: 'visible', timeout: PANEL_WAIT }).then(() => true, () => false);
              if (shown !== inConsole.has(operation.operationId)) {
                problems.push(`${what}: ${shown ? 'a "Try it" button, though the console cannot run it' : 'no visible "Try it" button'}`);
              }
              if (operation.hasBody) lastWithBody = { operation, route: (await link.getAttribute('href')) ?? '' };
            }
          }
        }
        expect(problems, `${api}.html:\n${problems.join('\n')}`).toEqual([]);

        // The JSON payload is the other choice of the same panel. Choosing it
        // changes the choice for the whole page, so it is tried last, on a
        // page opened afresh at that operation.
        if (lastWithBody !== undefined) {
          const { operation, route } = lastWithBody;
          await page.goto(`${origin}/${api}.html${route}`, { waitUntil: 'load' });
          const section = operationSection(page, normalize(operation.summary)).first();
          await section.locator('[data-testid="right-panel"] button[aria-haspopup="menu"]', { hasText: /^\s*SDK\s*$/ }).first().click();
          await page.getByRole('menuitem', { name: 'Payload', exact: true }).first().click();
          const call = callOf(samples.get(operation.operationId)!);
          const shown = async () => (await rightPanelText(page, normalize(operation.summary))) ?? '';
          const message = `${api}.html: choosing "Payload" on ${operation.operationId} shows its JSON body instead of the SDK call`;
          await expect.poll(shown, { message, timeout: PANEL_WAIT }).toMatch(/\{ "\w+": /);
          expect(await shown(), message).not.toContain(call);
        }
        expectQuiet(watched, `${api}.html`);
      } finally {
        await watched.context.close();
      }
      timings.push(`${api}.html samples: ${Math.round(performance.now() - started)} ms (${doc.operations.length} operations)`);
    },
    PAGE_TIMEOUT,
  );

  it('streams: the getLatestReport operation shows the SDK\'s helper first, then the raw call, and links the guide that teaches it', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/streams.html#/reports/getlatestreport`, { waitUntil: 'load' });
      const section = page.locator('[id="reports/getlatestreport"]');
      // The right-hand columns' text (the title's row has an empty one), once Redoc has mounted the section.
      const panelText = async () => normalize((await section.locator('[data-testid="right-panel"]').allInnerTexts()).join(' '));
      await expect.poll(panelText, { timeout: 30_000 }).toContain('SDK');
      const panel = await panelText();
      const helper = panel.indexOf('await getLatestReport(streams, ');
      const raw = panel.indexOf("await unwrap(streams.GET('/api/v1/reports/latest'");
      expect(helper, `the request panel shows getLatestReport: ${panel.slice(0, 300)}`).toBeGreaterThanOrEqual(0);
      expect(raw, 'the request panel shows the raw call').toBeGreaterThan(helper);
      const guide = section.getByRole('link', { name: 'getLatestReport' }).first();
      const href = await guide.getAttribute('href');
      expect(href).toMatch(/^[\w-]+\.html$/);
      await guide.click();
      await page.waitForURL(new RegExp(href!.replace('.', '\\.')));
      expect(normalize(await page.locator('main').innerText())).toContain('getLatestReport(streams');
      expectQuiet(watched, 'streams.html getLatestReport');
    } finally {
      await watched.context.close();
    }
  });
});


/**
 * What a page carries of our documents, apart from Redoc's own script (whose
 * code has words such as `seed` of its own): the prerendered markup before
 * the script, and the document Redoc embeds to hydrate the page.
 */
function ownContentOf(html: string, page: string): { markup: string; definition: string } {
  const scriptStart = html.indexOf('<script type="module">');
  const definitionStart = html.indexOf('const __redoc_definition = ');
  const definitionEnd = html.indexOf('const __redoc_options', definitionStart);
  if (scriptStart < 0 || definitionStart < scriptStart || definitionEnd < 0) {
    throw new Error(`${page}: Redoc's page layout changed (module script or __redoc_definition not found); revisit ownContentOf`);
  }
  return { markup: html.slice(0, scriptStart), definition: html.slice(definitionStart, definitionEnd) };
}

describe('reference docs carry no authoring notes', () => {
  const apis = apiNames.map(loadApi);

  beforeAll(() => {
    ensureDocs(apis);
  }, 120_000);

  it.each(apiNames)('%s.html', (api) => {
    const page = `${api}.html`;
    const html = readFileSync(join(docsDir, page), 'utf8');
    for (const note of ['Decision:', 'not shown', NOTE_KEY]) {
      expect(html.includes(note), `${page} contains "${note}"`).toBe(false);
    }
    const { markup, definition } = ownContentOf(html, page);
    const doc = apis.find((candidate) => candidate.api === api)!;
    expect(markup, `${page} prerenders its title`).toContain(doc.title);
    expect(definition, `${page} embeds its document`).toContain(JSON.stringify(doc.title));
    expect(markup.match(AUTHORING_NOTE)?.[0], `${page}: prerendered text has an authoring note`).toBeUndefined();
    expect(definition.match(AUTHORING_NOTE)?.[0], `${page}: embedded document has an authoring note`).toBeUndefined();
  });
});

describe('reference docs show how to call each operation with the SDK', () => {
  const apis = apiNames.map(loadApi);

  beforeAll(() => {
    ensureDocs(apis);
  }, 120_000);

  it.each(apiNames)('%s.html: one TypeScript sample per operation', (api) => {
    const page = `${api}.html`;
    const { definition } = ownContentOf(readFileSync(join(docsDir, page), 'utf8'), page);
    const operations = operationsOf(loadBundle(api), ALL_HTTP_METHODS).length;
    expect(definition.match(/"x-codeSamples"/g)?.length ?? 0, `${page}: x-codeSamples entries`).toBe(operations);
    expect(definition.match(/@ourteam\/service-sdk\//g)?.length ?? 0, `${page}: samples importing the SDK`).toBeGreaterThanOrEqual(operations);
  });
});

