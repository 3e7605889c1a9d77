// Which committed bundle a spec is compared with, read straight from git.
// Default base of an API: its newest release tag `<api>@<version>`, else
// HEAD. A repository with no commits, or a ref without the bundle, has no
// base: the API is reported as new.
import { execFileSync } from 'node:child_process';
import { compareVersions, parseVersion } from './gate.mjs';

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

/** The newest `<api>@<semver>` tag, by version (not by date); undefined when none. */
export function latestReleaseTag(api, cwd) {
  const prefix = `${api}@`;
  const tags = (git(['tag', '--list', `${prefix}*`], cwd) ?? '')
    .split('\n')
    .filter((tag) => tag.startsWith(prefix) && parseVersion(tag.slice(prefix.length)));
  return tags.sort((a, b) => compareVersions(b.slice(prefix.length), a.slice(prefix.length)))[0];
}

/** { ref, why } for an API; ref is undefined when there is nothing to compare with. */
export function defaultBase(api, cwd) {
  const tag = latestReleaseTag(api, cwd);
  if (tag) return { ref: tag, why: 'newest release tag' };
  if (isCommit('HEAD', cwd)) return { ref: 'HEAD', why: `no ${api}@<version> tag` };
  return { ref: undefined, why: 'no commit and no release tag yet' };
}

/** A file's content at a ref (path relative to cwd); undefined when the ref lacks it. */
export function fileAt(ref, path, cwd) {
  return git(['show', `${ref}:./${path}`], cwd);
}
