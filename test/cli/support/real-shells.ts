// Real shells for the completion tests: whether one is installed (the tests
// skip, saying how to install it, when it is not; .ci/run installs zsh and
// fish), and a run of one that cannot outlive its test: it starts in a
// process group of its own (zsh's pseudo-terminals start shells of their
// own), which is killed once it closes or after a deadline.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { ROOT } from './bin-process.js';

export type Shell = 'zsh' | 'fish';

const INSTALL_HINT = 'apt-get update && apt-get install -y zsh fish';

/** The shell's path, when it is installed. */
export function shellPath(shell: Shell): string | undefined {
  return ['/usr/bin', '/bin', '/usr/local/bin'].map((dir) => `${dir}/${shell}`).find((path) => existsSync(path));
}

/** `describe` for tests that need `shell`: skipped with the reason and how to install it when it is missing. */
export function describeWithShell(shell: Shell, name: string, body: (path: string) => void): void {
  const path = shellPath(shell);
  if (path !== undefined) {
    describe(name, () => body(path));
    return;
  }
  describe(name, () => {
    it(`runs in ${shell}`, (context) => {
      const message = `${shell} is not installed, so its completion test is skipped; install it with: ${INSTALL_HINT}`;
      console.warn(message); // the default reporter does not print skip notes
      context.skip(message);
    });
  });
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `path args…` in the checkout with `env` only; the whole process group is killed when it closes, or at `deadlineMs`. */
export function runShell(path: string, args: readonly string[], env: Record<string, string>, deadlineMs = 30_000): Promise<ShellRun> {
  const child = spawn(path, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  };
  const deadline = setTimeout(killGroup, deadlineMs);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(deadline);
      killGroup();
      resolve({ code, stdout, stderr });
    }),
  );
}

/** `<line>|<candidates>` lines as [line, candidates sorted] pairs (each shell orders its candidates its own way). */
export function candidatesByLine(stdout: string): [string, string[]][] {
  return stdout
    .split('\n')
    .filter((row) => row.includes('|'))
    .map((row) => {
      const bar = row.lastIndexOf('|');
      const candidates = row.slice(bar + 1).split(/\s+/).filter((word) => word !== '');
      return [row.slice(0, bar), candidates.sort()];
    });
}
