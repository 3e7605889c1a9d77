// The spec gate where it matters: a clone made with `--no-tags --depth 1`,
// as a contributor or CI gets it. The released baseline lives in the
// repository (openapi/releases/<api>.yaml), so the gate needs neither tags
// nor history. Each step edits the channels spec, regenerates, commits, and
// runs the same `npm run spec:check` that `npm test` runs:
// (a) a breaking change without a major bump fails, and spec:release refuses
//     to make it the release (a smaller bump fails the same rule: spec-diff.test.ts);
// (b) with the major bump, its changelog section and its release file, it passes;
// (c) a minor addition with a minor bump passes, and publishing needs its release file.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { parseVersion } from '../../scripts/lib/spec-diff/gate.mjs';
import { readRelease, releasePath, releaseText } from '../../scripts/lib/spec-diff/release.mjs';
import { copyWorkingTree, isolatedEnv } from '../support/working-tree.js';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'spec-release-test-'));
const clone = join(scratch, 'clone');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const env = isolatedEnv();
const gitSettings = ['user.name=t', 'user.email=t@example.test', 'commit.gpgSign=false', 'core.hooksPath=/dev/null'];
const git = (cwd: string, ...args: string[]) => execFileSync('git', [...gitSettings.flatMap((s) => ['-c', s]), ...args], { cwd, env, encoding: 'utf8' });

/** Exit code and combined output of a command in the clone. */
function run(command: string, ...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: clone, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` });
    });
  });
}
const npmRun = (script: string, ...args: string[]) => run('npm', 'run', script, ...(args.length > 0 ? ['--', ...args] : []));

const inClone = (path: string) => join(clone, path);
const read = (path: string) => readFileSync(inClone(path), 'utf8');
function edit(path: string, change: (text: string) => string) {
  const before = read(path);
  const after = change(before);
  expect(after, `the edit of ${path} changed nothing`).not.toBe(before);
  writeFileSync(inClone(path), after);
}

const CHANNELS_ROOT = 'openapi/channels/openapi.yaml';
function setChannelsVersion(version: string) {
  edit(CHANNELS_ROOT, (text) => {
    const doc = parseDocument(text);
    doc.setIn(['info', 'version'], version);
    return doc.toString({ lineWidth: 0 });
  });
}

/** Regenerates the channels bundle and types only (the lint is not what is tested here), then commits. */
async function generateAndCommit(message: string) {
  const generated = await run(process.execPath, 'scripts/generate.mjs', '--api', 'channels', '--skip-lint');
  expect(generated.code, generated.output).toBe(0);
  git(clone, 'add', '-A');
  git(clone, 'commit', '-q', '-m', message);
}

let released: { major: number; version: string };

beforeAll(() => {
  git(scratch, 'clone', '-q', '--no-tags', '--depth', '1', `file://${root}`, clone);
  // The working tree as it is now (committed or not) becomes one commit of the
  // clone; git must not commit the node_modules link.
  copyWorkingTree(root, clone);
  writeFileSync(inClone('.git/info/exclude'), 'node_modules\n');
  // Every API starts released as it is: what is tested here is the gate's
  // base in a clone, not whether the working tree's own specs are released
  // (the spec:check step of `npm test` checks that).
  for (const api of Object.keys(parse(read('redocly.yaml')).apis)) {
    writeFileSync(inClone(releasePath(api)), releaseText(api, read(`generated/openapi/${api}.yaml`)));
  }
  git(clone, 'add', '-A');
  git(clone, 'commit', '-q', '--allow-empty', '-m', 'the working tree, every API released as it is');

  const release = readRelease('channels', clone);
  const version = parseVersion(release?.version);
  if (!release || !version) throw new Error('the clone has no openapi/releases/channels.yaml with a semver version');
  released = { major: version.major, version: release.version! };
}, 60_000);

