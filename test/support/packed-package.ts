// The package as users get it: `npm pack`ed, then installed from the tarball
// into an empty project outside this repository, so that nothing resolves from
// our own node_modules (only the tarball and its dependencies, from the npm
// cache; `--prefer-offline` falls back to the registry).
//
// The tarball is packed from a copy of the working tree: `npm pack` builds
// (`prepack`), and the build starts by deleting dist/, so two test projects
// packing at once in this checkout would break each other's tarball.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { copyWorkingTree, isolatedEnv } from './working-tree.js';

const exec = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const PACKAGE_NAME = '@ourteam/service-sdk';

/** Runs a command to completion; on failure, throws with its whole output. */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = isolatedEnv()) {
  try {
    return await exec(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${[command, ...args].join(' ')} failed in ${cwd}\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

/** What `npm pack --json` says of the tarball, and where it is. */
export interface PackedPackage {
  /** Absolute path of the .tgz. */
  tarball: string;
  filename: string;
  files: { path: string }[];
  entryCount: number;
  size: number;
}

/** Builds and packs the working tree as it is now (committed or not) into `destination`. */
export async function packPackage(destination: string): Promise<PackedPackage> {
  const copy = await mkdtemp(join(tmpdir(), 'sdk-pack-source-'));
  try {
    copyWorkingTree(root, copy);
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], copy);
    const [packed] = JSON.parse(stdout) as Omit<PackedPackage, 'tarball'>[];
    return { ...packed!, tarball: join(destination, packed!.filename) };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** Makes `dir` a user's ESM project with `packages` (tarballs or registry specs) installed, scripts off. */
export async function installProject(dir: string, packages: string[]): Promise<void> {
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }, null, 2));
  await run('npm', ['install', ...packages, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
}
