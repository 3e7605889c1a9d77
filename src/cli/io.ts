/**
 * What the command line reads and writes, passed in rather than taken from
 * `process`: the bin hands over the real streams, and tests run many
 * commands in one process with their own.
 */
import { visible } from './terminal-text.js';

export interface CliOutput {
  write(chunk: string): boolean;
  /** True on a terminal: pretty JSON on stdout, a progress line on stderr. */
  readonly isTTY?: boolean | undefined;
  /** A terminal's width in columns: tables fit it (src/cli/output.ts). */
  readonly columns?: number | undefined;
  /** Node streams emit 'drain' after a write returned false (backpressure for `--all`). */
  once?(event: 'drain', listener: () => void): unknown;
}

export interface CliIo {
  readonly argv: readonly string[];
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Read whole for `--data @-`. */
  readonly stdin?: AsyncIterable<Uint8Array | string> | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C: the command stops cleanly and exits 130. */
  readonly signal?: AbortSignal | undefined;
  /** The user's home directory (profiles live under its config directory). */
  readonly homeDir?: string | undefined;
  /** The working directory `--data @file` is read from. Default `process.cwd()`. */
  readonly cwd?: string | undefined;
}

/**
 * One message line (an error, a warning, a status): its control characters
 * escaped, so a value it quotes from a server or a file cannot split it or
 * act on the terminal (src/cli/terminal-text.ts).
 */
export function writeMessage(out: CliOutput, text: string): void {
  out.write(`${visible(text)}\n`);
}

/** Writes a line and waits for the stream to drain when it is full, so `--all` holds one page at most. */
export async function writeLine(out: CliOutput, line: string): Promise<void> {
  if (out.write(`${line}\n`) || out.once === undefined) return;
  await new Promise<void>((resolve) => out.once!('drain', resolve));
}

/** All of standard input as text (for `--data @-` and a credential given as `-`). */
export async function readAllStdin(stdin: NonNullable<CliIo['stdin']>): Promise<string> {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  return chunks.join('') + decoder.decode();
}
