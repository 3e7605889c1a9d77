import { deadlineAfter } from './deadline.js';
import { abortableSleep } from './retry.js';
import { ConfigurationError, InvalidResponseBodyError, SdkError } from './errors.js';
import { isRecord } from './shape.js';
import { describe, durationOption } from './options.js';

/** Options every wait takes: the pause between reads and how it grows, the overall limit, a signal, and a status callback. */
export interface PollOptions<S extends string> {
  /** First wait between two reads, in ms. Default 1,000. */
  intervalMs?: number;
  /** Each wait is the previous one times this. Default 1.5. */
  backoff?: number;
  /** Longest wait between two reads, in ms. Default 10,000. */
  maxIntervalMs?: number;
  /** Give up after this many ms in all. Default 300,000 (5 minutes); `Infinity` waits without limit. */
  timeoutMs?: number;
  /** Stops the wait at once (rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Called with each new status, the first one included. */
  onStatus?: (status: S, previous: S | undefined) => void;
}

export const DEFAULT_POLL = Object.freeze({ intervalMs: 1_000, backoff: 1.5, maxIntervalMs: 10_000, timeoutMs: 300_000 });

/** Longest reason quoted in a message; the whole one stays in `reason`. */
const MAX_REASON_IN_MESSAGE = 300;

/**
 * The resource reached a status it can never leave, and not the one waited
 * for. Each wait throws its own subclass (`EvaluationFailedError`,
 * `OperationFailedError`, …), whose `resource` is typed as what it waited on.
 */
export class PollFailedError<R = unknown, S extends string = string> extends SdkError {
  override name = 'PollFailedError';
  readonly status: S;
  readonly resource: R;
  /**
   * The service's own explanation, where the resource has one (an
   * evaluation's `reason`, a status event's `status_reason`); for display and
   * logs, not for parsing. `undefined` when the service gave none.
   */
  readonly reason: string | undefined;
  constructor(what: string, status: S, resource: R, reason?: string | null) {
    const given = typeof reason === 'string' && reason !== '' ? reason : undefined;
    const quoted = given === undefined ? '' : `: ${given.length > MAX_REASON_IN_MESSAGE ? `${given.slice(0, MAX_REASON_IN_MESSAGE)}…` : given}`;
    super(`${what} ended in status \`${status}\`${quoted}`);
    this.status = status;
    this.resource = resource;
    this.reason = given;
  }
}

/** The wait took longer than its `timeoutMs`. Holds the last status seen. */
export class PollTimeoutError<R = unknown, S extends string = string> extends SdkError {
  override name = 'PollTimeoutError';
  readonly lastStatus: S | undefined;
  readonly lastResource: R | undefined;
  constructor(what: string, timeoutMs: number, lastStatus: S | undefined, lastResource: R | undefined) {
    super(`${what} did not settle within ${timeoutMs} ms (last status: ${lastStatus ?? 'none'})`);
    this.lastStatus = lastStatus;
    this.lastResource = lastResource;
  }
}

export interface PollSpec<R, S extends string> {
  /** Named in errors, e.g. `operation 3fa8…`. */
  what: string;
  /** Reads the resource once (throws on an API error, which ends the wait). */
  read: (signal: AbortSignal | undefined) => Promise<R>;
  statusOf: (resource: R) => S;
  /** Resolve with the resource when true. */
  isDone: (status: S) => boolean;
  /** Throw PollFailedError when true (checked after `isDone`). */
  isFailed: (status: S) => boolean;
  /** The error for a failure status; default a plain PollFailedError. */
  failure?: (what: string, status: S, resource: R) => PollFailedError<R, S>;
  /** `METHOD /path` of the read, named when its answer has no status. */
  operation?: string;
}

/**
 * Reads a resource until its status is done or failed, waiting between reads
 * with a growing interval, within a time limit. Generic over the resource so
 * every asynchronous flow of every API uses this one loop.
 */
export async function pollUntil<R, S extends string>(spec: PollSpec<R, S>, options: PollOptions<S> = {}): Promise<R> {
  const intervalMs = intervalOption('intervalMs', options.intervalMs ?? DEFAULT_POLL.intervalMs);
  const maxIntervalMs = intervalOption('maxIntervalMs', options.maxIntervalMs ?? DEFAULT_POLL.maxIntervalMs);
  const timeoutMs = durationOption('timeoutMs', options.timeoutMs ?? DEFAULT_POLL.timeoutMs);
  const backoff = options.backoff ?? DEFAULT_POLL.backoff;
  if (typeof backoff !== 'number' || !(backoff >= 1) || !Number.isFinite(backoff)) {
    throw new ConfigurationError('backoff', `expected a finite number >= 1, got ${describe(backoff)}`);
  }
  const deadline = Date.now() + timeoutMs;
  let wait = intervalMs;
  let previous: S | undefined;
  let last: R | undefined;

  for (;;) {
    options.signal?.throwIfAborted();
    last = await readBefore(deadline, options.signal, spec.read, () => new PollTimeoutError(spec.what, timeoutMs, previous, last));
    const status = isRecord(last) ? spec.statusOf(last) : undefined;
    if (typeof status !== 'string') throw new InvalidResponseBodyError(spec.operation, `a body without a status while waiting for ${spec.what}`);
    if (status !== previous) {
      options.onStatus?.(status, previous);
      previous = status;
    }
    if (spec.isDone(status)) return last;
    if (spec.isFailed(status)) throw spec.failure?.(spec.what, status, last) ?? new PollFailedError(spec.what, status, last);

    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new PollTimeoutError(spec.what, timeoutMs, previous, last);
    await abortableSleep(Math.min(wait, remaining), options.signal);
    wait = Math.min(maxIntervalMs, wait * backoff);
  }
}

/** The wait between two reads: a finite duration (a read must come eventually). */
export function intervalOption(option: string, value: unknown): number {
  const ms = durationOption(option, value);
  if (!Number.isFinite(ms)) throw new ConfigurationError(option, 'expected a finite number of milliseconds');
  return ms;
}

/**
 * Runs one read of a wait with a signal that aborts when the caller's does or
 * when the wait's `deadline` passes, so a hung request cannot outlast the
 * wait (the client's own timeout and retries could take much longer). A read
 * cut short by the deadline rejects with `timeoutError()`.
 */
export async function readBefore<T>(
  deadline: number,
  signal: AbortSignal | undefined,
  read: (signal: AbortSignal) => Promise<T>,
  timeoutError: () => Error,
): Promise<T> {
  const bound = deadlineAfter(signal, deadline - Date.now(), timeoutError);
  try {
    return await read(bound.signal);
  } catch (error) {
    if (bound.timedOut()) throw bound.signal.reason;
    throw error;
  } finally {
    bound.clear();
  }
}
