/**
 * 6. Size and start. Size: each subpath entry bundled with esbuild as a
 * user's bundler would (bundle, minify, ESM, platform neutral, mainFields
 * module/main, conditions default), then gzip level 9. The generated types
 * are `import type` and vanish; the note names the largest inputs.
 *
 * Start: each entry bundled for Node (platform node) into a temporary folder;
 * a fresh `node` process imports it and prints how long the `import()` took.
 * The process' wall time is also taken, and an empty module's as a baseline.
 * Entries are interleaved, 10 processes each; medians.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { median } from './measure.js';
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

interface SizeInfo {
  minified: number;
  gzipped: number;
  top: string;
}

async function size(source: string): Promise<SizeInfo> {
  const result = await build({
    entryPoints: [source],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['default'],
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${source}`);
  const output = Object.values(result.metafile.outputs)[0];
  const top = Object.entries(output?.inputs ?? {})
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 3)
    .map(([file, info]) => `${relative(root, resolve(root, file)).replace(/^node_modules\//, '').replace(/\/dist\/index\.mjs$/, '')} ${(info.bytesInOutput / 1024).toFixed(1)} kB`)
    .join(', ');
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, top };
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
      await build({
        entryPoints: [source],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: join(dir, `${fileOf(entry)}.mjs`),
        logLevel: 'warning',
      });
      writeFileSync(join(dir, `run-${fileOf(entry)}.mjs`), runner(`./${fileOf(entry)}.mjs`));
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
        name: `./${entry}: minified + gzipped`,
        value: s.gzipped / 1024,
        unit: 'kB',
        note: `${(s.minified / 1024).toFixed(1)} kB minified; largest: ${s.top}`,
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
  return rows;
}
