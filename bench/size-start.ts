/**
 * 6. Size and start. Size: each subpath entry bundled with esbuild as a
 * user's bundler would, code splitting on (bundle, minify, ESM, platform
 * neutral, mainFields module/main, conditions default; entry-chunks.ts), then
 * gzip level 9, each chunk on its own. For each entry: the initial load (the
 * entry's chunk and the chunks it imports statically) and, apart, the lazy
 * chunks (what loads on the first verified report or the sandbox's first
 * signed one). `./streams` and `./report-decoder` re-export the synchronous
 * `verifyReport`, which carries libsecp256k1: their initial load is given
 * with every export and with every export but `verifyReport` (what an app
 * that does not call it loads: `sideEffects: false` lets its bundler drop
 * it). The generated types are `import type` and vanish; the notes name the
 * largest inputs.
 *
 * Start: each entry bundled for Node (platform node, splitting) into a
 * temporary folder; a fresh `node` process imports it and prints how long the
 * `import()` took. The process' wall time is also taken, and an empty
 * module's as a baseline. Entries are interleaved, 10 processes each; medians.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { entryChunks, exportsOf, gzippedSize, type Chunk } from './entry-chunks.js';
import { median } from './measure.js';
import { benchTarball } from './size-tarball.js';
import type { Row } from './table.js';

const BENCH = '6 size and start';
const RUNS = 10;
const root = resolve(import.meta.dirname, '..');

/**
 * Every subpath the package exports (`./channels`, `./streams`, `./policy`, …),
 * each mapped from its built file back to its source: `./dist/src/x/y.js` → `src/x/y.ts`.
 */
export function subpathEntries(): { name: string; source: string }[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> };
  const entries: { name: string; source: string }[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const built = typeof target === 'string' ? target : (target as { default?: string; import?: string }).default ?? (target as { import?: string }).import;
    if (built === undefined || !built.endsWith('.js') || !built.startsWith('./dist/')) continue;
    entries.push({ name: subpath.replace(/^\.\//, ''), source: join(root, built.slice('./dist/'.length).replace(/\.js$/, '.ts')) });
  }
  return entries;
}

/** The export a user who does not verify reports leaves out (it carries libsecp256k1). */
const VERIFIER_EXPORT = 'verifyReport';
/** The verifier chunk a browser loads on the first verified report, minified + gzipped (issue 39). */
const VERIFIER_CHUNK_GOAL_KB = 150;

interface SizeInfo {
  /** The initial load with every export. */
  initial: readonly Chunk[];
  /** The initial load with every export but `verifyReport`, where the entry has it. */
  withoutVerifier?: readonly Chunk[];
  /**
   * The lazy chunks of an app that does not call `verifyReport` (with it, the
   * verifier is in the initial load and the lazy chunk is a stub).
   */
  lazy: readonly Chunk[];
}

async function size(source: string): Promise<SizeInfo> {
  const all = await entryChunks(source);
  const names = await exportsOf(source);
  if (!names.includes(VERIFIER_EXPORT)) return all;
  const without = await entryChunks(source, names.filter((name) => name !== VERIFIER_EXPORT));
  return { initial: all.initial, withoutVerifier: without.initial, lazy: without.lazy };
}

const kB = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;
/** A note on some chunks: minified size, chunk count, largest inputs of the biggest. */
function chunksNote(chunks: readonly Chunk[]): string {
  const biggest = [...chunks].sort((a, b) => b.gzipped - a.gzipped)[0];
  const minified = chunks.reduce((sum, chunk) => sum + chunk.minified, 0);
  return `${kB(minified)} minified in ${chunks.length} chunk(s); largest: ${biggest?.top ?? 'none'}`;
}

/** Runs `node file`, returns the wall time in ms and what the process printed. */
function runNode(file: string): Promise<{ wallMs: number; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`node ${file} exited with ${code}`));
      else resolvePromise({ wallMs, stdout });
    });
  });
}

/** A file name for an entry: `sandbox/msw` → `sandbox-msw`, every file in the one folder. */
const fileOf = (entry: string): string => entry.replaceAll('/', '-');

