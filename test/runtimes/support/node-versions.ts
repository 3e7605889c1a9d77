// The Node.js binaries of test/runtimes/node-versions, a project of its own
// (the `node` package would put a `node` binary in the root project's
// node_modules/.bin, and every npm script would run on it). Installed from its
// lockfile on first use, and again whenever an installed binary is not the
// version the lockfile names.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { run } from '../../support/packed-package.js';

const exec = promisify(execFile);
export const NODE_VERSIONS_DIR = resolve(import.meta.dirname, '..', 'node-versions');

export interface NodeBinary {
  /** The lockfile's version, e.g. `22.23.3`. */
  version: string;
  path: string;
}

async function versionOf(path: string): Promise<string | undefined> {
  try {
    return (await exec(path, ['--version'])).stdout.trim().replace(/^v/, '');
  } catch {
    return undefined;
  }
}

/** Node 22 and 24, installed if needed: keyed by the dependency names `node22`, `node24`. */
export async function nodeBinaries(): Promise<Record<string, NodeBinary>> {
  const lock = JSON.parse(await readFile(join(NODE_VERSIONS_DIR, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const wanted = Object.entries(lock.packages)
    .filter(([key]) => /^node_modules\/node\d+$/.test(key))
    .map(([key, entry]) => ({ name: key.slice('node_modules/'.length), version: entry.version!, path: join(NODE_VERSIONS_DIR, key, 'bin', 'node') }));
  const current = async () => Promise.all(wanted.map(async (binary) => (await versionOf(binary.path)) === binary.version));
  if (!(await current()).every(Boolean)) {
    await run('npm', ['ci', '--no-audit', '--no-fund'], NODE_VERSIONS_DIR);
    const after = await current();
    const missing = wanted.filter((_, i) => !after[i]).map((b) => `${b.name} ${b.version}`);
    if (missing.length > 0) throw new Error(`npm ci in ${NODE_VERSIONS_DIR} did not install ${missing.join(', ')}`);
  }
  return Object.fromEntries(wanted.map(({ name, version, path }) => [name, { version, path }]));
}
