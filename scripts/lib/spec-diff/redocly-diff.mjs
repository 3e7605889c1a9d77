// Runs `redocly diff --format json` (Redocly CLI, our linter; offline) on two
// bundled documents and returns its report: every change with its JSON
// pointer, its semver impact and the rules ("verdicts") that rated it.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const cli = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
// Our own diff rule set: /redocly.yaml turns on lint rules only (see the file).
const config = join(here, 'redocly-diff.yaml');

// One CLI process per CPU at most: callers compare many APIs or fixtures at
// once, and each process holds both documents in memory.
const slots = Math.max(1, availableParallelism());
let running = 0;
const waiting = [];

export async function redoclyDiff(basePath, revisionPath) {
  if (running >= slots) await new Promise((wake) => waiting.push(wake));
  running++;
  try {
    return await run(basePath, revisionPath);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function run(basePath, revisionPath) {
  const args = [cli, 'diff', basePath, revisionPath, '--format', 'json', '--fail-on', 'none', '--config', config];
  // No telemetry, no update notices: the gate runs in CI and must stay offline and quiet.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  return new Promise((resolveReport, reject) => {
    execFile(process.execPath, args, { cwd: root, env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        if (error) throw error;
        resolveReport(JSON.parse(stdout));
      } catch (cause) {
        const why = stderr.replace(/^\s*[║╔╚].*\n/gm, '').trim();
        reject(new Error(`redocly diff ${basePath} ${revisionPath} failed${why ? `:\n${why}` : ''}`, { cause }));
      }
    });
  });
}
