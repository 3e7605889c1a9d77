import { loggingOf } from './client.js';
import { deadlineAfter } from './deadline.js';
import { abortableSleep } from './retry.js';
import { ConfigurationError, InvalidResponseBodyError, SdkError, UnknownStatusError } from './errors.js';
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
  /**
   * What to do with a status this version of the SDK does not know (the
   * service added it later): `'throw'` (the default) ends the wait at once
   * with UnknownStatusError naming the status; `'wait'` keeps polling, as for
   * a status still in progress, until a known final status or the time limit.
   * Either way the client's logger (if any) warns, once per such status.
   */
  onUnknownStatus?: UnknownStatusChoice;
}

/** See `PollOptions.onUnknownStatus`. */
export type UnknownStatusChoice = 'throw' | 'wait';

export { UnknownStatusError };

/**
 * What a status means to a wait (`x-status-kinds` in the spec): it can still
 * change (`in_progress`), or it is final and what was asked for happened
 * (`succeeded`) or never will (`failed`).
 */
export type StatusKind = 'in_progress' | 'succeeded' | 'failed';

/**
 * A resource as the service sends it, with its `status` open (a generated
 * `openEnums` type): the service may add a status this SDK does not know.
 */
export type WithOpenStatus<R extends { status: string }, S extends string> = Omit<R, 'status'> & { status: S };

/** True when `status` is one of those `kinds` classifies (one this version of the SDK knows). */
export function isKnownStatus<S extends string>(kinds: Readonly<Record<S, StatusKind>>, status: string): status is S {
  return Object.hasOwn(kinds, status);
}

/** The statuses `kinds` gives `kind`, in its order. */
export function statusesOfKind<S extends string>(kinds: Readonly<Record<S, StatusKind>>, kind: StatusKind): readonly S[] {
  return Object.freeze((Object.keys(kinds) as S[]).filter((status) => kinds[status] === kind));
}

/**
 * Warns through the client's logger (its `logger` option or `SERVICE_SDK_LOG`,
 * at level `warn` or below) that a wait read a status the SDK does not know,
 * and what the wait does about it.
 */
export function warnUnknownStatus(client: object | undefined, what: string, status: string, choice: UnknownStatusChoice): void {
  const logging = client === undefined ? undefined : loggingOf(client);
  if (logging === undefined || logging.level === 'error') return;
  const next = choice === 'wait' ? 'waiting on (onUnknownStatus: wait)' : 'the wait ends with UnknownStatusError';
  logging.logger.warn(`${what} is in status \`${status}\`, which this version of the SDK does not know: ${next}`, { what, status });
}

/** Reads `onUnknownStatus`: `'throw'` unless the caller chose `'wait'`. */
export function unknownStatusOption(value: unknown): UnknownStatusChoice {
  if (value === undefined || value === 'throw' || value === 'wait') return value ?? 'throw';
  throw new ConfigurationError('onUnknownStatus', `expected 'throw' or 'wait', got ${describe(value)}`);
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
  /** False for a status this version of the SDK does not know, which ends the wait (see `PollOptions.onUnknownStatus`). */
  isKnown: (status: S) => boolean;
  /** The client the wait reads with: its logger warns of a status the SDK does not know. */
  client?: object;
  /** The error for a failure status; default a plain PollFailedError. */
  failure?: (what: string, status: S, resource: R) => PollFailedError<R, S>;
  /** `METHOD /path` of the read, named when its answer has no status. */
  operation?: string;
}

/**
 * Reads a resource until its status is done or failed, waiting between reads
 * with a growing interval, within a time limit. A status the SDK does not
 * know ends the wait with UnknownStatusError, unless `onUnknownStatus` is
 * `'wait'`. Generic over the resource so
 * every asynchronous flow of every API uses this one loop.
 */
export async function pollUntil<R, S extends string>(spec: PollSpec<R, S>, options: PollOptions<S> = {}): Promise<R> {
  const intervalMs = intervalOption('intervalMs', options.intervalMs ?? DEFAULT_POLL.intervalMs);
  const maxIntervalMs = intervalOption('maxIntervalMs', options.maxIntervalMs ?? DEFAULT_POLL.maxIntervalMs);
  const timeoutMs = durationOption('timeoutMs', options.timeoutMs ?? DEFAULT_POLL.timeoutMs);
  const onUnknownStatus = unknownStatusOption(options.onUnknownStatus);
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
    const known = spec.isKnown(status);
    if (status !== previous) {
      options.onStatus?.(status, previous);
      previous = status;
      if (!known) warnUnknownStatus(spec.client, spec.what, status, onUnknownStatus);
    }
    if (!known && onUnknownStatus === 'throw') throw new UnknownStatusError(spec.what, status, last);
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
