// The reference docs' "Try it" console (scripts/docs-console/), in Chromium,
// read as a reader sees it (visible text only): on each API's page one
// operation goes through "Try it" → "Send" to a 2xx answered by the sandbox
// inside the page; on the channels page a channel created is then listed,
// and gone after "Reset sandbox"; the SDK call shown follows the values
// typed; a body that breaks the spec shows the sandbox's 400 naming the field;
// an open console sits in the right-hand column beside the request's text and
// moves none of it.
// No request leaves 127.0.0.1 (such requests are aborted and named), and the
// sandbox's script loads on the first "Try it" only. With JavaScript off, the
// page still shows every operation's heading, parameters, body fields and SDK
// sample, and no console.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser, launchChromium } from './support/chromium.js';
import { ensureDocs, expectQuiet, normalize, openWatchedPage, operationSection, serveDocs } from './support/docs-site.js';
import { closeServer } from '../support/local-server.js';
import { codeSamplesOf } from '../../scripts/lib/code-samples.mjs';

const root = join(import.meta.dirname, '..', '..');
const APIS = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'] as const;
const bundleOf = (api: string) => join(root, 'generated', 'openapi', `${api}.yaml`);
/** How long the sandbox may take to load and answer, on a busy machine. */
const ANSWER_WAIT = 30_000;

type Parameter = { name?: string; $ref?: string };
/** An operation of a path item (the item's own `parameters` list is read apart, in the no-JavaScript test). */
type SpecOperation = { operationId?: string; summary?: string; tags?: string[]; parameters?: Parameter[]; requestBody?: unknown };
type Spec = {
  tags?: { name: string; 'x-displayName'?: string }[];
  paths: Record<string, Record<string, SpecOperation | undefined>>;
};

/** Follows a local `$ref`. */
function deref<T>(spec: unknown, node: T): T {
  let current: unknown = node;
  while (current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    current = ((current as { $ref: string }).$ref.slice(2).split('/') as string[]).reduce((at: unknown, key) => (at as Record<string, unknown>)?.[key.replace(/~1/g, '/')], spec);
  }
  return current as T;
}

/** The top-level fields of an operation's JSON body (through `allOf`). */
function bodyFields(spec: unknown, operation: { requestBody?: unknown }): string[] {
  type Schema = { properties?: Record<string, unknown>; allOf?: Schema[]; $ref?: string };
  const body = deref(spec, operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined);
  const fields = (schema: Schema | undefined): string[] => {
    const resolved = deref(spec, schema);
    return [...(resolved?.allOf ?? []).flatMap(fields), ...Object.keys(resolved?.properties ?? {})];
  };
  return fields(body?.content?.['application/json']?.schema);
}

/** The summary (its heading and sidebar entry) and the sidebar label of the tag of an operation, from the API's bundle. */
function operationOf(api: string, operationId: string): { summary: string; tagLabel: string | undefined } {
  const spec = parse(readFileSync(bundleOf(api), 'utf8')) as Spec;
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      if (operation?.operationId === operationId && operation.summary) {
        const tag = operation.tags?.[0];
        const label = spec.tags?.find((candidate) => candidate.name === tag)?.['x-displayName'] ?? tag;
        return { summary: operation.summary, tagLabel: label };
      }
    }
  }
  throw new Error(`${api} has no operation ${operationId}`);
}

/** One operation per API that a reader can run as the spec's example stands. */
const ONE_PER_API: Record<(typeof APIS)[number], string> = {
  channels: 'listNetworks',
  streams: 'getLatestReport', // signed with HMAC: the streams client's signer, over the sandbox's credentials
  'policy-coordinator': 'listPolicyEngines',
  'policy-evaluation': 'requestEvaluation',
  'policy-reporting': 'listPolicies',
};

