import { SdkError } from '../../core/errors.js';

/**
 * The service refused the stream's credentials: a `401` or `403` answer to
 * the WebSocket upgrade or to the signed `HEAD /` that lists the origins.
 * A wrong key or secret, a clock more than a few seconds off, or a key that
 * may not stream these feeds. Never retried: the same request would be
 * refused again.
 */
export class ReportStreamAuthError extends SdkError {
  override name = 'ReportStreamAuthError';
  readonly status: 401 | 403;
  /** The origin that refused, or `undefined` when the origins request did. */
  readonly origin: string | undefined;
  constructor(status: 401 | 403, origin: string | undefined) {
    const where = origin === undefined ? 'the origins request (HEAD /)' : `the WebSocket upgrade (origin ${origin})`;
    super(
      `${where} was refused with ${status}: check the API key, the secret and the clock` +
        (status === 403 ? ', and that the key may stream these feeds' : ''),
    );
    this.status = status;
    this.origin = origin;
  }
}

/**
 * This runtime has no WebSocket that can send the signed headers the service
 * requires: browsers and web workers (their WebSocket takes no headers),
 * Vercel's Edge Runtime, a Worker bundled without the `workerd` condition,
 * or a Node install where the `ws` package cannot be loaded; the message says
 * which. Pass `webSocket` with a constructor that accepts `{ headers }`
 * (Bun's and Deno's do).
 */
export class ReportStreamUnsupportedError extends SdkError {
  override name = 'ReportStreamUnsupportedError';
  constructor(problem: string, options?: { cause?: unknown }) {
    super(`cannot open a report stream here: ${problem}`, options);
  }
}

/** With `overflow: 'error'`: the consumer fell `bufferSize` reports behind. */
export class ReportStreamOverflowError extends SdkError {
  override name = 'ReportStreamOverflowError';
  readonly bufferSize: number;
  constructor(bufferSize: number) {
    super(`the consumer fell behind: ${bufferSize} reports were waiting (overflow: 'error')`);
    this.bufferSize = bufferSize;
  }
}

/**
 * Why a message was skipped:
 * - `not_json`: the text is not JSON;
 * - `not_a_report`: JSON, but not `{report: {feedID, validFromTimestamp, observationsTimestamp, fullReport}}` with those types;
 * - `unexpected_feed`: a report of a stream the stream was not opened for (live), or not the one asked for (backfill);
 * - `envelope_mismatch`: the message's unsigned `feedID` or timestamps differ from those signed inside `fullReport`;
 * - `from_the_future`: observed later than now plus `maxFutureMs`;
 * - `outside_gap`: a backfilled report outside the gap it was asked to fill;
 * - `too_large`: a message over `maxMessageBytes` (the connection is dropped, reopened and the gap filled);
 * - `undecodable`: with `decode: true`, `fullReport` does not decode (`cause` is the ReportDecodeError);
 * - `unverified`: with `verify`, the report's signatures are not those of its oracle network configuration (the message gives `verifyReport`'s reason).
 */
export type ReportStreamMessageProblem =
  | 'not_json'
  | 'not_a_report'
  | 'unexpected_feed'
  | 'envelope_mismatch'
  | 'from_the_future'
  | 'outside_gap'
  | 'too_large'
  | 'undecodable'
  | 'unverified';

/**
 * A message that is not a usable report. Not thrown: it is passed to
 * `onStatus` (`message-skipped`) and the stream goes on with the next one.
 */
export class ReportStreamMessageError extends SdkError {
  override name = 'ReportStreamMessageError';
  readonly problem: ReportStreamMessageProblem;
  /** Where the message came from: an origin, or `rest` for a backfilled report. */
  readonly source: string;
  constructor(problem: ReportStreamMessageProblem, source: string, detail: string, options?: { cause?: unknown }) {
    super(`skipped a message from ${source} (${problem}): ${detail}`, options);
    this.problem = problem;
    this.source = source;
  }
}

/** Every origin failed to connect `maxAttempts` times in a row (only with a finite `reconnect.maxAttempts`). */
export class ReportStreamConnectionError extends SdkError {
  override name = 'ReportStreamConnectionError';
  readonly attempts: number;
  constructor(attempts: number, options?: { cause?: unknown }) {
    super(`no origin could be reached after ${attempts} attempts each`, options);
    this.attempts = attempts;
  }
}
