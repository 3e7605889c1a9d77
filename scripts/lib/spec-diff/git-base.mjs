// A bundle at a git ref, for `spec:diff --base <git-ref>` and
// `spec:changelog --base <git-ref>`. The gate never reads git: its base is
// the committed release file (release.mjs).
import { execFileSync } from 'node:child_process';

// cwd alone says which repository: GIT_DIR & co., set when run from a git
// hook, would point elsewhere (and at the project itself from the tests).
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));

/** git's stdout, or undefined when git fails (not a repository, no such ref or file). */
export function git(args, cwd) {
  try {
    return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** Whether a ref names a commit here (false in a repository with no commits). */
export function isCommit(ref, cwd) {
  return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd) !== undefined;
}

/** A file's content at a ref (path relative to cwd); undefined when the ref lacks it. */
export function fileAt(ref, path, cwd) {
  return git(['show', `${ref}:./${path}`], cwd);
}