export async function benchSizeStart(): Promise<Row[]> {
  const rows: Row[] = [];
  const entries = subpathEntries();
  const sizes = new Map<string, SizeInfo>();
  for (const entry of entries) sizes.set(entry.name, await size(entry.source));

  const dir = mkdtempSync(join(tmpdir(), 'sdk-bench-start-'));
  try {
    const runners = new Map<string, string>();
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export {};\n');
    const runner = (module: string): string =>
      `const t0 = performance.now();\nawait import(${JSON.stringify(module)});\nprocess.stdout.write(String(performance.now() - t0));\n`;
    writeFileSync(join(dir, 'run-empty.mjs'), runner('./empty.mjs'));
    runners.set('empty', join(dir, 'run-empty.mjs'));
    for (const { name: entry, source } of entries) {
      // Each entry in a folder of its own (its chunks beside it), loaded as Node loads an app's split bundle.
      await build({
        entryPoints: { [fileOf(entry)]: source },
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        outdir: join(dir, fileOf(entry)),
        outExtension: { '.js': '.mjs' },
        logLevel: 'warning',
      });
      writeFileSync(join(dir, `run-${fileOf(entry)}.mjs`), runner(`./${fileOf(entry)}/${fileOf(entry)}.mjs`));
      runners.set(entry, join(dir, `run-${fileOf(entry)}.mjs`));
    }
    const wall = new Map<string, number[]>();
    const importMs = new Map<string, number[]>();
    for (const name of runners.keys()) {
      wall.set(name, []);
      importMs.set(name, []);
    }
    await runNode(runners.get('empty') as string); // warm the file cache
    for (let i = 0; i < RUNS; i++) {
      for (const [name, file] of runners) {
        const { wallMs, stdout } = await runNode(file);
        wall.get(name)?.push(wallMs);
        importMs.get(name)?.push(Number(stdout));
      }
    }
    const emptyWall = median(wall.get('empty') ?? []);
    rows.push({
      bench: BENCH,
      name: `node process importing an empty module (baseline)`,
      value: emptyWall,
      unit: 'ms',
      note: `wall time, median of ${RUNS}`,
    });
    for (const { name: entry } of entries) {
      const s = sizes.get(entry) as SizeInfo;
      rows.push({
        bench: BENCH,
        name: `./${entry}: initial load, minified + gzipped`,
        value: gzippedSize(s.initial) / 1024,
        unit: 'kB',
        note: `every export; ${chunksNote(s.initial)}`,
      });
      if (s.withoutVerifier !== undefined) {
        rows.push({
          bench: BENCH,
          name: `./${entry}: initial load without ${VERIFIER_EXPORT}, minified + gzipped`,
          value: gzippedSize(s.withoutVerifier) / 1024,
          unit: 'kB',
          note: `every export but ${VERIFIER_EXPORT} (an app that does not call it); ${chunksNote(s.withoutVerifier)}`,
        });
      }
      const verifierChunk = s.withoutVerifier !== undefined && s.lazy.length > 0;
      rows.push({
        bench: BENCH,
        name: `./${entry}: lazy chunks, minified + gzipped`,
        value: gzippedSize(s.lazy) / 1024,
        unit: 'kB',
        ...(verifierChunk ? { goal: `≤ ${VERIFIER_CHUNK_GOAL_KB} kB`, pass: gzippedSize(s.lazy) / 1024 <= VERIFIER_CHUNK_GOAL_KB } : {}),
        note: s.lazy.length === 0 ? 'none' : `loaded only through import(), on first need${s.withoutVerifier === undefined ? '' : ` (without ${VERIFIER_EXPORT})`}; ${chunksNote(s.lazy)}`,
      });
      const entryWall = median(wall.get(entry) ?? []);
      rows.push({
        bench: BENCH,
        name: `./${entry}: import() in a fresh node`,
        value: median(importMs.get(entry) ?? []),
        unit: 'ms',
        note: `process wall ${entryWall.toFixed(1)} ms (${entryWall - emptyWall >= 0 ? '+' : ''}${(entryWall - emptyWall).toFixed(1)} vs empty); median of ${RUNS}`,
      });
    }
    rows.splice(1, 0, {
      bench: BENCH,
      name: 'import() of an empty module (baseline)',
      value: median(importMs.get('empty') ?? []),
      unit: 'ms',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push(...(await benchTarball()));
  return rows;
}
