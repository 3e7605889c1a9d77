// The README's "Test your code offline" example is a user's test file: it is
// taken from the README as written, its package imports pointed at the
// sources, and run by vitest in a child process, so the example cannot rot.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { entrySource } from '../support/user-modules.js';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/** The first TypeScript block of a README section. */
function exampleOf(heading: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}\n`));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (block === null || readme.indexOf(`## ${heading}\n`) < 0) throw new Error(`README has no TypeScript example under "${heading}"`);
  return block[1]!;
}

it("the README's offline example runs and its tests pass", async () => {
  const source = exampleOf('Test your code offline').replace(/'@ourteam\/service-sdk\/([a-z-]+)'/g, (_match, entry: string) => {
    return JSON.stringify(entrySource(entry));
  });
  const dir = join(root, 'test-results', 'readme-offline');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'offline.test.ts'), source);
  writeFileSync(join(dir, 'vitest.config.mjs'), 'export default { test: { include: ["offline.test.ts"] } };\n');
  const report = join(dir, 'report.json');
  await exec(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--reporter=json', `--outputFile=${report}`], {
    cwd: dir,
    timeout: 90_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`the example failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  const results = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numTotalTests: number };
  expect(results.numFailedTests).toBe(0);
  // The payout, the counted retry, the seed, the frozen clock: an example lost from the README fails here.
  expect(results.numTotalTests).toBeGreaterThanOrEqual(4);
  expect(results.numPassedTests).toBe(results.numTotalTests);
}, 120_000);
