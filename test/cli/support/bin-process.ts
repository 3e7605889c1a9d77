// The command line as real processes (node with tsx, as the bin runs after
// the build): start one, collect its output, and wait on what it prints (a
// line on stdout or stderr) rather than on the clock. Every process started
// is killed after its test if it is still running.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BIN = join(ROOT, 'src', 'cli', 'bin.ts');

const started: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts `service-sdk <args>` (or another script) with a bare environment plus `env`. */
export function start(args: readonly string[], env: Record<string, string> = {}, bin = BIN): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: '/nonexistent', ...env } });
  started.push(child);
  return child;
}

/** Registers a process started some other way (bash running the bin) for the same clean-up. */
export function track(child: ChildProcessWithoutNullStreams): ChildProcessWithoutNullStreams {
  started.push(child);
  return child;
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything the process prints, and its exit code once it has closed. */
export function finish(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The first line on `stream` that matches `pattern` (rejects if the process exits first). */
export function lineOn(child: ChildProcessWithoutNullStreams, stream: 'stdout' | 'stderr', pattern: RegExp = /./): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) {
        child[stream].off('data', onData);
        resolve(found);
      }
    };
    child[stream].on('data', onData);
    child.once('close', () => reject(new Error(`exited before printing a line matching ${pattern} on ${stream}`)));
  });
}

/** The first line on stdout. */
export function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return lineOn(child, 'stdout');
}
