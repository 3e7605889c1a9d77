// The GitHub Actions workflows (.github/workflows/) cannot run here, so here
// they are checked as far as they can be without GitHub:
// - each is valid for action-validator (schema, job references), and a
//   broken copy is not;
// - every `run:` line calls only the project's own commands, each of which
//   exists (an `npm run` script in package.json) and is tested by `npm test`;
// - what they promise: the tests on Node 20, 22 and 24 for every push and pull
//   request; on a release tag, the tests, then the package published with
//   provenance and the docs deployed to Pages;
// - the publish step itself, as a dry run that reaches no registry.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { copyWorkingTree, isolatedEnv } from '../support/working-tree.js';

const root = join(import.meta.dirname, '..', '..');
const workflowsDir = join(root, '.github', 'workflows');
const validator = join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'workflows-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  uses?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps?: Step[];
}
interface Workflow {
  on: Record<string, { branches?: string[]; tags?: string[] } | null>;
  jobs: Record<string, Job>;
}

const files = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));
const workflows: Record<string, Workflow> = Object.fromEntries(files.map((name) => [name, parse(readFileSync(join(workflowsDir, name), 'utf8'))]));
const steps = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: isolatedEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const validate = (path: string) => run(process.execPath, [validator, path], scratch);

// --- what a `run:` line may call ---------------------------------------------

/**
 * Why a `run:` line is not one of the project's own commands; undefined when
 * it is. Allowed: `npm ci`, `npm test`, `npm run <script in package.json>`
 * (with arguments after `--`), `npm publish` with flags, `bash .ci/run`; one
 * command per line. Arguments are plain words or a quoted environment
 * variable: `${{ … }}` expressions go through `env:` (GitHub pastes them
 * into the script as text, so a tag name could otherwise inject commands).
 */
function runLineProblem(line: string, known: Record<string, string>): string | undefined {
  if (line.includes('${{')) return `\`${line}\`: pass \${{ … }} through env:, not into the script`;
  const words = line.trim().split(/\s+/);
  const argument = /^(?:--?[a-z][a-z-]*(?:=[\w.:@/-]+)?|[\w.:@/-]+|"\$[A-Z_][A-Z0-9_]*")$/;
  const bad = words.find((word) => !argument.test(word));
  if (bad !== undefined) return `\`${line}\`: \`${bad}\` is not a plain argument (no shell operators, one command per line)`;
  const [command, sub, ...rest] = words;
  // `--flag` or `--flag value`: a word that is no flag must follow one.
  const flagsOnly = rest.every((word, i) => word.startsWith('--') || rest[i - 1]?.startsWith('--'));
  if (command === 'bash' && sub === '.ci/run' && rest.length === 0) return undefined;
  if (command !== 'npm') return `\`${line}\`: only npm and bash .ci/run are the project's commands`;
  if ((sub === 'ci' || sub === 'test') && flagsOnly) return undefined;
  if (sub === 'publish' && flagsOnly) return undefined;
  if (sub === 'run') {
    const [script, separator] = rest;
    if (script === undefined || !(script in known)) return `\`${line}\`: package.json has no script ${script ?? '(none named)'}`;
    if (separator !== undefined && separator !== '--') return `\`${line}\`: arguments of a script come after --`;
    return undefined;
  }
  return `\`${line}\`: npm ${sub} is not one of the project's commands`;
}

