import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/** The README's first command: the main job against its own mocks, every step passing, the mocks stopped. */
it('npm start walks through every API and exits 0', async () => {
  const { stdout } = await run(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/start.ts'], {
    cwd: root,
    timeout: 120_000,
  });
  const steps = stdout.split('\n').filter((line) => /^\s+[✓✗] /.test(line));
  expect(steps.filter((line) => line.includes('✗'))).toEqual([]);
  for (const step of ['list networks', 'create a wallet', 'create a channel', 'draft operation', 'create a chain query', 'latest report', 'decode it', 'bulk reports', 'a page of reports', 'request an evaluation', 'read its status', 'transactions of the last 7 days']) {
    expect(steps.some((line) => line.includes(step)), `step "${step}"`).toBe(true);
  }
  expect(stdout).toMatch(/a stateless mock/);
  expect(stdout).toMatch(/Done in \d+\.\d s\./);
}, 150_000);
