// Builds the "Try it" console for the docs build (scripts/build-docs.mjs),
// with esbuild, minified: the page script (try-it.mjs, inlined into every
// page) and the sandbox's script (sandbox-entry.ts, one file beside the pages,
// loaded on the first "Try it"). Returns both, the source files they were
// made from (the docs' freshness check hashes them), and their sizes.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

/** The sandbox's script, as the pages load it (beside them in the docs folder). */
export const SANDBOX_SCRIPT = 'try-it-sandbox.js';

/** Bytes minified and gzipped (level 9), the figure the README and bench/README give for sizes. */
export function gzippedSize(code) {
  return gzipSync(Buffer.from(code), { level: 9 }).length;
}

async function bundle(entry, extra) {
  const result = await build({
    entryPoints: [join(here, entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    ...extra,
  });
  const code = result.outputFiles[0].text;
  const inputs = Object.keys(result.metafile.inputs).map((file) => relative(root, resolve(root, file)));
  return { code, inputs };
}

/** The console's two scripts, their inputs (repository paths) and sizes (bytes, minified and gzipped). */
export async function buildConsole() {
  const page = await bundle('try-it.mjs');
  const sandbox = await bundle('sandbox-entry.ts', { globalName: 'TryItSandbox' });
  const styles = readFileSync(join(here, 'try-it.css'), 'utf8');
  const inputs = [...new Set([...page.inputs, ...sandbox.inputs, 'scripts/docs-console/try-it.css', 'scripts/docs-console/bundle.mjs', 'scripts/docs-console/console-data.mjs'])]
    .filter((file) => !file.startsWith('node_modules/'))
    .sort();
  return {
    pageScript: page.code,
    sandboxScript: sandbox.code,
    styles,
    inputs,
    sizes: { pageScript: gzippedSize(page.code), sandboxScript: gzippedSize(sandbox.code) },
  };
}
