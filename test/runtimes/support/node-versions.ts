// The Node.js binaries of test/runtimes/node-versions, a project of its own
// (the `node` package would put a `node` binary in the root project's
// node_modules/.bin, and every npm script would run on it). Installed from its
// lockfile on first use, and again whenever an installed binary is not the
// version the lockfile names.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { installFromOwnLockfile, lockedVersions } from './own-lockfile.js';

const exec = promisify(execFile);
export const NODE_VERSIONS_DIR = resolve(import.meta.dirname, '..', 'node-versions');

export interface NodeBinary {
  /** The lockfile's version, e.g. `22.23.3`. */
  version: string;
  path: string;
}

/** What `<binary> --version` prints, or undefined if it does not run. */
export async function binaryVersion(path: string, args = ['--version']): Promise<string | undefined> {
  try {
    return (await exec(path, args)).stdout.trim();
  } catch {
    return undefined;
  }
}

/** Node 22 and 24, installed if needed: keyed by the dependency names `node22`, `node24`. */
export async function nodeBinaries(): Promise<Record<string, NodeBinary>> {
  const wanted = Object.entries(await lockedVersions(NODE_VERSIONS_DIR)).map(([name, version]) => ({
    name,
    version,
    path: join(NODE_VERSIONS_DIR, 'node_modules', name, 'bin', 'node'),
  }));
  await installFromOwnLockfile(NODE_VERSIONS_DIR, async () => {
    const found = await Promise.all(wanted.map(async (binary) => await binaryVersion(binary.path)));
    return wanted.filter((binary, i) => found[i] !== `v${binary.version}`).map((binary) => `${binary.name} ${binary.version}`);
  });
  return Object.fromEntries(wanted.map(({ name, version, path }) => [name, { version, path }]));
}