/** Opens an operation's console on its API's page: its sidebar entry clicked (its tag opened first), then its "Try it" button. */
async function openConsole(page: Page, api: string, operationId: string): Promise<Locator> {
  const { summary, tagLabel } = operationOf(api, operationId);
  const menu = page.locator('.menu-content');
  const entry = menu.locator('a').filter({ has: page.getByText(summary, { exact: true }) }).first();
  if (tagLabel !== undefined && !(await entry.isVisible())) {
    await menu.getByRole('link', { name: tagLabel, exact: true }).first().click();
  }
  await entry.click();
  const section = operationSection(page, normalize(summary)).first();
  await section.getByRole('button', { name: `Try it: ${operationId}`, exact: true }).click({ timeout: ANSWER_WAIT });
  const panel = section.getByRole('region', { name: `Try it: ${summary}` });
  await panel.waitFor({ state: 'visible' });
  return panel;
}

/** Clicks "Send" and returns the answer as shown: the status line, then the rest of the answer's visible text. */
async function send(panel: Locator): Promise<{ status: string; text: string }> {
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  const status = panel.locator('.try-it-answer .try-it-status').first();
  await expect.poll(async () => (await status.innerText()).trim(), { timeout: ANSWER_WAIT }).not.toBe('Sending…');
  return { status: (await status.innerText()).trim(), text: await panel.locator('.try-it-answer').innerText() };
}

/** The shown answer's body, parsed: the console shows JSON as it came, indented. */
async function shownBody(panel: Locator): Promise<unknown> {
  return JSON.parse(await panel.locator('.try-it-answer .try-it-body').innerText());
}

