#!/usr/bin/env node
// Makes the current bundle of one API its release: writes
// openapi/releases/<api>.yaml, the base that spec:check, spec:diff and
// spec:changelog compare with from then on. Commit it with the bump.
//
//   npm run spec:release -- --api <name> [--changelog CHANGELOG.md]
//
// It refuses what the gate refuses (a change without the bump it needs), a
// version that CHANGELOG.md has no section for or whose section lost a
// Breaking or Dangerous line, and a repository whose type-check fails, so
// that writing the release file cannot be a way around any of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundlePath, compareAll, parseArgs, root } from './lib/spec-diff/compare.mjs';
import { gate } from './lib/spec-diff/gate.mjs';
import { releasePath, releaseText } from './lib/spec-diff/release.mjs';

/** Whether a changelog has the section `## <api> <version> (<date>)`. */
function hasChangelogSection(text, api, version) {
  return text.split('\n').some((line) => line.startsWith(`## ${api} ${version} (`));
}

/** The list items under `### <title>` in the section `## <api> <version> (…)` of a changelog. */
function sectionItems(text, api, version, title) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## ${api} ${version} (`));
  let items = 0;
  let inside = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (line.startsWith('### ')) inside = line.trim() === `### ${title}`;
    else if (inside && line.startsWith('- ')) items++;
  }
  return items;
}

/** Why the changelog lost a line users must read: fewer Breaking or Dangerous lines than such changes. */
function droppedWarnings(text, result) {
  const problems = [];
  for (const [category, title] of [['breaking', 'Breaking'], ['dangerous', 'Dangerous']]) {
    const changes = (result.changes ?? []).filter((change) => change.category === category).length;
    const items = sectionItems(text, result.api, result.revisionVersion, title);
    if (items < changes) problems.push(`the ${title} list of ${result.api} ${result.revisionVersion} in CHANGELOG.md has ${items} line(s) for ${changes} ${category} change(s): reword them, never drop them (\`npm run spec:changelog -- --api ${result.api}\` writes them again)`);
  }
  return problems;
}

/** The type-check's errors (`npm run typecheck`), none when it passes. */
function typeErrors() {
  const typecheck = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
  if (typecheck.status === 0) return [];
  const lines = typecheck.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  return lines.length > 0 ? lines : [`tsc exited ${typecheck.status}: ${typecheck.stderr.trim()}`];
}

/** Prints why the release is refused, if it is: a dropped Breaking or Dangerous line, or a failing type-check. */
function refusedLater(changelog, result) {
  const dropped = droppedWarnings(changelog, result);
  for (const problem of dropped) console.error(`spec:release: REFUSED ${problem}`);
  if (dropped.length > 0) return true;
  const errors = typeErrors();
  if (errors.length === 0) return false;
  for (const line of errors.slice(0, 20)) console.error(`  ${line}`);
  console.error(`spec:release: REFUSED the type-check fails (above): what the bump changed is not all written yet (\`npm run spec:bump -- --api ${result.api}\` lists it).`);
  return true;
}

try {
  const options = parseArgs(process.argv.slice(2), { api: undefined, changelog: join(root, 'CHANGELOG.md') });
  if (options.api === undefined) throw new Error('--api <name> is required: one API per release');
  const [result] = await compareAll({ apis: [options.api] });
  const { api, revisionVersion: version } = result;
  const target = join(root, releasePath(api));

  if (result.status === 'missing') throw new Error(result.reason);
  if (result.status === 'compared' && result.matchesBase) {
    console.log(`spec:release: ${api} ${version} is already released (${releasePath(api)}); nothing to write.`);
  } else {
    // A first release has nothing to be held to; any other must pass the gate.
    const verdict = result.status === 'new' ? { ok: true, problems: [] } : gate(result);
    if (!verdict.ok) {
      for (const problem of verdict.problems) console.error(`spec:release: REFUSED ${problem}`);
      console.error(`spec:release: ${releasePath(api)} is unchanged. Bump info.version as above, \`npm run generate\`, then try again.`);
      process.exitCode = 1;
    } else if (!(existsSync(options.changelog) && hasChangelogSection(readFileSync(options.changelog, 'utf8'), api, version))) {
      console.error(`spec:release: REFUSED ${options.changelog} has no section "## ${api} ${version} (<date>)": run \`npm run spec:changelog -- --api ${api}\` first.`);
      process.exitCode = 1;
    } else if (refusedLater(readFileSync(options.changelog, 'utf8'), result)) {
      process.exitCode = 1;
    } else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, releaseText(api, readFileSync(join(root, bundlePath(api)), 'utf8')));
      const from = result.status === 'new' ? 'its first release' : `was ${result.baseVersion}`;
      console.log(`spec:release: ${releasePath(api)} now holds ${api} ${version} (${from}); commit it with the bump.`);
    }
  }
} catch (error) {
  console.error(`spec:release: ${error.message}`);
  process.exitCode = 2;
}
