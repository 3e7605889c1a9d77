// Compares, per API, the bundle at a base (a git ref, or a file) with the
// current bundle, and classifies every change. Shared by spec:diff,
// spec:check and spec:changelog.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { classify } from './classify.mjs';
import { defaultBase, fileAt, isCommit } from './git-base.mjs';
import { METHODS, operationLabel } from './pointer.mjs';
import { redoclyDiff } from './redocly-diff.mjs';

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
    changes: classify(report, base, revision),
  };
}

/**
 * One API: status 'compared' (with changes), 'new' (no base bundle: says
 * why) or 'missing' (no current bundle).
 */
export async function compareApi(api, { baseRef, cwd = root } = {}) {
  const current = join(cwd, bundlePath(api));
  if (!existsSync(current)) return { api, status: 'missing', reason: `no ${bundlePath(api)}; run \`npm run generate\`` };
  const currentText = readFileSync(current, 'utf8');
  const document = parse(currentText);
  const revisionVersion = document?.info?.version;
  const asNew = (reason, baseRef) => ({ api, status: 'new', baseRef, revisionVersion, reason, operations: operationsOf(document) });

  const base = baseRef ? { ref: baseRef, why: '--base' } : defaultBase(api, cwd);
  if (base.ref === undefined) return asNew(base.why);
  const text = fileAt(base.ref, bundlePath(api), cwd);
  if (text === undefined) return asNew(`${base.ref} has no ${bundlePath(api)}`, base.ref);
  const compared = { api, status: 'compared', baseRef: base.ref, baseWhy: base.why };
  // The usual case in CI (the base is HEAD, unchanged): nothing to ask Redocly.
  if (text === currentText) return { ...compared, baseVersion: revisionVersion, revisionVersion, changes: [] };

  const dir = mkdtempSync(join(tmpdir(), `spec-diff-${api}-`));
  try {
    const basePath = join(dir, `${api}.yaml`);
    writeFileSync(basePath, text);
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

/** Every API (or the named ones), in parallel. Throws on an unknown API or a --base that is no commit. */
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
