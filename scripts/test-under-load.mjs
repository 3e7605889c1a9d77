#!/usr/bin/env node
// `npm run test:load`: the suite as it runs on a busy machine.
//
// Runs every vitest project except the runtime matrix and the browser
// (`runtimes`, `browser`: they measure other runtimes, not our timing) three
// times in a row while two CPU-bound processes run beside it, then prints the
// failed tests of each run. A test that passes alone but fails here depends on
// the wall clock; see CONTRIBUTING's testing rules.
//
// Not part of `npm test` or CI's default path: three full runs take long.
//
//   npm run test:load                       three runs, two busy loops
//   npm run test:load -- --runs 1 --loops 3 test/sandbox/policy.test.ts
//
// Options before any vitest argument: --runs N, --loops N. Everything else
// (file filters, -t patterns) goes to vitest unchanged.
//
// Exit code 0 when no run failed, 1 otherwise. The busy loops are killed
// whatever happens (each in its own process group, killed as a group).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const vitestBin = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const skippedProjects = new Set(['runtimes', 'browser']);

const { runs, loops, vitestArgs } = parseArguments(process.argv.slice(2));
const projects = projectNames();

/** The project names vitest.config.ts declares, read from its text so a new project is included without editing this script. */
function projectNames() {
  const config = readFileSync(join(root, 'vitest.config.ts'), 'utf8');
  const names = [...config.matchAll(/\bname:\s*'([\w-]+)'/g)].map((match) => match[1]);
  if (names.length === 0) throw new Error('test-under-load: no project names found in vitest.config.ts');
  return names.filter((name) => !skippedProjects.has(name));
}

function parseArguments(args) {
  const options = { runs: 3, loops: 2, vitestArgs: [] };
  for (let index = 0; index < args.length; index++) {
    const name = args[index];
    if (name === '--runs' || name === '--loops') {
      const value = Number(args[++index]);
      if (!Number.isInteger(value) || value < (name === '--runs' ? 1 : 0)) {
        throw new Error(`test-under-load: ${name} takes a whole number, got ${args[index]}`);
      }
      options[name.slice(2)] = value;
    } else {
      options.vitestArgs.push(name);
    }
  }
  return options;
}

/** Busy loops, each the leader of its own process group so killing the group leaves nothing behind. */
function startBusyLoops(count) {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { detached: true, stdio: 'ignore' }),
  );
}

function stopBusyLoops(children) {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Failed tests (and files that failed before any test ran) from vitest's JSON report. */
function failuresIn(reportPath) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch {
    return ['(no JSON report: vitest stopped before writing one)'];
  }
  const failures = [];
  for (const file of report.testResults ?? []) {
    const path = relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      const line = test.location?.line ? `:${test.location.line}` : '';
      const message = (test.failureMessages?.[0] ?? '').split('\n')[0];
      failures.push(`${path}${line} › ${test.fullName}${message ? ` — ${message}` : ''}`);
    }
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push(`${path} — ${(file.message ?? 'failed').split('\n')[0]}`);
    }
  }
  return failures;
}

/** Runs vitest as a child (not spawnSync: a signal must reach this process's handlers while it runs). */
let running;
function runVitest(args) {
  return new Promise((resolve) => {
    running = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    running.on('exit', (status, signal) => {
      running = undefined;
      resolve({ status, signal });
    });
  });
}

const busyLoops = startBusyLoops(loops);
const stopAndExit = (code) => {
  running?.kill('SIGTERM');
  stopBusyLoops(busyLoops);
  process.exit(code);
};
process.on('SIGINT', () => stopAndExit(130));
process.on('SIGTERM', () => stopAndExit(143));
process.on('exit', () => stopBusyLoops(busyLoops));

const reports = mkdtempSync(join(tmpdir(), 'test-under-load-'));
const summary = [];
try {
  console.log(`test-under-load: ${runs} run(s) of ${projects.join(', ')} beside ${loops} busy loop(s)`);
  for (let run = 1; run <= runs; run++) {
    const reportPath = join(reports, `run-${run}.json`);
    const args = [
      vitestBin,
      'run',
      ...projects.map((name) => `--project=${name}`),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportPath}`,
      ...vitestArgs,
    ];
    console.log(`\n== run ${run} of ${runs}`);
    const started = Date.now();
    const result = await runVitest(args);
    const failures = failuresIn(reportPath);
    if (result.status !== 0 && failures.length === 0) {
      failures.push(`(vitest exited with ${result.status ?? result.signal} and reported no failed test)`);
    }
    summary.push({ run, seconds: Math.round((Date.now() - started) / 1000), failures });
  }
} finally {
  stopBusyLoops(busyLoops);
  rmSync(reports, { recursive: true, force: true });
}

console.log('\n== under load: failed tests per run');
for (const { run, seconds, failures } of summary) {
  console.log(`run ${run}: ${failures.length} failed (${seconds} s)`);
  for (const failure of failures) console.log(`  ${failure}`);
}
process.exitCode = summary.some(({ failures }) => failures.length > 0) ? 1 : 0;
