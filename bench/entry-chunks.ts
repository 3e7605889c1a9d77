/**
 * An entry bundled as a user's bundler splits it (esbuild, `splitting: true`,
 * ESM, minified, platform neutral, conditions default): what loads when the
 * entry is imported (its chunk and every chunk it imports statically, the
 * "initial load") and what loads only through a dynamic `import()` (the
 * "lazy chunks": the report verifier, the sandbox's signer).
 *
 * Used by the size bench and by the test that keeps libsecp256k1 out of the
 * entries' initial loads (test/unit/entry-chunks.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/** One output file of the split bundle. */
export interface Chunk {
  /** Its path, relative to the bundle's folder. */
  readonly file: string;
  readonly code: string;
  readonly minified: number;
  readonly gzipped: number;
  /** Its largest inputs, `name size` (for the bench's notes). */
  readonly top: string;
}

/** The split bundle of an entry: the initial load and the lazy chunks. */
export interface EntryChunks {
  /** The entry's chunk and every chunk reached from it by static imports. */
  readonly initial: readonly Chunk[];
  /** Chunks reached only through a dynamic `import()`. */
  readonly lazy: readonly Chunk[];
}

/** Total gzipped bytes of some chunks (each compressed on its own, as a browser fetches them). */
export const gzippedSize = (chunks: readonly Chunk[]): number => chunks.reduce((sum, chunk) => sum + chunk.gzipped, 0);

/** The names an entry exports (read by esbuild, so the bench needs no runtime import of the entry). */
export async function exportsOf(source: string): Promise<string[]> {
  const result = await build({ entryPoints: [source], bundle: true, format: 'esm', platform: 'neutral', write: false, metafile: true, logLevel: 'silent', mainFields: ['module', 'main'], conditions: ['default'] });
  return [...(Object.values(result.metafile.outputs)[0]?.exports ?? [])];
}

function topInputs(output: Metafile['outputs'][string]): string {
  return Object.entries(output.inputs)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 3)
    .map(([file, info]) => `${relative(root, resolve(root, file)).replace(/^node_modules\//, '').replace(/\/dist\/index\.mjs$/, '')} ${(info.bytesInOutput / 1024).toFixed(1)} kB`)
    .join(', ');
}

/**
 * Bundles a user module that re-exports `names` of `source` (every export of
 * the entry when omitted), with code splitting, and sorts the chunks into the
 * initial load and the lazy ones.
 */
export async function entryChunks(source: string, names?: readonly string[]): Promise<EntryChunks> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-entry-chunks-'));
  try {
    const user = join(dir, 'user.mjs');
    const specifier = JSON.stringify(source);
    writeFileSync(user, names === undefined ? `export * from ${specifier};\n` : `export { ${names.join(', ')} } from ${specifier};\n`);
    const out = join(dir, 'out');
    const result = await build({
      entryPoints: [user],
      bundle: true,
      splitting: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['default'],
      outdir: out,
      metafile: true,
      logLevel: 'warning',
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint !== undefined && file.endsWith('.js'));
    if (entry === undefined) throw new Error(`esbuild wrote no entry chunk for ${source}`);
    // Walk the static imports from the entry chunk: everything reached is the initial load.
    const initial = new Set<string>();
    const pending = [entry];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (initial.has(file)) continue;
      initial.add(file);
      for (const imported of outputs[file]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
    const chunkOf = (file: string): Chunk => {
      const code = readFileSync(resolve(file), 'utf8');
      return { file: relative(out, resolve(file)), code, minified: Buffer.byteLength(code), gzipped: gzipSync(code, { level: 9 }).length, top: topInputs(outputs[file]!) };
    };
    const js = Object.keys(outputs).filter((file) => file.endsWith('.js'));
    return { initial: js.filter((file) => initial.has(file)).map(chunkOf), lazy: js.filter((file) => !initial.has(file)).map(chunkOf) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
