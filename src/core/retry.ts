import { ConfigurationError } from './errors.js';
import { describe } from './options.js';
import { startTimer } from './timer.js';

/**
 * Retry policy: which answers are worth another attempt, and how long to wait.
 * Exponential backoff with full jitter (a uniformly random delay between 0 and
 * the exponential cap) spreads retrying clients apart; a `Retry-After` header
 * from the service wins over our own schedule.
 */

export interface RetryOptions {
  /** Further attempts after the first one. Default 2 (so at most 3 requests). `0` disables retries. */
  retries?: number;
  /** Cap of the first backoff delay, in ms. Default 300. Doubles each attempt. */
  baseDelayMs?: number;
  /** Largest backoff delay, in ms. Default 5,000. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the SDK will wait, in ms. Default 60,000. A longer
   * one (or one beyond the call's `deadlineMs`) is not waited out: the
   * 429/503 is returned to the caller.
   */
  maxRetryAfterMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

/**
 * The retry settings a client uses when given no `retry` option: 2 retries
 * (at most 3 requests), backoff capped at 300 ms doubling to 5 s with full
 * jitter, and a `Retry-After` of up to 60 s waited out. Frozen.
 */
export const DEFAULT_RETRY: ResolvedRetryOptions = Object.freeze({
  retries: 2,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
});

/** Statuses that say "try again later": rate limits and transient server failures. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Methods whose repetition cannot do anything twice. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * A request may be re-sent when its method is idempotent, or when its JSON
 * body carries one of the service's deduplication keys (so the service
 * recognises the repeat and does the work once).
 */
export function isSafeToRetry(method: string, bodyText: string | undefined, dedupKeys: readonly string[]): boolean {
  if (IDEMPOTENT_METHODS.has(method)) return true;
  if (bodyText === undefined || dedupKeys.length === 0) return false;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return false;
  }
  if (body === null || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  return dedupKeys.some((key) => {
    const value = record[key];
    return (typeof value === 'string' && value.length > 0) || typeof value === 'number';
  });
}

/** Most retries a client may ask for: more only hammers a failing service. */
const MAX_RETRIES = 10;

/**
 * The retry settings of a client: `undefined` (the defaults), `false` (no
 * retries) or an object of known settings. Anything else, an unknown
 * setting or a fractional count included, is a ConfigurationError: a typo
 * must not silently become the defaults.
 */
export function resolveRetryOptions(retry: unknown): ResolvedRetryOptions {
  if (retry === undefined) return DEFAULT_RETRY;
  if (retry === false) return { ...DEFAULT_RETRY, retries: 0 };
  if (retry === null || typeof retry !== 'object' || Array.isArray(retry)) {
    throw new ConfigurationError('retry', `expected an object of retry settings, or false for none; got ${describe(retry)}`);
  }
  const known = Object.keys(DEFAULT_RETRY);
  for (const key of Object.keys(retry)) {
    if (!known.includes(key)) throw new ConfigurationError('retry', `unknown setting \`${key.slice(0, 40)}\` (known: ${known.join(', ')})`);
  }
  const resolved = { ...DEFAULT_RETRY, ...(retry as RetryOptions) };
  const { retries } = resolved;
  if (typeof retries !== 'number' || !Number.isInteger(retries) || retries < 0 || retries > MAX_RETRIES) {
    throw new ConfigurationError('retry', `retries: expected a whole number from 0 to ${MAX_RETRIES}, got ${describe(retries)}`);
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    const value = resolved[key];
    const finiteNeeded = key === 'baseDelayMs';
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (finiteNeeded && !Number.isFinite(value))) {
      const expected = finiteNeeded ? 'a finite number of ms >= 0' : 'a number of ms >= 0 (or Infinity for no limit)';
      throw new ConfigurationError('retry', `${key}: expected ${expected}, got ${describe(value)}`);
    }
  }
  return resolved;
}

/** Full-jitter backoff for the retry after attempt number `attempt` (0-based). */
export function backoffDelay(attempt: number, options: ResolvedRetryOptions, random: () => number): number {
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * cap);
}

/**
 * `Retry-After` in ms: whole seconds, or an HTTP date (relative to `now`).
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date (RFC 9110: IMF-fixdate, the obsolete RFC 850 and asctime
  // forms) starts with a weekday name; anything else (e.g. "-3", which
  // Date.parse would read as a year) is not a Retry-After we understand.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  // asctime carries no zone and means GMT; Date.parse would read local time.
  const asctime = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(trimmed);
  const date = Date.parse(asctime ? `${trimmed} GMT` : trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = startTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
