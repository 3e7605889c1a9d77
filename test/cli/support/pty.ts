// The bin under a real pseudo-terminal: util-linux `script` runs it with
// stdin, stdout and stderr on one terminal of a set width, so what the
// command does on a TTY (tables fitted to the window, colour) is seen as a
// user sees it. The terminal's output comes back with its line ends as
// `\n` (a terminal turns each `\n` into `\r\n`).
import { spawn } from 'node:child_process';
import { BIN, ROOT, track } from './bin-process.js';

/** One word for the shell `script` runs, single-quoted. */
const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface PtyRun {
  code: number | null;
  /** stdout and stderr as the terminal showed them, `\r\n` as `\n`. */
  output: string;
}

/** Runs `service-sdk <args>` on a terminal `columns` wide, with a bare environment plus `env`. */
export function onTerminal(args: readonly string[], env: Record<string, string> = {}, columns = 100): Promise<PtyRun> {
  const command = `stty cols ${columns} rows 50; exec ${[process.execPath, '--import', 'tsx', BIN, ...args].map(quoted).join(' ')}`;
  const child = track(
    spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: '/nonexistent', TERM: 'xterm', ...env }, stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  child.stdin.end();
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output: output.replace(/\r\n/g, '\n') })));
}
