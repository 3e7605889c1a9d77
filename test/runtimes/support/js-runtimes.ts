// Bun, Deno, workerd (through miniflare) and Vercel's edge-runtime, from
// test/runtimes/js-runtimes: a project of its own, installed from its lockfile
// when the matrix first needs it (and again when what is installed is not the
// locked version), so that the SDK's own `npm ci` stays small and prints no
// engine warning on Node 20 (miniflare asks for Node 22).
//
// miniflare and edge-runtime are loaded from there by path, so the root
// project cannot see their type declarations: the few members the matrix uses
// are typed here.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { binaryVersion } from './node-versions.js';
import { installedVersion, installFromOwnLockfile, lockedVersions } from './own-lockfile.js';

export const JS_RUNTIMES_DIR = resolve(import.meta.dirname, '..', 'js-runtimes');

export interface RuntimeBinary {
  /** The lockfile's version, e.g. `1.4.5`. */
  version: string;
  path: string;
}

export interface JsRuntimes {
  bun: RuntimeBinary;
  deno: RuntimeBinary;
}

/** What each binary prints for `--version` when it is the locked one. */
const printsVersion: Record<string, (output: string, version: string) => boolean> = {
  bun: (output, version) => output === version,
  deno: (output, version) => output.startsWith(`deno ${version} `),
};

const binPath = (name: string) => join(JS_RUNTIMES_DIR, 'node_modules', '.bin', name);

/** Installs the project if anything in it is missing or not the locked version. */
async function ensureInstalled(): Promise<Record<string, string>> {
  const locked = await lockedVersions(JS_RUNTIMES_DIR);
  await installFromOwnLockfile(JS_RUNTIMES_DIR, async () => {
    const stale = await Promise.all(
      Object.entries(locked).map(async ([name, version]) => {
        if ((await installedVersion(JS_RUNTIMES_DIR, name)) !== version) return `${name} ${version}`;
        const check = printsVersion[name];
        if (check === undefined) return undefined;
        const output = await binaryVersion(binPath(name));
        return output !== undefined && check(output, version) ? undefined : `${name} ${version} (its binary does not run)`;
      }),
    );
    return stale.filter((entry) => entry !== undefined);
  });
  return locked;
}

/** Bun and Deno, installed if needed. */
export async function jsRuntimes(): Promise<JsRuntimes> {
  const locked = await ensureInstalled();
  const binary = (name: string): RuntimeBinary => ({ version: locked[name]!, path: binPath(name) });
  return { bun: binary('bun'), deno: binary('deno') };
}

/** Imports a package of the project, installed if needed. */
async function importInstalled<T>(name: string): Promise<T> {
  await ensureInstalled();
  const entry = createRequire(join(JS_RUNTIMES_DIR, 'package.json')).resolve(name);
  return (await import(pathToFileURL(entry).href)) as T;
}

// --- the members the matrix uses ----------------------------------------------

export interface MiniflareModuleDefinition {
  type: 'ESModule' | 'CompiledWasm';
  path: string;
  contents: string | Uint8Array;
}

export interface Miniflare {
  readonly ready: Promise<URL>;
  dispatchFetch(url: string, init?: { method?: string; body?: string }): Promise<{ status: number; text(): Promise<string> }>;
  dispose(): Promise<void>;
}

/**
 * How a Worker is given: its modules listed (as wrangler's output is run), one
 * module whose imports miniflare collects itself (`modules: true`), or a
 * service-worker script (no `modules`).
 */
export type MiniflareWorkerOptions =
  | { modules: MiniflareModuleDefinition[]; modulesRoot: string; compatibilityDate: string }
  | { modules: true; script: string; compatibilityDate: string }
  | { script: string; compatibilityDate: string };

export interface MiniflarePackage {
  Miniflare: new (options: MiniflareWorkerOptions) => Miniflare;
}

export interface EdgeRuntimePackage {
  EdgeRuntime: new (options: { initialCode: string }) => { evaluate(code: string): Promise<unknown> };
}

export const loadMiniflare = (): Promise<MiniflarePackage> => importInstalled<MiniflarePackage>('miniflare');
export const loadEdgeRuntime = (): Promise<EdgeRuntimePackage> => importInstalled<EdgeRuntimePackage>('edge-runtime');
