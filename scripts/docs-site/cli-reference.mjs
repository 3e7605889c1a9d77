// The CLI reference page: every command of `service-sdk`, with the help text
// the command itself prints (scripts/docs-site/cli-help-entry.ts, bundled with
// esbuild and run here), so the page and `--help` never disagree.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { escapeHtml } from './layout.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

/** The help texts (`{ program, apis: [{ name, title, help, operations: [{ name, id, summary, help }] }] }`) and the files they came from. */
export async function cliHelpTexts() {
  const result = await build({
    entryPoints: [join(here, 'cli-help-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  const dir = mkdtempSync(join(tmpdir(), 'cli-help-'));
  try {
    const file = join(dir, 'cli-help.mjs');
    writeFileSync(file, result.outputFiles[0].text);
    const { cliHelp } = await import(pathToFileURL(file).href);
    const inputs = Object.keys(result.metafile.inputs).map((input) => relative(root, resolve(root, input))).filter((input) => !input.startsWith('node_modules/'));
    return { ...(await cliHelp()), inputs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The anchor of an API's or an operation's section. */
export const cliAnchor = (api, operation) => (operation === undefined ? `cli-${api}` : `cli-${api}-${operation}`);

/** The page's content (inside the site's layout): the program's help, then each API and its operations. */
export function cliReferenceBody(help) {
  const toc = help.apis.map((api) => `<li><a href="#${cliAnchor(api.name)}">service-sdk ${escapeHtml(api.name)}</a></li>`).join('');
  const sections = help.apis
    .map(
      (api) => `<section aria-labelledby="${cliAnchor(api.name)}">
<h2 id="${cliAnchor(api.name)}">service-sdk ${escapeHtml(api.name)} <span class="lead">${escapeHtml(api.title)}</span></h2>
<pre tabindex="0"><code>${escapeHtml(api.help)}</code></pre>
${api.operations
  .map(
    (operation) => `<h3 id="${cliAnchor(api.name, operation.name)}">service-sdk ${escapeHtml(api.name)} ${escapeHtml(operation.name)}</h3>
<p>${escapeHtml(operation.summary)}</p>
<pre tabindex="0"><code>${escapeHtml(operation.help)}</code></pre>`,
  )
  .join('\n')}
</section>`,
    )
    .join('\n');
  return `<div class="site-layout">
<nav class="site-toc" aria-label="Commands"><h2>Commands</h2><ul><li><a href="#cli-usage">Usage</a></li>${toc}</ul></nav>
<main id="content" class="site-content">
<h1>CLI reference</h1>
<p class="lead">Every command of <code>service-sdk</code>, with the help it prints. The <a href="command-line.html">command line guide</a> shows how to use it.</p>
<h2 id="cli-usage">Usage</h2>
<pre tabindex="0"><code>${escapeHtml(help.program)}</code></pre>
${sections}
</main>
</div>`;
}
