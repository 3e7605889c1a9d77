// The version rule of our specs, stricter than semver 0.x (which
// `redocly diff --check-version` follows and which lets 0.1.0 -> 0.2.0 break):
// - a breaking change needs a new major at every version (0.8.0 -> 1.0.0);
// - an addition or a dangerous change needs at least a new minor, since
//   clients pin a minor and must not get new values or fields in a patch;
// - any change needs the version to move, and it may never go down.

/** "1.2.3" or "1.2.3-rc.1" -> numbers; undefined when not semver. */
export function parseVersion(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(String(version ?? ''));
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease: match[4] };
}

/** Negative, zero or positive like a sort comparator; a prerelease sorts before its release. */
export function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) throw new Error(`not a semver version: ${!x ? a : b}`);
  for (const key of ['major', 'minor', 'patch']) if (x[key] !== y[key]) return x[key] - y[key];
  if (x.prerelease === y.prerelease) return 0;
  if (x.prerelease === undefined) return 1;
  if (y.prerelease === undefined) return -1;
  return x.prerelease < y.prerelease ? -1 : 1;
}

/** How info.version moved: 'major' | 'minor' | 'patch' | 'none' | 'down'. */
export function versionBump(from, to) {
  const order = compareVersions(to, from);
  if (order === 0) return 'none';
  if (order < 0) return 'down';
  const [x, y] = [parseVersion(from), parseVersion(to)];
  if (y.major > x.major) return 'major';
  if (y.minor > x.minor) return 'minor';
  return 'patch';
}

/** "A, B and 3 more": every operation up to four, then a count. */
export function listOperations(operations, quote = (label) => label) {
  const shown = operations.length <= 4 ? operations : operations.slice(0, 3);
  const rest = operations.length - shown.length;
  const labels = shown.map(quote);
  return rest > 0 ? `${labels.join(', ')} and ${rest} more` : labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels.join('');
}

/** A line naming one change: operations, field, what happened, where. */
export function describeChange(change) {
  const where = [listOperations(change.operations), change.field].filter(Boolean).join(' ');
  return `${where}: ${change.message} [${change.pointer}]`;
}

const RANK = { none: 0, patch: 1, minor: 2, major: 3 };

const bundlePathOf = (api) => `generated/openapi/${api}.yaml`;
const releaseCommand = (api) => `\`npm run spec:changelog -- --api ${api}\` then \`npm run spec:release -- --api ${api}\``;

/**
 * The gate's verdict on one API's comparison (see compare.mjs): `ok`, the
 * problems that fail it (each naming the offending changes), and notes.
 * An API compared with its release file must have one. With `released`
 * (when publishing), the bundle must also be exactly its release.
 */
export function gate(result, { released = false } = {}) {
  const { api, baseVersion: from, revisionVersion: to, changes = [] } = result;
  if (result.status === 'missing') return { ok: false, problems: [`${api}: ${result.reason}`], notes: [] };
  if (result.status === 'new' && result.baseKind === 'release') {
    return { ok: false, problems: [`${api} ${to ?? ''}: ${result.reason}, so nothing to hold it to; write it with \`npm run spec:release -- --api ${api}\`.`], notes: [] };
  }
  if (result.status === 'new') return { ok: true, problems: [], notes: [`${api} ${to ?? ''}: nothing to compare with (${result.reason}); passes.`] };

  for (const [which, version] of [['base', from], ['current', to]]) {
    if (!parseVersion(version)) return { ok: false, problems: [`${api}: info.version of the ${which} document is not semver: ${JSON.stringify(version)}`], notes: [] };
  }
  const bump = versionBump(from, to);
  const list = (items) => items.map((change) => `\n    - ${describeChange(change)}`).join('');
  const problems = [];

  if (bump === 'down') problems.push(`${api}: info.version went down from ${from} to ${to}.`);
  const breaking = changes.filter((c) => c.impact === 'major');
  const needMinor = changes.filter((c) => c.impact === 'minor');
  if (changes.length > 0 && bump === 'none') {
    problems.push(`${api}: ${changes.length} change(s) since ${result.baseRef} but info.version is still ${from}:${list(changes)}`);
  } else if (bump !== 'down' && breaking.length > 0 && bump !== 'major') {
    const next = `${parseVersion(from).major + 1}.0.0`;
    problems.push(`${api}: breaking change(s) need a new major version (${from} -> ${next}), not ${to}:${list(breaking)}`);
  } else if (bump === 'patch' && needMinor.length > 0) {
    problems.push(`${api}: addition(s) or dangerous change(s) need at least a new minor version, not the patch ${from} -> ${to}:${list(needMinor)}`);
  }

  const unreleased = result.baseKind === 'release' && !result.matchesBase && problems.length === 0;
  if (unreleased && released) {
    problems.push(`${api} ${to}: ${bundlePathOf(api)} is not its release (${result.baseRef} holds ${from}); run ${releaseCommand(api)} and commit.`);
  }

  const notes = [];
  if (problems.length === 0) {
    const worst = changes.reduce((max, c) => (RANK[c.impact] > RANK[max] ? c.impact : max), 'none');
    notes.push(
      changes.length === 0
        ? `${api} ${to}: no change since ${result.baseRef}${bump === 'none' ? '' : ` (${from} -> ${to})`}.`
        : `${api} ${from} -> ${to}: ${changes.length} change(s) since ${result.baseRef}, needing ${worst === 'none' ? 'no' : `a ${worst}`} bump; got ${bump}.`,
    );
    for (const change of changes.filter((c) => c.category === 'dangerous')) notes.push(`${api}: dangerous (call it out in the changelog): ${describeChange(change)}`);
    if (unreleased) notes.push(`${api} ${to}: not released yet (${result.baseRef} holds ${from}); run ${releaseCommand(api)} before you commit.`);
  }
  return { ok: problems.length === 0, problems, notes };
}
