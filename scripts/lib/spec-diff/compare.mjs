// Compares, per API, the current bundle with its base and classifies every
// change. The base is the API's committed release file
// (openapi/releases/<api>.yaml), or the bundle at a git ref when one is
// given. Shared by spec:diff, spec:check, spec:changelog and spec:release.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { classify } from './classify.mjs';
import { fileAt, isCommit } from './git-base.mjs';
import { METHODS, operationLabel } from './pointer.mjs';
import { redoclyDiff } from './redocly-diff.mjs';
import { readRelease, releasePath } from './release.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The APIs declared in redocly.yaml, in its order. */
export function apiNames(cwd = root) {
  return Object.keys(parse(readFileSync(join(cwd, 'redocly.yaml'), 'utf8')).apis ?? {});
}

export const bundlePath = (api) => `generated/openapi/${api}.yaml`;

/** Compares two bundle files: versions and classified changes. */
export async function compareFiles(basePath, revisionPath) {
  const [report, base, revision] = await Promise.all([
    redoclyDiff(basePath, revisionPath),
    parse(readFileSync(basePath, 'utf8')),
    parse(readFileSync(revisionPath, 'utf8')),
  ]);
  return {
    baseVersion: base?.info?.version,
    revisionVersion: revision?.info?.version,
    // `x-decision` holds maintainers' rationale; the docs strip it and users never see it.
    changes: classify(report, base, revision).filter((change) => !isMaintainerNote(change.pointer)),
  };
}

function isMaintainerNote(pointer) {
  return typeof pointer === 'string' && /\/x-decision$/.test(pointer);
}

/**
 * One API: status 'compared' (with changes), 'new' (no base bundle: says
 * why) or 'missing' (no current bundle). `baseKind` says what the base was:
 * 'release' (the committed release file, the default) or 'git' (`baseRef`).
 */
export async function compareApi(api, { baseRef, cwd = root } = {}) {
  const current = join(cwd, bundlePath(api));
  if (!existsSync(current)) return { api, status: 'missing', reason: `no ${bundlePath(api)}; run \`npm run generate\`` };
  const currentText = readFileSync(current, 'utf8');
  const document = parse(currentText);
  const revisionVersion = document?.info?.version;
  const baseKind = baseRef ? 'git' : 'release';
  const asNew = (reason, baseRef) => ({ api, status: 'new', baseKind, baseRef, revisionVersion, reason, operations: operationsOf(document) });

  let base; // { text, ref, why }
  if (baseKind === 'git') {
    const text = fileAt(baseRef, bundlePath(api), cwd);
    if (text === undefined) return asNew(`${baseRef} has no ${bundlePath(api)}`, baseRef);
    base = { text, ref: baseRef, why: '--base' };
  } else {
    const release = readRelease(api, cwd);
    if (!release) return asNew(`no ${releasePath(api)}`);
    base = { text: release.body, ref: releasePath(api), why: 'the committed release' };
  }
  const matchesBase = base.text === currentText;
  const compared = { api, status: 'compared', baseKind, baseRef: base.ref, baseWhy: base.why, matchesBase };
  // The usual case (the bundle is its release): nothing to ask Redocly.
  if (matchesBase) return { ...compared, baseVersion: revisionVersion, revisionVersion, changes: [] };

  const dir = mkdtempSync(join(tmpdir(), `spec-diff-${api}-`));
  try {
    const basePath = join(dir, `${api}.yaml`);
    writeFileSync(basePath, base.text);
    return { ...compared, ...(await compareFiles(basePath, current)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function operationsOf(document) {
  return Object.entries(document?.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => operationLabel(document, path, method)),
  );
}

/**
 * Every API (or the named ones), in parallel, each with its release file, or
 * with the bundle at `baseRef`. Throws on an unknown API or a `baseRef` that
 * is no commit.
 */
export async function compareAll({ baseRef, apis, cwd = root } = {}) {
  const known = apiNames(cwd);
  const unknown = (apis ?? []).filter((api) => !known.includes(api));
  if (unknown.length > 0) throw new Error(`unknown API ${unknown.join(', ')} (redocly.yaml declares ${known.join(', ')})`);
  if (baseRef !== undefined && !isCommit(baseRef, cwd)) throw new Error(`--base ${baseRef}: not a commit, tag or branch of this repository`);
  return Promise.all((apis ?? known).map((api) => compareApi(api, { baseRef, cwd })));
}

/** `--name value` / `--name=value` options; only the names in `defaults` are accepted. */
export function parseArgs(argv, defaults) {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(argv[i]);
    if (!match || !(match[1] in defaults)) throw new Error(`unknown argument: ${argv[i]} (options: ${Object.keys(defaults).map((k) => `--${k}`).join(' ')})`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${match[1]} needs a value`);
    options[match[1]] = value;
  }
  return options;
}