/** GitHub's filter pattern for a tag (`*` any run of characters but `/`, `[0-9]` a class) as a RegExp. */
function tagPattern(glob: string): RegExp {
  const source = glob.replace(/[.+?^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${source}$`);
}

describe('workflows', () => {
  it('there are the test and the release workflows', () => {
    expect(files.sort()).toEqual(['release.yml', 'test.yml']);
  });

  for (const name of files) {
    it(`${name} is valid for action-validator`, async () => {
      const result = await validate(join(workflowsDir, name));
      expect(result.code, result.stdout + result.stderr).toBe(0);
    });
  }

  it('a broken workflow fails action-validator, naming what is wrong', async () => {
    const broken: Record<string, [text: string, message: string]> = {
      'misspelt-key.yml': [readFileSync(join(workflowsDir, 'test.yml'), 'utf8').replace('runs-on:', 'run-on:'), "Additional property 'run-on' is not allowed"],
      'unknown-job.yml': [readFileSync(join(workflowsDir, 'release.yml'), 'utf8').replaceAll('needs: test', 'needs: tests'), 'unresolved job tests'],
      'unknown-event.yml': [readFileSync(join(workflowsDir, 'test.yml'), 'utf8').replace('pull_request:', 'pull_requests:'), "Additional property 'pull_requests' is not allowed"],
    };
    for (const [name, [text, message]] of Object.entries(broken)) {
      writeFileSync(join(scratch, name), text);
      const result = await validate(join(scratch, name));
      expect(result.code, name).not.toBe(0);
      expect(result.stdout + result.stderr, name).toContain(message);
    }
  });

  it('every run: line calls only the project\'s own commands, and every npm run script exists', () => {
    const lines = Object.entries(workflows).flatMap(([name, workflow]) =>
      steps(workflow).flatMap((step) => (step.run ?? '').split('\n').filter((line) => line.trim() !== '').map((line) => ({ name, line }))),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map(({ name, line }) => runLineProblem(line, scripts) && `${name}: ${runLineProblem(line, scripts)}`).filter(Boolean)).toEqual([]);
  });

  it('the run: line check refuses what is not ours', () => {
    const refused = [
      'curl -fsSL https://example.test/install.sh | sh',
      'npm run no-such-script',
      'npm install left-pad',
      'npx some-tool',
      'npm ci && rm -rf dist',
      'npm ci; npm test',
      'npm run docs -- --out "$(whoami)"',
      'npm run spec:check -- --tag ${{ github.ref_name }}',
      'bash other.sh',
      'npm publish ./elsewhere',
    ];
    for (const line of refused) expect(runLineProblem(line, scripts), line).toBeDefined();
    for (const line of ['npm ci', 'npm test', 'bash .ci/run', 'npm run docs', 'npm run spec:check -- --tag "$RELEASE_TAG"', 'npm publish --provenance --access public']) {
      expect(runLineProblem(line, scripts), line).toBeUndefined();
    }
  });

  it('actions come from GitHub\'s own actions/ organisation or from this repository', () => {
    const uses = Object.values(workflows).flatMap((workflow) => [
      ...Object.values(workflow.jobs).flatMap((job) => (job.uses ? [job.uses] : [])),
      ...steps(workflow).flatMap((step) => (step.uses ? [step.uses] : [])),
    ]);
    for (const action of uses) {
      const local = /^\.\/\.github\/workflows\/([\w-]+\.yml)$/.exec(action);
      if (local) expect(files).toContain(local[1]);
      else expect(action).toMatch(/^actions\/(checkout|setup-node|configure-pages|upload-pages-artifact|deploy-pages)@v\d+$/);
    }
  });

  it('the tests run on every push of a branch and every pull request, on Node 20, 22 and 24', () => {
    const test = workflows['test.yml']!;
    expect(test.on.push).toEqual({ branches: ['**'] });
    expect(test.on).toHaveProperty('pull_request');
    expect(test.on).toHaveProperty('workflow_call');
    expect(test.jobs.test!.strategy!.matrix!.node).toEqual([20, 22, 24]);
    expect(test.jobs.test!.steps!.map((step) => step.run).filter(Boolean)).toEqual(['bash .ci/run']);
  });

  it('a release tag (<api>@<version> or v<version>) runs the tests, then publishes with provenance and deploys the docs', () => {
    const release = workflows['release.yml']!;
    const tags = release.on.push!.tags!.map(tagPattern);
    const matches = (tag: string) => tags.some((pattern) => pattern.test(tag));
    for (const tag of ['channels@1.0.0', 'policy-coordinator@0.2.0', 'v0.2.0']) expect(matches(tag), tag).toBe(true);
    for (const tag of ['latest', 'channels-1.0.0', 'v-next']) expect(matches(tag), tag).toBe(false);
    expect(release.on).not.toHaveProperty('pull_request');

    const { test, publish, docs } = release.jobs;
    expect(test!.uses).toBe('./.github/workflows/test.yml');

    expect(publish!.needs).toBe('test');
    expect(publish!.permissions).toMatchObject({ 'id-token': 'write' });
    const publishRuns = publish!.steps!.map((step) => step.run).filter(Boolean);
    expect(publishRuns).toEqual(['npm ci', 'npm run spec:check -- --tag "$RELEASE_TAG"', 'npm publish --provenance --access public']);
    expect(publish!.steps!.find((step) => step.run?.includes('--tag'))!.env).toEqual({ RELEASE_TAG: '${{ github.ref_name }}' });

    expect(docs!.needs).toBe('test');
    expect(docs!.permissions).toMatchObject({ pages: 'write', 'id-token': 'write' });
    expect(docs!.steps!.map((step) => step.run).filter(Boolean)).toEqual(['npm ci', 'npm run docs']);
    const upload = docs!.steps!.find((step) => step.uses?.startsWith('actions/upload-pages-artifact@'));
    expect(upload?.with).toEqual({ path: 'docs' });
    expect(docs!.steps!.at(-1)!.uses).toMatch(/^actions\/deploy-pages@/);
  });
});

describe('the publish step, as a dry run', () => {
  let registry: Server | undefined;
  afterAll(() => registry?.close());

  it('builds the package and lists what it would publish, CHANGELOG.md included, without reaching a registry', async () => {
    // A registry that only counts: the dry run must not ask it anything.
    const requests: string[] = [];
    registry = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(500).end();
    });
    await new Promise<void>((listening) => registry!.listen(0, '127.0.0.1', listening));
    const { port } = registry.address() as AddressInfo;

    // In a copy: `prepack` rebuilds dist/, which other tests of this repository read.
    const copy = join(scratch, 'package');
    copyWorkingTree(root, copy);
    const publishLine = steps(workflows['release.yml']!).find((step) => step.run?.startsWith('npm publish'))!.run!;
    const [, ...args] = publishLine.trim().split(/\s+/);
    const result = await run('npm', [...args, '--dry-run', '--offline', '--json', '--registry', `http://127.0.0.1:${port}/`], copy);
    expect(result.code, result.stderr).toBe(0);
    expect(requests).toEqual([]);

    const [summary] = Object.values(JSON.parse(result.stdout) as Record<string, { name: string; files: { path: string }[] }>);
    const paths = summary!.files.map((file) => file.path);
    expect(summary!.name).toBe('@ourteam/service-sdk');
    for (const path of ['CHANGELOG.md', 'README.md', 'LICENSE', 'package.json', 'dist/src/channels/index.js', 'dist/src/channels/index.d.ts']) expect(paths).toContain(path);
    // The sources of the build and of the tests stay home, but for src/platform/: the plain-JS
    // modules per runtime that package.json `imports` resolve to, shipped as they are.
    const home = paths.filter((path) => /^(src|test|scripts|openapi|bench|examples|node_modules)\//.test(path) && !path.startsWith('src/platform/'));
    expect(home).toEqual([]);
    expect(paths).toContain('src/platform/stream-socket.node.js');
  }, 120_000);
});
