// "Try it" for every reader, in Chromium: its fields readable in the dark
// scheme (contrast of 4.5:1 or more, measured on the rendered colours), the
// keyboard kept in the panel after Send, a name that says the operation, a
// deep link that puts "Try it" a few Tabs away, nothing of it covered at
// 375 px (elementFromPoint), one SDK sample beside it, the base URL the
// samples show, and pre-filled IDs the page's sandbox has (a get after a
// create uses the created ID).
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser, launchChromium } from './support/chromium.js';
import { ensureDocs, expectQuiet, openWatchedPage, serveDocs } from './support/docs-site.js';
import { closeServer } from '../support/local-server.js';

const root = join(import.meta.dirname, '..', '..');
const APIS = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'] as const;
const bundleOf = (api: string) => join(root, 'generated', 'openapi', `${api}.yaml`);
const ANSWER_WAIT = 30_000;

/** Opens a page at an operation (Redoc's route) and its console; returns the section and the panel. */
async function openAt(page: Page, api: string, route: string, operationId: string): Promise<{ section: Locator; panel: Locator }> {
  await page.goto(`${origin}/${api}.html#${route}`, { waitUntil: 'load' });
  const section = page.locator(`[id="${route.slice(1)}"]`);
  const button = section.getByRole('button', { name: `Try it: ${operationId}`, exact: true });
  await button.waitFor({ timeout: ANSWER_WAIT });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const panel = section.locator('.try-it-panel');
  await panel.waitFor({ state: 'visible' });
  return { section, panel };
}

async function send(panel: Locator): Promise<string> {
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  const status = panel.locator('.try-it-answer .try-it-status').first();
  await expect.poll(async () => (await status.innerText()).trim(), { timeout: ANSWER_WAIT }).not.toBe('Sending…');
  return (await status.innerText()).trim();
}

let origin = '';

