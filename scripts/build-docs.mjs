#!/usr/bin/env node
// The docs site: one folder of static pages that teaches the whole SDK.
//   - index.html: install, the first call, and links to everything below;
//   - the guides, made from the README's user sections at build time
//     (scripts/docs-site/guides.mjs: the README is cut at its headings, never
//     copied by hand; a section added to it becomes a guide);
//   - one Redoc reference page per API in redocly.yaml, built from the
//     bundles in generated/openapi/, each operation's SDK sample showing the
//     SDK's helper first where one covers it (scripts/lib/code-samples.mjs);
//   - cli.html, the CLI reference: every command's own help text;
//   - favicon.svg and favicon.ico, site.js (search, deep links) and
//     search-index.js (guides, operations and commands).
// Every page has the same header (scripts/docs-site/layout.mjs): the index,
// every guide, every API reference, the CLI reference and the search box.
//
//   node scripts/build-docs.mjs [--out <dir>] [--bundles <dir>] [--api <name>]
//
// The output folder (docs/ by default, ignored by git) is deleted and written
// fresh on every run. Every page must render with no network:
//   - `--inlineBundle` embeds Redoc's script instead of loading it from the CDN;
//   - REDOCLY_TELEMETRY=off turns off the CLI's telemetry and makes it write
//     `disableTelemetry: true` into each page (Redoc 3 otherwise posts usage
//     events to otel.cloud.redocly.com from the reader's browser);
//   - the "API docs by Redocly" badge is the one remote asset left: Redoc 3.0.1
//     (bundled with @redocly/cli 2.x) renders it unconditionally in the sidebar
//     footer from cdn.redoc.ly, and no option (theme, feature flag, template
//     variable) turns it off, so its two URLs are swapped for inline SVG data
//     URIs after the build (see BADGE_URLS). The build fails if they are not
//     found, so a Redocly upgrade that changes the badge is noticed here.
// Each page shows an SDK sample per operation (`x-codeSamples`, added here
// only), first in the operation's request panel: Redoc 3 shows a sample only
// if its label is listed under `openapi.codeSamples.languages` in
// redocly.yaml, and opens on the first listed (`SDK`, then the JSON
// `Payload`). The index page says how to install the SDK and shows its first
// call. Each page is built from its bundle without the maintainer notes
// (`x-decision`, see scripts/lib/maintainer-notes.mjs): Redoc embeds the whole
// document in the page, and those notes are not for readers.
// test/browser/docs.test.ts opens every page in Chromium and fails on any
// request that leaves 127.0.0.1.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { FIRST_CALL_SAMPLE, withCodeSamples } from './lib/code-samples.mjs';
import { withoutMaintainerNotes } from './lib/maintainer-notes.mjs';
import { buildConsole, gzippedSize, SANDBOX_SCRIPT } from './docs-console/bundle.mjs';
import { consoleData } from './docs-console/console-data.mjs';
import { noscriptOperationList } from './docs-console/operation-list.mjs';
import { cliHelpTexts, cliReferenceBody } from './docs-site/cli-reference.mjs';
import { guideHtml, guidesOf } from './docs-site/guides.mjs';
import { escapeHtml, FAVICON_SVG, faviconIco, SEARCH_INDEX_FILE, SITE_SCRIPT, SITE_SCRIPT_FILE, siteHead, siteHeader, sitePage, siteScripts } from './docs-site/layout.mjs';
import { operationRoute } from './docs-site/routes.mjs';
import { searchIndexScript } from './docs-site/search-index.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const outDir = resolve(option('--out') ?? join(root, 'docs'));
const bundleDir = resolve(option('--bundles') ?? join(root, 'generated', 'openapi'));
const only = option('--api');

