#!/usr/bin/env node
// A spec bump in one command, for one API, after its YAML under openapi/<api>/
// was edited (CONTRIBUTING.md, "After a spec bump"):
//   1. regenerates, and diffs the bundle against the API's release file;
//   2. sets info.version to the bump the diff needs (refusing a major one
//      unless --major asks for it), and regenerates with it;
//   3. writes the CHANGELOG.md section (spec:changelog);
//   4. type-checks, and lists what is left to write by hand: operations the
//      sandbox has no handler for, documented query parameters its handler
//      never reads, status values with no kind (x-status-kinds), type errors.
// It exits 1 while anything on that list would ship broken, 2 on a refusal.
//
//   npm run spec:bump -- --api <name> [--major] [--skip-lint]
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { bundlePath, compareApi, root } from './lib/spec-diff/compare.mjs';
import { gate, parseVersion, versionBump } from './lib/spec-diff/gate.mjs';
import { statusEnums } from './lib/status-kinds.mjs';

const args = process.argv.slice(2);
const api = args.includes('--api') ? args[args.indexOf('--api') + 1] : undefined;
const allowMajor = args.includes('--major');
const skipLint = args.includes('--skip-lint');

function step(text) {
  console.log(`spec:bump: ${text}`);
}

function run(command, argv) {
  execFileSync(command, argv, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

function generate() {
  run(process.execPath, [join(root, 'scripts', 'generate.mjs'), '--api', api, ...(skipLint ? ['--skip-lint'] : [])]);
}

/** The smallest version above `from` that the `impact` needs (a breaking change needs a new major even below 1.0.0). */
function nextVersion(from, impact) {
  const { major, minor, patch } = parseVersion(from);
  if (impact === 'major') return `${major + 1}.0.0`;
  if (impact === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

const RANK = { none: 0, patch: 1, minor: 2, major: 3 };

try {
  if (api === undefined) throw new Error('--api <name> is required: one API per bump');
  const sourcePath = join(root, 'openapi', api, 'openapi.yaml');

  step(`regenerating ${api}`);
  generate();
  const result = await compareApi(api);
  if (result.status !== 'compared') throw new Error(result.reason ?? `${api} has no release file to compare with`);
  const needed = (result.changes ?? []).reduce((largest, change) => (RANK[change.impact] > RANK[largest] ? change.impact : largest), 'none');
  const base = result.baseVersion;
  const current = result.revisionVersion;
  step(`${result.changes.length} change(s) since ${base} (${result.baseRef}); they need ${needed === 'none' ? 'no' : `a ${needed}`} bump`);

  if (needed !== 'none' && RANK[versionBump(base, current)] < RANK[needed]) {
    if (needed === 'major' && !allowMajor) {
      for (const change of result.changes.filter((candidate) => candidate.impact === 'major')) console.error(`  breaking: ${change.operations.join(', ')} ${change.field}: ${change.message}`);
      console.error(`spec:bump: REFUSED these changes break users' code and need a new major; undo them, or run again with --major.`);
      process.exit(2);
    }
    const version = nextVersion(base, needed);
    const document = parseDocument(readFileSync(sourcePath, 'utf8'));
    document.setIn(['info', 'version'], version);
    writeFileSync(sourcePath, document.toString({ lineWidth: 0 }));
    step(`info.version ${current} -> ${version} (openapi/${api}/openapi.yaml); regenerating`);
    generate();
  }

  const verdict = gate(await compareApi(api));
  if (!verdict.ok) throw new Error(verdict.problems.join('\n'));
  if (result.changes.length > 0) {
    run(process.execPath, [join(root, 'scripts', 'spec-changelog.mjs'), '--api', api]);
    step('wrote the CHANGELOG.md section: reword its lines for users, keeping every Breaking and Dangerous one');
  }

  const left = [];
  const bundle = parse(readFileSync(join(root, bundlePath(api)), 'utf8'));
  for (const { name, unclassified } of statusEnums(bundle)) {
    for (const value of unclassified) left.push(`status \`${value}\` of ${name} has no kind: add it to x-status-kinds (in_progress, succeeded or failed) in openapi/${api}`);
  }

  const probe = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `import { probeSandbox } from './src/sandbox/probe.ts'; console.log(JSON.stringify(probeSandbox([${JSON.stringify(api)}])));`],
    { cwd: root, encoding: 'utf8' },
  );
  if (probe.status !== 0) left.push(`the sandbox could not be probed: ${probe.stderr.trim().split('\n').slice(0, 5).join(' ')}`);
  else {
    const { missingHandlers, unreadParameters } = JSON.parse(probe.stdout.trim().split('\n').at(-1));
    for (const { operationId, method, path } of missingHandlers) left.push(`the sandbox has no handler for ${operationId} (${method} ${path}): add one under src/sandbox (it answers 501 until then)`);
    for (const { operationId, parameter } of unreadParameters) left.push(`the sandbox's ${operationId} never reads its documented query parameter \`${parameter}\``);
  }

  step('type-checking');
  const typecheck = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
  const typeErrors = typecheck.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  for (const line of typeErrors) left.push(`type error: ${line.trim()}`);

  if (left.length === 0) {
    step(`nothing left to write by hand: run \`npm run spec:release -- --api ${api}\`, \`npm run docs\`, then commit`);
  } else {
    console.error(`spec:bump: left to write by hand before ${api} can be released:`);
    for (const line of left) console.error(`  - ${line}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`spec:bump: ${error.message}`);
  process.exitCode = 2;
}