describe('the spec gate in a clone without tags or history', () => {
  it('the clone has no tag and no history, and the gate passes on what is released', async () => {
    expect(git(clone, 'tag')).toBe('');
    expect(git(clone, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    const check = await npmRun('spec:check');
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain(`spec:check: channels ${released.version}: no change since openapi/releases/channels.yaml.`);
  }, 60_000);

  it('(a) a committed breaking change without a bump fails, and spec:release refuses to release it', async () => {
    // What a user reported passing in a fresh clone: remove an enum value of a request, generate, commit.
    edit('openapi/channels/components/schemas/WalletType.yaml', (text) => text.replace(/,\s*protected_rsa\b/, ''));
    await generateAndCommit('WalletType without protected_rsa');
    const unbumped = await npmRun('spec:check');
    expect(unbumped.code, unbumped.output).toBe(1);
    expect(unbumped.output).toMatch(new RegExp(`FAIL channels: \\d+ change\\(s\\) since openapi/releases/channels\\.yaml but info\\.version is still ${released.version.replaceAll('.', '\\.')}`));
    expect(unbumped.output).toMatch(/POST \/wallets \(createWallet\).* `WalletType`: Enum of `WalletType` lost values: 'protected_rsa'/);

    const releaseBefore = read('openapi/releases/channels.yaml');
    const refused = await npmRun('spec:release', '--api', 'channels');
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toMatch(/spec:release: REFUSED channels: \d+ change\(s\) since openapi\/releases\/channels\.yaml but info\.version is still/);
    expect(read('openapi/releases/channels.yaml')).toBe(releaseBefore);
  }, 120_000);

  it('(b) with the major bump, its changelog section and its release file, it passes', async () => {
    const major = `${released.major + 1}.0.0`;
    setChannelsVersion(major);
    await generateAndCommit(`channels ${major}`);
    // The release file needs the changelog section first.
    const early = await npmRun('spec:release', '--api', 'channels');
    expect(early.code, early.output).toBe(1);
    expect(early.output).toContain(`has no section "## channels ${major} (<date>)"`);

    const changelog = await npmRun('spec:changelog', '--api', 'channels', '--date', '2026-12-01');
    expect(changelog.code, changelog.output).toBe(0);
    const section = read('CHANGELOG.md').split(/^(?=## )/m).find((block) => block.startsWith(`## channels ${major} (2026-12-01)`));
    expect(section).toContain(`Changes since ${released.version}.`);
    expect(section).toMatch(/### Breaking\n- .*`WalletType`: Enum of `WalletType` lost values: 'protected_rsa'/);

    // The code still lists the removed wallet type: the gate refuses until it is written.
    const broken = await npmRun('spec:release', '--api', 'channels');
    expect(broken.code, broken.output).toBe(1);
    expect(broken.output).toContain('REFUSED the type-check fails');
    edit('src/sandbox/channels/model.ts', (text) => text.replace(", 'protected_rsa']", ']'));

    const release = await npmRun('spec:release', '--api', 'channels');
    expect(release.code, release.output).toBe(0);
    expect(readRelease('channels', clone)).toMatchObject({ version: major, body: read('generated/openapi/channels.yaml') });
    git(clone, 'add', '-A');
    git(clone, 'commit', '-q', '-m', `channels ${major}: changelog and release file`);

    const check = await npmRun('spec:check');
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain(`spec:check: channels ${major}: no change since openapi/releases/channels.yaml.`);
    const publish = await npmRun('spec:check', '--api', 'channels', '--tag', `channels@${major}`);
    expect(publish.code, publish.output).toBe(0);
  }, 120_000);

  it('(c) a minor addition with a minor bump passes; publishing it needs its release file', async () => {
    const minor = `${released.major + 1}.1.0`;
    edit('openapi/channels/components/schemas/Channel.yaml', (text) => {
      const doc = parseDocument(text);
      doc.setIn(['properties', 'labels'], doc.createNode({ type: 'array', items: { type: 'string' }, description: 'Free-form labels; absent when none were set.' }));
      return doc.toString({ lineWidth: 0 });
    });
    setChannelsVersion(minor);
    await generateAndCommit(`channels ${minor}: Channel.labels`);

    const check = await npmRun('spec:check');
    expect(check.code, check.output).toBe(0);
    expect(check.output).toMatch(new RegExp(`channels ${released.major + 1}\\.0\\.0 -> ${minor.replaceAll('.', '\\.')}: \\d+ change\\(s\\) since openapi/releases/channels\\.yaml, needing a minor bump; got minor\\.`));
    expect(check.output).toContain(`channels ${minor}: not released yet`);

    const publish = await npmRun('spec:check', '--api', 'channels', '--tag', `channels@${minor}`);
    expect(publish.code, publish.output).toBe(1);
    expect(publish.output).toContain(`FAIL channels ${minor}: generated/openapi/channels.yaml is not its release`);
    expect(publish.output).toContain(`FAIL tag channels@${minor}: openapi/releases/channels.yaml holds channels ${released.major + 1}.0.0, not ${minor}.`);
  }, 120_000);
});
