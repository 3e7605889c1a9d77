// examples/*.ts run as a user would run them, with one command each
// (`npm run example -- <api>`), against the offline sandbox: every flow of
// each example reaches its end.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

async function example(name: string): Promise<string> {
  const { stdout } = await exec(process.execPath, [tsx, 'scripts/run-example.ts', name], { cwd: root, timeout: 90_000 });
  return stdout;
}

describe('npm run example -- <api>', () => {
  it('channels: a draft signed, finalized and followed to confirmed', async () => {
    const stdout = await example('channels');
    expect(stdout).toMatch(/^networks: Ethereum Sepolia/m);
    expect(stdout).toMatch(/^operation [0-9a-f-]{36} is accepted$/m);
    expect(stdout).toMatch(/^ {2}status: confirmed$/m);
    expect(stdout).toMatch(/^confirmed at \d{4}-\d\d-\d\dT/m);
  }, 120_000);

  it('streams: the latest report decoded, a bulk read, a page walk', async () => {
    const stdout = await example('streams');
    expect(stdout).toMatch(/^ETH\/USD \d+(\.\d+)? USD at \d{4}-\d\d-\d\dT/m);
    expect(stdout).toMatch(/^2 reports$/m);
    expect(stdout.match(/^report observed at /gm)).toHaveLength(3);
  }, 120_000);

  it('policy: an evaluation to ready, with one base URL', async () => {
    const stdout = await example('policy');
    expect(stdout).toMatch(/^ {2}status: ready$/m);
    expect(stdout).toMatch(/^permit ready: submit the transaction$/m);
    expect(stdout).toMatch(/^policy engine: /m);
  }, 120_000);

  it('an unknown example is refused with exit code 2', async () => {
    await expect(example('payments')).rejects.toMatchObject({ code: 2 });
  }, 60_000);
});
