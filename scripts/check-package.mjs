#!/usr/bin/env node
// `npm run check:package`: the package as users install it.
//
// Builds, packs once into a temporary folder, and checks that very tarball:
// - publint (strict: warnings count as errors; any message at all fails);
// - @arethetypeswrong/cli with the `esm-only` profile: the package ships ESM
//   only, so attw's node10 and "node16 from CJS" resolutions are out of scope
//   (Node >= 20.19, our `engines`, can `require()` it anyway);
// - no emitted .d.ts needs @types/node (a browser user has none);
// then prints the packed file list, the file count and the sizes.
//
// Exit code 0 when nothing is reported, 1 otherwise.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const attwBin = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');

const problems = [];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result;
}

function section(title) {
  console.log(`\n== ${title}`);
}

function kB(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

const tmp = mkdtempSync(join(tmpdir(), 'sdk-check-package-'));
try {
  section('build');
  if (run(npm, ['run', 'build']).status !== 0) {
    console.error('error: npm run build failed');
    process.exit(1);
  }

  section('pack');
  const packed = run(npm, ['pack', '--json', '--pack-destination', tmp], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (packed.status !== 0) {
    console.error('error: npm pack failed');
    process.exit(1);
  }
  const [info] = JSON.parse(String(packed.stdout));
  const tarball = join(tmp, info.filename);
  console.log(tarball);

  section('publint --strict');
  // publint packs by itself with npm (as `npx publint --strict` does): only
  // that mode also tells files that exist from files that are published.
  const { messages, pkg } = await publint({ pkgDir: root, strict: true, level: 'suggestion', pack: 'npm' });
  for (const message of messages) {
    const text = `publint ${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`;
    console.log(text);
    problems.push(text);
  }
  if (messages.length === 0) console.log('publint: no message');

  section('attw --profile esm-only');
  const attw = run(process.execPath, [attwBin, tarball, '--profile', 'esm-only', '--no-color']);
  if (attw.status !== 0) problems.push(`attw exited with code ${attw.status}`);

  section('declarations need no @types/node');
  const nodeOnly = [/\/\/\/\s*<reference\s+types="node"/, /\bNodeJS\./, /\bBuffer\b/, /from ['"]node:/];
  for (const file of info.files) {
    if (!file.path.endsWith('.d.ts')) continue;
    const text = readFileSync(join(root, file.path), 'utf8');
    for (const pattern of nodeOnly) {
      if (pattern.test(text)) problems.push(`${file.path} matches ${pattern}: it would need @types/node`);
    }
  }
  console.log(problems.some((p) => p.includes('@types/node')) ? 'found (see below)' : 'none found');

  section(`packed files (${info.entryCount})`);
  for (const file of [...info.files].sort((a, b) => a.path.localeCompare(b.path))) {
    console.log(`${kB(file.size).padStart(10)}  ${file.path}`);
  }
  console.log(`\n${info.name}@${info.version}: ${info.entryCount} files, tarball ${kB(info.size)}, unpacked ${kB(info.unpackedSize)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s):`);
  for (const p of problems) console.error(`- ${p}`);
  process.exit(1);
}
console.log('\npackage check: no problem reported');
