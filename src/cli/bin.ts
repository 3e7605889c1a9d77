#!/usr/bin/env node
/**
 * `service-sdk`: the command line (src/cli/main.ts). Ctrl-C aborts the
 * running command, which stops cleanly with its output whole to the last line
 * and exits 130; a second Ctrl-C exits at once.
 */
import { homedir } from 'node:os';
import { runCli } from './main.js';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort(new Error('interrupted'));
});
// A reader that closes the pipe early (`| head`) ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const code = await runCli({
  argv: process.argv.slice(2),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: interrupt.signal,
  homeDir: homedir(),
  cwd: process.cwd(),
});
// Exit once stdout has flushed: keep-alive sockets must not hold the process.
process.stdout.write('', () => process.exit(code));
