// The repository's working tree as it is now, committed or not, copied
// somewhere else, for tests that run the project's own scripts (npm run ...,
// npm publish) where they may write freely: generated files, dist/, commits.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A child's environment without what an outer `npm test` or a git hook sets:
 * `npm_config_local_prefix` would point npm back at this repository, GIT_DIR
 * at its git directory.
 */
export function isolatedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('GIT_') && !(/^npm_/i.test(key) && !/^npm_config_(cache|userconfig|globalconfig|registry)$/i.test(key)),
    ),
  );
}

/**
 * Copies every file git would see in `from` (tracked, or new and not ignored)
 * into `to`, removes there what was deleted in `from`, and links `to`'s
 * node_modules to ours (no install).
 */
export function copyWorkingTree(from: string, to: string): void {
  const list = (...args: string[]) =>
    execFileSync('git', ['ls-files', '-z', ...args], { cwd: from, env: isolatedEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter(Boolean);
  for (const path of list('--cached', '--others', '--exclude-standard')) {
    if (!existsSync(join(from, path))) continue;
    mkdirSync(dirname(join(to, path)), { recursive: true });
    copyFileSync(join(from, path), join(to, path));
  }
  for (const path of list('--deleted')) rmSync(join(to, path), { force: true });
  symlinkSync(join(from, 'node_modules'), join(to, 'node_modules'), 'dir');
}