describeWithBrowser('"Try it" in the reference docs, in Chromium', () => {
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

  it.each(APIS)('%s: an operation through Try it → Send answers 2xx, from the sandbox in the page', async (api) => {
    const watched = await openWatchedPage(browser!);
    const loads: string[] = [];
    watched.context.on('request', (request) => {
      if (request.url().endsWith('/try-it-sandbox.js')) loads.push(request.url());
    });
    try {
      const { page } = watched;
      await page.goto(`${origin}/${api}.html`, { waitUntil: 'load' });
      await page.locator('main h1').first().waitFor({ state: 'visible' });
      expect(loads, 'the sandbox loads on the first "Try it", not with the page').toEqual([]);
      const panel = await openConsole(page, api, ONE_PER_API[api]);
      const { status, text } = await send(panel);
      expect(status, `${api} ${ONE_PER_API[api]}: ${text}`).toMatch(/^2\d\d \w/);
      expect(text).toMatch(/content-type: application\/json/i);
      expect(await shownBody(panel)).toBeTypeOf('object');
      expect(loads, 'the sandbox script is loaded once').toHaveLength(1);
      expectQuiet(watched, `${api}.html with Try it`);
    } finally {
      await watched.context.close();
    }
  });

  it('channels: a channel created in Try it is listed by another operation, with the SDK call as typed, and gone after Reset sandbox', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/channels.html`, { waitUntil: 'load' });
      const name = `try-it-${Date.now().toString(36)}`;
      const create = await openConsole(page, 'channels', 'createChannel');
      await create.getByLabel('Body (JSON)').fill(JSON.stringify({ name, description: 'made in the docs' }));
      // The SDK call shown is the one that sends what was typed.
      await expect.poll(() => create.locator('.try-it-sample').innerText()).toContain(`name: '${name}'`);
      const created = await send(create);
      expect(created.status, created.text).toBe('201 Created');
      expect(await shownBody(create)).toMatchObject({ name, status: 'active' });

      const list = await openConsole(page, 'channels', 'listChannels');
      const listed = await send(list);
      expect(listed.status, listed.text).toBe('200 OK');
      expect((await shownBody(list)) as { data: { name: string }[] }).toMatchObject({ data: [expect.objectContaining({ name })] });

      await list.getByRole('button', { name: 'Reset sandbox', exact: true }).click();
      await expect.poll(() => list.locator('.try-it-answer').innerText()).toContain('back to its first state');
      const afterReset = await send(list);
      expect(afterReset.status).toBe('200 OK');
      expect(((await shownBody(list)) as { data: { name: string }[] }).data.map((channel) => channel.name)).not.toContain(name);
      expectQuiet(watched, 'channels.html, create then list');
    } finally {
      await watched.context.close();
    }
  });

  it('channels: an open console sits beside the request\'s reference text, which stays where it was', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${origin}/channels.html`, { waitUntil: 'load' });
      const { summary } = operationOf('channels', 'createChannel');
      const section = operationSection(page, normalize(summary)).first();
      // What a reader reads first below the operation's title: the request's heading (its accessible name also holds its anchor's label).
      const requestHeading = section.locator('h1, h2, h3, h4', { hasText: /^\s*Request\s*$/ }).first();
      const panel = await openConsole(page, 'channels', 'createChannel');
      const opened = (await requestHeading.boundingBox())!;
      const panelBox = (await panel.boundingBox())!;
      await section.getByRole('button', { name: 'Try it: createChannel', exact: true }).click();
      await panel.waitFor({ state: 'detached' });
      const closed = (await requestHeading.boundingBox())!;
      // Opening the console moves none of the reference text down: no blank column beside it.
      expect(Math.abs(opened.y - closed.y), 'the request heading moved when the console opened').toBeLessThan(40);
      // The console is in the right-hand column, level with the request's text.
      expect(panelBox.x).toBeGreaterThan(opened.x + opened.width);
      expect(Math.abs(panelBox.y - opened.y)).toBeLessThan(120);
      expectQuiet(watched, 'channels.html, the console beside the request');
    } finally {
      await watched.context.close();
    }
  });

  it('channels: a body that breaks the spec shows the sandbox\'s 400, naming the field', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/channels.html`, { waitUntil: 'load' });
      const create = await openConsole(page, 'channels', 'createChannel');
      await create.getByLabel('Body (JSON)').fill(JSON.stringify({ description: 'no name' }));
      const { status, text } = await send(create);
      expect(status, text).toBe('400 Bad Request');
      const body = (await shownBody(create)) as { type?: string; message?: string };
      expect(body.type).toBe('VALIDATION_ERROR');
      expect(body.message).toMatch(/\bname\b/);
      expectQuiet(watched, 'channels.html, a bad body');
    } finally {
      await watched.context.close();
    }
  });

  it.each(APIS)('%s without JavaScript: each operation\'s heading, parameters, body fields and SDK sample are in the page\'s text, and no console', async (api) => {
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/${api}.html`, { waitUntil: 'load' });
      const text = normalize(await page.locator('body').innerText());
      const headings = (await page.getByRole('heading').allInnerTexts()).map(normalize);
      const spec = parse(readFileSync(bundleOf(api), 'utf8')) as Spec;
      const problems: string[] = [];
      const samples = new Map(codeSamplesOf(api, spec) as [string, string][]);
      for (const [path, item] of Object.entries(spec.paths)) {
        for (const operation of Object.values(item)) {
          if (Array.isArray(operation) || !operation?.operationId) continue;
          const what = `${operation.operationId} (${path})`;
          if (!headings.includes(normalize(operation.summary ?? ''))) problems.push(`${what}: no heading`);
          const shared = (item as { parameters?: Parameter[] }).parameters ?? [];
          for (const parameter of [...shared, ...(operation.parameters ?? [])].map((p) => deref(spec, p))) {
            if (parameter?.name && !text.includes(parameter.name)) problems.push(`${what}: parameter ${parameter.name} not in the text`);
          }
          for (const field of bodyFields(spec, operation)) if (!text.includes(field)) problems.push(`${what}: body field ${field} not in the text`);
          const call = samples.get(operation.operationId)?.split('\n').find((line) => /\bawait\b/.test(line));
          if (call === undefined || !text.includes(normalize(call))) problems.push(`${what}: its SDK sample is not in the text`);
        }
      }
      expect(problems, `${api}.html without JavaScript`).toEqual([]);
      expect(await page.getByRole('button', { name: /^Try it/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