describeWithBrowser('"Try it" for every reader, in Chromium', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;

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

  it('with prefers-color-scheme: dark, every field of the console reads at a contrast of 4.5:1 or more', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.emulateMedia({ colorScheme: 'dark' });
      const { panel } = await openAt(page, 'channels', '/channels/createchannel', 'createChannel');
      await send(panel);
      const contrasts = await panel.evaluate((element) => {
        const rgb = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
        const luminance = ([r, g, b]: number[]) =>
          [r!, g!, b!].map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)).reduce((sum, c, at) => sum + c * [0.2126, 0.7152, 0.0722][at]!, 0);
        /** The colour behind an element: its own background, or the nearest ancestor's that is not transparent. */
        const background = (node: Element | null): number[] => {
          for (let at = node; at; at = at.parentElement) {
            const [r, g, b, a = 1] = rgb(getComputedStyle(at).backgroundColor);
            if (a > 0) return [r!, g!, b!];
          }
          return [255, 255, 255];
        };
        const fields = [...element.querySelectorAll('input, textarea, label, pre, .try-it-status, .try-it-note, button, h5')];
        return fields.map((field) => {
          const fore = luminance(rgb(getComputedStyle(field).color));
          const back = luminance(background(field));
          const ratio = (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05);
          return { field: `${field.tagName.toLowerCase()}${field.id ? `#${field.id}` : ''}.${field.className}`, ratio: Math.round(ratio * 100) / 100 };
        });
      });
      expect(contrasts.length).toBeGreaterThan(5);
      expect(contrasts.filter(({ ratio }) => ratio < 4.5), 'console text below 4.5:1 in the dark scheme').toEqual([]);
      expectQuiet(watched, 'channels.html in the dark scheme');
    } finally {
      await watched.context.close();
    }
  });

  it('the button names its operation, a deep link puts it three Tabs away or fewer, and after Send the focus is inside the panel', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.goto(`${origin}/channels.html#/channels/createchannel`, { waitUntil: 'load' });
      const button = page.getByRole('button', { name: 'Try it: createChannel', exact: true });
      await button.waitFor({ timeout: ANSWER_WAIT });
      let tabs = 0;
      while (tabs < 3 && !(await button.evaluate((element) => element === document.activeElement))) {
        await page.keyboard.press('Tab');
        tabs += 1;
      }
      expect(await button.evaluate((element) => element === document.activeElement), 'Try it is focused within three Tabs of the deep link').toBe(true);
      await page.keyboard.press('Enter');
      const panel = page.getByRole('region', { name: /^Try it: / });
      await panel.waitFor();
      await panel.getByRole('button', { name: 'Send', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => panel.locator('.try-it-answer .try-it-status').innerText(), { timeout: ANSWER_WAIT }).toMatch(/^\d{3} /);
      expect(await panel.evaluate((element) => element.contains(document.activeElement)), 'the focus after Send').toBe(true);
      expectQuiet(watched, 'channels.html by keyboard');
    } finally {
      await watched.context.close();
    }
  });

  it('at 375 px wide, nothing of the console is covered by anything else', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      await page.setViewportSize({ width: 375, height: 740 });
      const { section, panel } = await openAt(page, 'channels', '/channels/createchannel', 'createChannel');
      await send(panel);
      const covered: string[] = [];
      const parts = [section.locator('.try-it-button'), ...(await panel.locator('label, input, textarea, button, pre, .try-it-status, .try-it-note, h5').all())];
      for (const part of parts) {
        await part.scrollIntoViewIfNeeded();
        const hidden = await part.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const points = [
            [box.left + box.width / 2, box.top + Math.min(box.height / 2, 10)],
            [box.left + 3, box.top + 3],
            [box.right - 3, box.top + 3],
          ];
          return points
            .filter(([x, y]) => x! >= 0 && y! >= 0 && x! < innerWidth && y! < innerHeight)
            .map(([x, y]) => document.elementFromPoint(x!, y!))
            .filter((hit) => hit !== null && hit !== element && !element.contains(hit))
            .map((hit) => `${element.tagName.toLowerCase()}.${element.className} under ${hit!.tagName.toLowerCase()}.${String(hit!.className).slice(0, 60)}`);
        });
        covered.push(...hidden);
      }
      expect(covered).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it('channels: one SDK sample beside the open console, and it shows the base URL the samples use', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      const { panel } = await openAt(page, 'channels', '/channels/createchannel', 'createChannel');
      const column = panel.locator('xpath=..'); // the right-hand column it sits in
      const shown = await column.innerText();
      expect(shown.match(/import \{ createChannelsClient/g)?.length, 'SDK samples shown beside the console').toBe(1);
      const sample = await panel.locator('.try-it-sample').innerText();
      const base = /baseUrl: '([^']+)'/.exec(sample)?.[1];
      expect(base).toBe('https://<org>.example/v1');
      expect(await panel.locator('.try-it-note').innerText()).toContain(`${base}/channels`);
      expectQuiet(watched, 'channels.html, one sample');
    } finally {
      await watched.context.close();
    }
  });

  it('channels: a get offers no ID the sandbox lacks (it names the operation that makes one), and after a create it uses the created ID', async () => {
    const watched = await openWatchedPage(browser!);
    try {
      const { page } = watched;
      const get = await openAt(page, 'channels', '/channels/getchannel', 'getChannel');
      // The sandbox starts with no channel: the spec's example ID would answer 404.
      const idField = get.panel.getByLabel(/^channel_id/);
      await expect.poll(() => idField.getAttribute('placeholder'), { timeout: ANSWER_WAIT }).toContain('createChannel');
      expect(await idField.inputValue()).toBe('');

      const create = await openAt(page, 'channels', '/channels/createchannel', 'createChannel');
      await create.panel.getByLabel('Body (JSON)').fill(JSON.stringify({ name: `made-${Date.now().toString(36)}` }));
      expect(await send(create.panel)).toBe('201 Created');
      const created = JSON.parse(await create.panel.locator('.try-it-body').innerText()) as { channel_id: string };

      const again = await openAt(page, 'channels', '/channels/getchannel', 'getChannel');
      await expect.poll(() => again.panel.getByLabel(/^channel_id/).inputValue(), { timeout: ANSWER_WAIT }).toBe(created.channel_id);
      expect(await send(again.panel)).toBe('200 OK');
      expectQuiet(watched, 'channels.html, get after create');
    } finally {
      await watched.context.close();
    }
  });
});
