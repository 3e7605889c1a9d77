// How the user script runs in each runtime, from a project with the packed
// package installed (see runtime-project.ts): Node, Bun and Deno run
// run.mjs as a process; workerd (through miniflare) and edge-runtime run one
// bundled script, as their deploy tools build it. Each runner returns what the
// script printed, parsed, and throws with the runtime's own output when it
// cannot start or the script fails: a runtime that does not run is a failure.
// The runtimes that can stream also get the listening sandbox to stream
// reports live from (`live`: a second argument as JSON to the processes, a
// query parameter to workerd); edge-runtime and browser or worker bundles
// cannot stream (no WebSocket there sends headers) and are not given one.
// Bun, Deno, miniflare and edge-runtime come from a project of their own,
// installed on first use (js-runtimes.ts).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { isolatedEnv } from '../../support/working-tree.js';
import { jsRuntimes, loadEdgeRuntime, loadMiniflare, type MiniflareWorkerOptions } from './js-runtimes.js';
import type { LiveStreamTarget } from './user-script.mjs';

/** What the harness returns from every runtime. */
export interface RuntimeRun {
  /** `Node 22.23.3`, `Bun 1.4.5`, `Deno 2.9.5`, `workerd`, `edge-runtime`. */
  runtime: string;
  /** The decoder's scan: WebAssembly or the JavaScript fallback. */
  scanEngine: 'wasm' | 'js';
  /** What the user script returned. */
  checks: Record<string, unknown>;
}

/** Runs the user script against the verifying server at `origin`, and streams from `live` when the runtime takes it. */
export type Runner = (project: string, origin: string, live?: LiveStreamTarget) => Promise<RuntimeRun>;

/** run.mjs's arguments. */
const runArgs = (origin: string, live: LiveStreamTarget | undefined) => ['run.mjs', origin, ...(live === undefined ? [] : [JSON.stringify(live)])];

const PROCESS_TIMEOUT_MS = 60_000;

/**
 * Runs a command in its own process group and returns its stdout; kills the
 * group if it outlives the timeout.
 */
function runProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const what = `${basename(command)} ${args.join(' ')}`;
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...isolatedEnv(), ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      fail(new Error(`${what} did not finish within ${PROCESS_TIMEOUT_MS} ms\n${stderr}${stdout}`));
    }, PROCESS_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(new Error(`${what} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done(stdout);
      else fail(new Error(`${what} exited with ${code ?? signal}\n${stderr}${stdout}`));
    });
  });
}

function parseRun(output: string, what: string): RuntimeRun {
  const line = output.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as RuntimeRun;
  } catch {
    throw new Error(`${what} printed no JSON result:\n${output}`);
  }
}

/** `node run.mjs` on the given Node binary. */
export const nodeRunner =
  (nodeBinary: string): Runner =>
  async (project, origin, live) =>
    parseRun(await runProcess(nodeBinary, runArgs(origin, live), project), nodeBinary);

export const bunRunner: Runner = async (project, origin, live) =>
  parseRun(await runProcess((await jsRuntimes()).bun.path, runArgs(origin, live), project), 'bun');

export const denoRunner: Runner = async (project, origin, live) =>
  parseRun(
    await runProcess((await jsRuntimes()).deno.path, ['run', '--allow-net=127.0.0.1', ...runArgs(origin, live)], project, { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }),
    'deno',
  );

// --- bundled runtimes ----------------------------------------------------------

export interface Bundle {
  code: string;
  /** `.wasm` files the code imports, by the module name it imports them as. */
  wasmModules: Map<string, string>;
}

/**
 * Leaves each `.wasm` import as an import of a module named after the file,
 * as Cloudflare's wrangler does, and notes the file: workerd loads it as a
 * compiled module.
 */
function wasmModules(found: Map<string, string>): Plugin {
  return {
    name: 'wasm-modules',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\.wasm$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        const name = basename(path);
        if (found.has(name) && found.get(name) !== path) throw new Error(`two .wasm files named ${name}`);
        found.set(name, path);
        return { path: `./${name}`, external: true };
      });
    },
  };
}

/** A file, or a module's text and the folder its imports resolve from. */
export type BundleEntry = string | { contents: string; resolveDir: string };

/** Bundles `entry` into one script, resolving packages' exports and imports with `conditions`. */
export async function bundle(entry: BundleEntry, conditions: string[], format: 'esm' | 'iife'): Promise<Bundle> {
  const found = new Map<string, string>();
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { ...entry, loader: 'ts' as const } }),
    bundle: true,
    write: false,
    format,
    platform: 'browser',
    conditions,
    target: 'es2022',
    logLevel: 'silent',
    plugins: [wasmModules(found)],
  });
  return { code: result.outputFiles[0]!.text, wasmModules: found };
}

/** The conditions wrangler bundles a Worker with. */
export const WORKERD_CONDITIONS = ['workerd', 'worker', 'browser'];
/** The conditions Next.js bundles for its edge runtime with. */
export const EDGE_LIGHT_CONDITIONS = ['edge-light', 'worker', 'browser'];

/** Sends a request to the Worker. */
export type Dispatch = (url: string, init?: { method?: string; body?: string }) => Promise<Response>;

/**
 * How miniflare is given the bundle:
 * - `modules`: the bundle and its .wasm modules listed, as wrangler's output is run;
 * - `collected-modules`: the bundle as one module whose imports miniflare
 *   collects itself (`modules: true`); it refuses, at start, a module with an
 *   `import()` of a variable ("dynamic module specifiers are unsupported");
 * - `script`: a service-worker script (no modules at all).
 */
export type WorkerLoading = 'modules' | 'collected-modules' | 'script';

const COMPATIBILITY_DATE = '2026-07-01';

async function workerOptions(bundled: Bundle, loading: WorkerLoading): Promise<MiniflareWorkerOptions> {
  if (loading !== 'modules' && bundled.wasmModules.size > 0) throw new Error(`a bundle with .wasm imports cannot be loaded as ${loading}`);
  if (loading === 'collected-modules') return { modules: true, script: bundled.code, compatibilityDate: COMPATIBILITY_DATE };
  if (loading === 'script') return { script: bundled.code, compatibilityDate: COMPATIBILITY_DATE };
  const modulesRoot = '/worker';
  const modules = [
    { type: 'ESModule' as const, path: join(modulesRoot, 'worker.js'), contents: bundled.code },
    ...(await Promise.all(
      [...bundled.wasmModules].map(async ([name, path]) => ({
        type: 'CompiledWasm' as const,
        path: join(modulesRoot, name),
        contents: await readFile(path),
      })),
    )),
  ];
  return { modules, modulesRoot, compatibilityDate: COMPATIBILITY_DATE };
}

/** Starts workerd with `bundled` as its only Worker (plus its .wasm modules), runs `use`, and stops it. */
export async function withWorker<T>(bundled: Bundle, use: (dispatch: Dispatch) => Promise<T>, loading: WorkerLoading = 'modules'): Promise<T> {
  const { Miniflare } = await loadMiniflare();
  const miniflare = new Miniflare(await workerOptions(bundled, loading));
  try {
    await miniflare.ready;
    return await use(async (url, init) => (await miniflare.dispatchFetch(url, init)) as unknown as Response);
  } finally {
    await miniflare.dispose();
  }
}

/**
 * workerd, through miniflare, with `conditions` (without `workerd`, the
 * package's browser build is what runs), loaded as `loading` says (a script
 * gets the service-worker form of the same checks).
 */
export const workerdRunner =
  (conditions: string[] = WORKERD_CONDITIONS, loading: WorkerLoading = 'modules'): Runner =>
  async (project, origin, live) => {
    const bundled = await bundle(join(project, loading === 'script' ? 'script-worker.mjs' : 'worker.mjs'), conditions, 'esm');
    const query = new URLSearchParams({ origin, ...(live === undefined ? {} : { live: JSON.stringify(live) }) });
    return withWorker(
      bundled,
      async (dispatch) => {
        const response = await dispatch(`http://worker/?${query}`);
        const text = await response.text();
        if (response.status !== 200) throw new Error(`workerd answered ${response.status}:\n${text}`);
        return parseRun(text, 'workerd');
      },
      loading,
    );
  };

/** Vercel's edge-runtime: the bundled script evaluated in its VM. */
export const edgeRuntimeRunner: Runner = async (project, origin) => {
  const { code } = await bundle(join(project, 'edge.mjs'), EDGE_LIGHT_CONDITIONS, 'iife');
  const { EdgeRuntime } = await loadEdgeRuntime();
  const runtime = new EdgeRuntime({ initialCode: code });
  const text = (await runtime.evaluate(`runChecksAsJson(${JSON.stringify(origin)})`)) as string;
  return parseRun(text, 'edge-runtime');
};