const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
/** Files besides the bundles that shape the pages; build-info.json records their hashes. */
const BUILD_INPUTS = [
  'redocly.yaml',
  'scripts/build-docs.mjs',
  'scripts/lib/code-samples.mjs',
  'scripts/lib/maintainer-notes.mjs',
  'scripts/docs-console/code-panels.css',
  'scripts/docs-console/operation-list.mjs',
  'README.md',
  'scripts/docs-site/guides.mjs',
  'scripts/docs-site/layout.mjs',
  'scripts/docs-site/site.css',
  'scripts/docs-site/site.js',
  'scripts/docs-site/search-index.mjs',
  'scripts/docs-site/cli-reference.mjs',
  'scripts/docs-site/routes.mjs',
  'scripts/docs-site/reference.css',
];
const CODE_PANELS_CSS = readFileSync(join(root, 'scripts', 'docs-console', 'code-panels.css'), 'utf8');
const REFERENCE_CSS = readFileSync(join(root, 'scripts', 'docs-site', 'reference.css'), 'utf8');
const redoclyVersion = JSON.parse(readFileSync(join(root, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')).version;
const allApis = Object.keys(parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')).apis ?? {});
if (only !== undefined && !allApis.includes(only)) {
  fail(`unknown API '${only}'; redocly.yaml has: ${allApis.join(', ')}`);
}
const apis = allApis.filter((name) => only === undefined || name === only);
if (apis.length === 0) fail('redocly.yaml lists no APIs under `apis:`');

// Badge images of the Redoc 3 sidebar footer ("API docs by <logo>", and the
// mini logo when the sidebar is collapsed), replaced by inline equivalents.
const BADGE_URLS = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svgDataUri(
    '<svg xmlns="http://www.w3.org/2000/svg" width="52" height="16" viewBox="0 0 52 16">' +
      '<text x="0" y="12" font-family="Arial,Helvetica,sans-serif" font-size="12" font-weight="700" fill="#0044d4">Redocly</text></svg>',
  ),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svgDataUri(
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">' +
      '<circle cx="8" cy="8" r="8" fill="#0044d4"/>' +
      '<text x="8" y="12" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-size="11" font-weight="700" fill="#fff">R</text></svg>',
  ),
};

const missing = apis.filter((api) => !existsSync(bundlePath(api)));
if (missing.length > 0) {
  fail(
    `missing bundle(s): ${missing.map((api) => relative(root, bundlePath(api))).join(', ')}\n` +
      'Run `npm run generate` (or `node scripts/generate.mjs --api <name>`) first.',
  );
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const sourceDir = mkdtempSync(join(tmpdir(), 'build-docs-'));
process.on('exit', () => rmSync(sourceDir, { recursive: true, force: true }));

// The "Try it" console (scripts/docs-console/): a small script in every page,
// and the sandbox's script beside the pages, loaded on the first "Try it".
const tryIt = await buildConsole();
writeFileSync(join(outDir, SANDBOX_SCRIPT), tryIt.sandboxScript);

// The site: the guides (the README's sections), the API references, the CLI reference; one header on every page.
const { guides } = guidesOf(readFileSync(join(root, 'README.md'), 'utf8'));
const cliHelp = await cliHelpTexts();
// Without the maintainer notes: the search index and the pages' HTML carry descriptions, never `x-decision`.
const documents = Object.fromEntries(apis.map((api) => [api, parse(withoutMaintainerNotes(readFileSync(bundlePath(api), 'utf8')))]));
const site = {
  guides: guides.map((guide) => ({ href: `${guide.slug}.html`, title: guide.title })),
  references: apis.map((api) => ({ href: `${api}.html`, title: documents[api].info?.title ?? api })),
  cli: { href: 'cli.html', title: 'CLI reference' },
};
/** The first guide whose code calls a helper (`getLatestReport(`): the reference links it beside the operations it covers. */
const guideShowing = (helper) => {
  const guide = guides.find((candidate) => candidate.markdown.includes(`${helper}(`));
  return guide && { href: `${guide.slug}.html`, title: guide.title };
};
writeFileSync(join(outDir, 'favicon.svg'), FAVICON_SVG);
writeFileSync(join(outDir, 'favicon.ico'), faviconIco());
writeFileSync(join(outDir, SITE_SCRIPT_FILE), SITE_SCRIPT);
writeFileSync(join(outDir, SEARCH_INDEX_FILE), searchIndexScript({ guides, documents, cliHelp, site }));
for (const [at, guide] of guides.entries()) {
  writeFileSync(join(outDir, `${guide.slug}.html`), guidePage(guide, guides[at - 1], guides[at + 1]));
}
writeFileSync(join(outDir, 'cli.html'), sitePage({ site, file: 'cli.html', title: 'CLI reference', body: cliReferenceBody(cliHelp) }));

const entries = [];
for (const api of apis) {
  const started = performance.now();
  const bundle = bundlePath(api);
  const document = documents[api];
  const output = join(outDir, `${api}.html`);
  const source = join(sourceDir, `${api}.yaml`);
  // The page shows how to call each operation with the SDK (scripts/lib/code-samples.mjs).
  writeFileSync(source, withCodeSamples(api, withoutMaintainerNotes(readFileSync(bundle, 'utf8')), { guideOf: guideShowing }));
  runRedocly(['build-docs', source, '--output', output, '--inlineBundle']);
  inlineBadge(output);
  const withoutTryIt = gzippedSize(scriptsOf(readFileSync(output, 'utf8')));
  const data = { ...consoleData(api, document), sandboxScript: SANDBOX_SCRIPT };
  addToPage(output, {
    head: siteHead(),
    header: siteHeader({ ...site, skipTo: 'redoc', operations: operationLinks(document) }, `${api}.html`),
    styles: [CODE_PANELS_CSS, REFERENCE_CSS, tryIt.styles],
    noscript: noscriptOperationList(api, document),
    data: { id: 'try-it-data', value: data },
    scripts: [tryIt.pageScript],
    tail: siteScripts(),
  });
  const withTryIt = gzippedSize(scriptsOf(readFileSync(output, 'utf8')));
  entries.push({ api, file: `${api}.html`, info: document.info ?? {}, sha256: sha256(readFileSync(bundle)), javascript: { withoutTryIt, withTryIt } });
  console.log(
    `built ${relative(root, output)} (${Math.round(performance.now() - started)} ms; its JavaScript ${kB(withoutTryIt)} without Try it, ` +
      `${kB(withTryIt)} with it; the first Try it loads ${kB(tryIt.sizes.sandboxScript)} more; min+gz)`,
  );
}

writeFileSync(join(outDir, 'index.html'), indexPage(entries));
// Page weight: each page's HTML as served, in bytes and gzipped (what a reader downloads first), recorded in build-info.json.
const pageWeights = Object.fromEntries(
  readdirSync(outDir)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const html = readFileSync(join(outDir, file));
      return [file, { bytes: html.length, gzipped: gzippedSize(html) }];
    }),
);
for (const [file, { bytes, gzipped }] of Object.entries(pageWeights)) console.log(`page ${file}: ${kB(bytes)} (${kB(gzipped)} gzipped)`);
// What the pages were built from: lets the browser test reuse a fresh docs/.
writeFileSync(
  join(outDir, 'build-info.json'),
  JSON.stringify(
    {
      redoclyCli: redoclyVersion,
      // Everything else the pages depend on: the Redoc options in redocly.yaml, this script and its helpers.
      // The console's scripts are bundled from the SDK's sandbox: every source file they hold counts too.
      inputs: Object.fromEntries([...new Set([...BUILD_INPUTS, ...tryIt.inputs, ...cliHelp.inputs])].map((file) => [file, sha256(readFileSync(join(root, file)))])),
      // Bytes, minified and gzipped: each page's JavaScript (Redoc's script holds the whole API document)
      // without the console and with it, and what the first "Try it" loads.
      // Each page's HTML as served: bytes, and bytes gzipped (level 9).
      pages: pageWeights,
      javascript: {
        pages: Object.fromEntries(entries.map((entry) => [entry.file, entry.javascript])),
        firstTryIt: { [SANDBOX_SCRIPT]: tryIt.sizes.sandboxScript },
      },
      apis: Object.fromEntries(entries.map((entry) => [entry.api, { bundle: relative(root, bundlePath(entry.api)), sha256: entry.sha256 }])),
    },
    null,
    2,
  ) + '\n',
);
console.log(`built ${relative(root, join(outDir, 'index.html'))} (${entries.length} API${entries.length === 1 ? '' : 's'})`);

/** An API's operations as links to Redoc's routes, for the header's "Operations" menu. */
function operationLinks(doc) {
  return Object.values(doc.paths ?? {}).flatMap((item) =>
    ['get', 'put', 'post', 'delete', 'patch', 'head']
      .filter((method) => item[method])
      .map((method) => ({ href: `#${operationRoute(item[method])}`, title: item[method].summary ?? item[method].operationId })),
  );
}

function bundlePath(api) {
  return join(bundleDir, `${api}.yaml`);
}

function runRedocly(argv) {
  const result = spawnSync(process.execPath, [redocly, ...argv], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error || result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    const why = result.error ? result.error.message : result.signal ? `signal ${result.signal}` : `exit code ${result.status}`;
    fail(`redocly ${argv.join(' ')} failed (${why})`);
  }
}

function inlineBadge(file) {
  let html = readFileSync(file, 'utf8');
  for (const [url, replacement] of Object.entries(BADGE_URLS)) {
    if (!html.includes(url)) {
      fail(
        `${relative(root, file)} no longer references ${url}; Redoc's badge changed, so revisit BADGE_URLS in ` +
          'scripts/build-docs.mjs (and check for a documented option that removes the remote request).',
      );
    }
    html = html.split(url).join(replacement);
  }
  writeFileSync(file, html);
}

/**
 * Adds our own styles to a built page, at the end of its <head> (after
 * Redoc's, so they win at equal specificity), a <noscript> block before
 * Redoc's root, and data and scripts at the end of its <body>. Redoc's page holds `</head>` and `</body>` inside its script too,
 * so the head is closed at its first one and the body at its last.
 */
function addToPage(file, { head = '', header = '', styles = [], noscript = '', data, scripts = [], tail = '' }) {
  let html = readFileSync(file, 'utf8');
  const headEnd = html.indexOf('</head>');
  const redocRoot = html.indexOf('<div id="redoc">');
  const bodyEnd = html.lastIndexOf('</body>');
  if (headEnd < 0 || redocRoot < headEnd || bodyEnd < redocRoot || html.slice(bodyEnd).replace(/\s+/g, '') !== '</body></html>') {
    fail(`${relative(root, file)}: Redoc's page layout changed (no <head> … </body></html> to add the docs' own styles and scripts to)`);
  }
  const style = styles.map((css) => `<style>\n${css}</style>\n`).join('');
  // JSON in a data block: `<` escaped, so no string in it can close the element.
  const json = data ? `<script type="application/json" id="${data.id}">${JSON.stringify(data.value).replace(/</g, '\\u003c')}</script>\n` : '';
  const script = json + scripts.map((code) => `<script>\n${code.replace(/<\/script/gi, '<\\/script')}</script>\n`).join('');
  // Redoc's links as served (`href="/wallets"`) become the routes its hash router follows (`#/wallets`),
  // so they open where they point in a new tab too; scripts/docs-site/site.js does the same for links Redoc adds later.
  const markupEnd = html.indexOf('<script type="module">', redocRoot);
  if (markupEnd < 0) fail(`${relative(root, file)}: Redoc's page layout changed (no module script after its markup)`);
  const markup = html
    .slice(redocRoot, markupEnd)
    .split(/(<script[\s\S]*?<\/script>)/)
    .map((piece) => (piece.startsWith('<script') ? piece : piece.replace(/ href="\/(?!\/)/g, ' href="#/')))
    .join('');
  html =
    html.slice(0, headEnd) + head + style + html.slice(headEnd, redocRoot) + header + noscript + markup + html.slice(markupEnd, bodyEnd) + script + tail + html.slice(bodyEnd);
  writeFileSync(file, html);
}

/** Every script a page runs (inline and classic or module; not JSON data blocks), concatenated. */
function scriptsOf(html) {
  return [...html.matchAll(/<script(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
}

function kB(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function svgDataUri(svg) {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function sha256(buffer) {
  return createHash('sha256').update(buffer).digest('hex');
}

/** The first sentence (or line) of a Markdown text, as plain text. */
function oneLine(markdown) {
  const paragraph = String(markdown ?? '').trim().split(/\n\s*\n/)[0] ?? '';
  const text = paragraph
    .replace(/\s+/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim();
  const sentence = text.match(/^.*?[.!?](?=\s|$)/);
  return sentence ? sentence[0] : text;
}

function indexPage(items) {
  const references = items
    .map(({ file, api, info }) => {
      const description = oneLine(info.summary ?? info.description);
      return `      <li>
        <a href="${escapeHtml(file)}"><span class="title">${escapeHtml(info.title ?? api)}</span></a>
        <span class="version">${escapeHtml(info.version ?? '')}</span>
        ${description ? `<p>${escapeHtml(description)}</p>` : ''}
      </li>`;
    })
    .join('\n');
  const guideCards = guides
    .map((guide) => `      <li><a href="${escapeHtml(guide.slug)}.html">${escapeHtml(guide.title)}</a><p>${escapeHtml(guide.summary)}</p></li>`)
    .join('\n');
  const body = `<main id="content" class="site-content site-index">
    <h1>Service SDK docs</h1>
    <p class="lead">Guides for every flow of the TypeScript SDK, and every operation of each HTTP API with the call that makes it.</p>
    <section>
      <h2>Install</h2>
      <pre><code>npm install @ourteam/service-sdk</code></pre>
      <p>ES modules, typed from these specifications; runs on Node.js 20.19 or newer, current browsers, Deno, Bun and edge workers.</p>
    </section>
    <section>
      <h2>First call</h2>
      <p>Create a client with your API key and your organisation's base address, then call an operation by its method and path:</p>
      <pre><code>${escapeHtml(FIRST_CALL_SAMPLE)}</code></pre>
      <p>Each API reference shows the same kind of call beside every operation.</p>
    </section>
    <section aria-labelledby="guides">
      <h2 id="guides">Guides</h2>
      <ul class="site-cards">
${guideCards}
      </ul>
    </section>
    <section aria-labelledby="apis">
      <h2 id="apis">API reference</h2>
      <ul class="site-cards">
${references}
      <li><a href="cli.html">CLI reference</a><p>Every command of <code>service-sdk</code>, with the help it prints.</p></li>
      </ul>
    </section>
    <section>
      <h2>Try it in the page</h2>
      <p>Every operation has a <strong>Try it</strong> button beside its heading. It opens a form with the parameters and the body
        filled in from the specification's example; change them, then press <strong>Send</strong> to see the status line, the headers
        and the body of the answer, with the SDK call that makes the same request below.</p>
      <p>The answers come from the SDK's offline sandbox, running inside the page: nothing leaves your browser, and no key is needed.
        What you create stays for the visit, so a channel created by one operation is listed by the next; <strong>Reset sandbox</strong>
        starts again from the sandbox's first state. A request the API would refuse gets the API's own error, naming the field.
        The live report stream (a WebSocket) is not in the console.</p>
      <p>The same sandbox runs in your own tests: <code>createSandbox()</code> from <code>@ourteam/service-sdk/sandbox</code> gives a
        <code>fetch</code> to hand to a client, and <code>sandboxHandlers(sandbox, { baseUrls })</code> from
        <code>@ourteam/service-sdk/sandbox/msw</code> serves it to code that takes no <code>fetch</code>, through MSW's
        <code>setupServer</code> (Node) or <code>setupWorker</code> (browsers).</p>
    </section>
  </main>`;
  return sitePage({ site, file: 'index.html', title: 'Service SDK docs', description: 'Guides and API reference of the service SDK.', body });
}

/** A guide's page: the list of guides beside its text (made from the README), and links to the guides before and after it. */
function guidePage(guide, previous, next) {
  const list = guides
    .map((other) => `<li><a href="${escapeHtml(other.slug)}.html"${other === guide ? ' aria-current="page"' : ''}>${escapeHtml(other.title)}</a></li>`)
    .join('');
  const pager = [
    previous ? `<a href="${escapeHtml(previous.slug)}.html" rel="prev">← ${escapeHtml(previous.title)}</a>` : '',
    next ? `<a href="${escapeHtml(next.slug)}.html" rel="next">${escapeHtml(next.title)} →</a>` : '',
  ].join(' ');
  const body = `<div class="site-layout">
<nav class="site-toc" aria-label="Guides"><h2>Guides</h2><ul>${list}</ul></nav>
<main id="content" class="site-content site-guide">
<h1>${escapeHtml(guide.title)}</h1>
${guideHtml(guide.markdown)}
<nav class="site-pager" aria-label="Guides before and after">${pager}</nav>
</main>
</div>`;
  return sitePage({ site, file: `${guide.slug}.html`, title: `${guide.title} · Service SDK docs`, description: guide.summary, body });
}

function fail(message) {
  console.error(`build-docs: ${message}`);
  process.exit(1);
}
