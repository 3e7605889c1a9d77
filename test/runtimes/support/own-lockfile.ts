// The runtimes of the matrix live in projects of their own under
// test/runtimes/ (node-versions/, js-runtimes/), each with its lockfile, so
// that the SDK's own `npm ci` installs none of them. A project is installed
// with `npm ci` when a test first needs it, and again whenever what is
// installed is not what its lockfile names.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../../support/packed-package.js';

/** The version the lockfile of `dir` names for each of its direct dependencies, by the name it is installed under. */
export async function lockedVersions(dir: string): Promise<Record<string, string>> {
  const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  return Object.fromEntries(
    Object.keys(manifest.devDependencies ?? {}).map((name) => {
      const version = lock.packages[`node_modules/${name}`]?.version;
      if (version === undefined) throw new Error(`${join(dir, 'package-lock.json')} does not lock ${name}: run npm install in ${dir}`);
      return [name, version];
    }),
  );
}

/** The version in an installed package's package.json, or undefined if it is not installed. */
export async function installedVersion(dir: string, name: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** One install per project and process: tests that start together share it. */
const installs = new Map<string, Promise<void>>();

/**
 * Runs `npm ci` in `dir` unless `stale()` finds nothing out of date, then
 * checks again. `stale` lists what is missing or not the locked version
 * (e.g. `bun 1.4.5`); still stale after the install is an error naming it.
 */
export function installFromOwnLockfile(dir: string, stale: () => Promise<string[]>): Promise<void> {
  let install = installs.get(dir);
  if (install === undefined) {
    install = (async () => {
      if ((await stale()).length === 0) return;
      await run('npm', ['ci', '--no-audit', '--no-fund'], dir);
      const missing = await stale();
      if (missing.length > 0) throw new Error(`npm ci in ${dir} did not install ${missing.join(', ')}`);
    })();
    installs.set(dir, install);
    // A failed install is tried again by the next caller.
    install.catch(() => installs.delete(dir));
  }
  return install;
}
