// The README's first command: `npm start` runs every flow against the offline
// sandbox, and each one reaches its terminal state.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

async function start(args: string[] = []): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [tsx, 'scripts/start.ts', ...args], { cwd: root, timeout: 120_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

const stepLine = (stdout: string, title: string) => stdout.split('\n').find((line) => /^\s+[✓✗] /.test(line) && line.includes(title));

describe('npm start', () => {
  it('runs every flow of the three APIs to its end, with no failed step', async () => {
    const { stdout, code } = await start();
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((line) => /^\s+✗ /.test(line))).toEqual([]);
    expect(stepLine(stdout, 'wait until confirmed (polling)')).toMatch(/confirmed$/);
    expect(stdout).toMatch(/accepted \d+ ms → sending .* → confirmed_latest .* → confirmed_safe .* → confirmed \d/);
    expect(stepLine(stdout, 'draft → sign → finalize')).toMatch(/is accepted$/);
    expect(stepLine(stdout, 'wait for its confirmed event')).toMatch(/operation\.status → confirmed/);
    expect(stepLine(stdout, 'wait until completed')).toMatch(/completed/);
    expect(stepLine(stdout, 'archive it, wait until archived')).toMatch(/archived$/);
    expect(stepLine(stdout, "the channel's operations, one per page")).toMatch(/2 operations over 2 pages/);
    expect(stepLine(stdout, 'latest ETH/USD report')).toMatch(/ETH\/USD [\d,]+(\.\d+)? USD \(V3\) at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect(stepLine(stdout, 'the last minute of reports')).toMatch(/60 reports over 3 pages/);
    expect(stepLine(stdout, 'live over WebSocket for 3 s, origin 001 dropped')).toMatch(/\b[1-9]\d* reports, \d+ duplicates dropped, no gap; origin lost [1-9]×/);
    expect(stepLine(stdout, 'wait until ready')).toMatch(/ready$/);
    expect(stdout).toMatch(/evaluating \d+ ms → approving .* → ready /);
    expect(stepLine(stdout, 'policy engines, one per page')).toMatch(/over [2-9] pages/);
    expect(stdout).not.toMatch(/mock|cannot/i);
    // The sandbox's made-up credentials stay out of the output all the same.
    expect(stdout).not.toMatch(/sandbox_[0-9a-f]{32}/);
    expect(stdout).toMatch(/Done in \d+(\.\d)? s\./);
  }, 150_000);

  it('--api streams runs the streams flows only', async () => {
    const { stdout, code } = await start(['--api', 'streams']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^streams:$/m);
    expect(stdout).not.toMatch(/^(channels|policy):$/m);
  }, 60_000);

  it('an unknown API is refused with exit code 2', async () => {
    const { stderr, code } = await start(['--api', 'payments']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown API "payments"/);
  }, 60_000);
});
