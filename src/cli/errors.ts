import { SdkError } from '../core/sdk-error.js';

/**
 * Bad usage of the command line, found before any request is sent: an
 * unknown API, operation or flag, a missing or malformed value. Exit code 2.
 * The message names the flag and what was expected; it never quotes a
 * credential flag's value.
 */
export class CliUsageError extends SdkError {
  override name = 'CliUsageError';
  /** Help to print after the message (the command's usage), when there is some. */
  readonly usage: string | undefined;
  constructor(message: string, usage?: string) {
    super(message);
    this.usage = usage;
  }
}

/** A profile file others can read, or one that is not valid: the CLI refuses it (exit 2). */
export class CliProfileError extends CliUsageError {
  override name = 'CliProfileError';
}

/** The exit codes the command line documents. */
export const EXIT = Object.freeze({ ok: 0, apiError: 1, usage: 2, noAnswer: 3, waitTimeout: 4, interrupted: 130 });
