// The parts every page of the docs site shares: the header with the site's
// one navigation (home, every guide, every API reference, the CLI reference)
// and the search box, the favicon, and the shell of the pages the build
// writes itself (the index, the guides, the CLI reference). Links are
// relative and the pages sit side by side in one folder, so the site works
// from any static server and from the file system alike.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The site's own styles (header, search, the pages it writes), light and dark. */
export const SITE_CSS = readFileSync(join(here, 'site.css'), 'utf8');
/** The site's own script: search, and deep links on the reference pages. Written beside the pages. */
export const SITE_SCRIPT_FILE = 'site.js';
export const SITE_SCRIPT = readFileSync(join(here, 'site.js'), 'utf8');
/** The search index, a script beside the pages (so a page opened as a file loads it too). */
export const SEARCH_INDEX_FILE = 'search-index.js';

/** The favicon: a small SVG, and the same mark as favicon.ico for clients that ask for that name. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0044d4"/>' +
  '<path d="M9 11h14M9 16h14M9 21h9" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>\n';

/** Text made safe for HTML. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/**
 * A 16×16 favicon.ico: one 32-bit BMP image of the same mark (a blue square,
 * three white lines), made here so the build needs no image tool.
 */
export function faviconIco() {
  const size = 16;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const row = size - 1 - y; // BMP rows go bottom-up
      const line = (y === 5 && x >= 4 && x <= 11) || (y === 8 && x >= 4 && x <= 11) || (y === 11 && x >= 4 && x <= 8);
      const at = (row * size + x) * 4;
      const [r, g, b] = line ? [255, 255, 255] : [0, 0x44, 0xd4];
      pixels.set([b, g, r, 255], at);
    }
  }
  const mask = Buffer.alloc(size * 4); // 1 bit a pixel, rows padded to 4 bytes: all opaque
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // the colour image and the mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(1, 2); // an icon
  directory.writeUInt16LE(1, 4); // one image
  directory.writeUInt8(size, 6);
  directory.writeUInt8(size, 7);
  directory.writeUInt16LE(1, 10);
  directory.writeUInt16LE(32, 12);
  directory.writeUInt32LE(image.length, 14);
  directory.writeUInt32LE(directory.length, 18);
  return Buffer.concat([directory, image]);
}

/**
 * The site's map: `{ guides: [{ href, title }], references: [{ href, title }], cli: { href, title } }`.
 * The header is made from it, on every page; a reference page adds its `operations` (Redoc's routes), the
 * menu that stands in for Redoc's floating one on narrow screens.
 */
export function siteHeader(site, current) {
  const link = ({ href, title }) => `<li><a href="${escapeHtml(href)}"${href === current ? ' aria-current="page"' : ''}>${escapeHtml(title)}</a></li>`;
  const group = (label, items, extra = '') =>
    `<li class="site-menu${extra}"><details><summary>${escapeHtml(label)}</summary><ul>${items.map(link).join('')}</ul></details></li>`;
  return `<a class="site-skip" href="#${site.skipTo ?? 'content'}">Skip to content</a>
<header class="site-header">
  <a class="site-home" href="index.html"${current === 'index.html' ? ' aria-current="page"' : ''}>Service SDK docs</a>
  <nav class="site-nav" aria-label="Site">
    <ul>
      ${group('Guides', site.guides)}
      ${group('API reference', site.references)}
      ${link(site.cli)}
      ${site.operations ? group('Operations', site.operations, ' site-menu-operations') : ''}
    </ul>
  </nav>
  <div class="site-search" role="search">
    <label for="site-search-input">Search</label>
    <input id="site-search-input" type="search" placeholder="Guides and reference" autocomplete="off" spellcheck="false"
      aria-controls="site-search-results" aria-describedby="site-search-status">
    <p id="site-search-status" class="site-search-status" aria-live="polite"></p>
    <ul id="site-search-results" class="site-search-results" hidden></ul>
  </div>
</header>
`;
}

/** What every page's <head> carries of the site's: the favicon and its styles. */
export function siteHead() {
  return `<link rel="icon" href="favicon.svg" type="image/svg+xml">\n<style>\n${SITE_CSS}</style>\n`;
}

/** The script tags every page ends with: the site's script, which loads the search index on first use. */
export function siteScripts() {
  return `<script src="${SITE_SCRIPT_FILE}" data-search-index="${SEARCH_INDEX_FILE}" defer></script>\n`;
}

/** A page the build writes itself: the header, then `body` (which holds the `#content` element). */
export function sitePage({ site, file, title, description, body }) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>${escapeHtml(title)}</title>
  ${description ? `<meta name="description" content="${escapeHtml(description)}">` : ''}
  ${siteHead()}
</head>
<body class="site-page">
${siteHeader(site, file)}
${body}
${siteScripts()}
</body>
</html>
`;
}
