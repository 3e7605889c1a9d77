import { ConfigurationError } from './errors.js';
import type { AttemptEnd, AttemptObserver } from './observe.js';
import { describe } from './options.js';

/** Where the SDK writes its lines: `console`, or any object with these four methods (pino, winston, …). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** How much the SDK logs: `debug` every attempt, `info` retries too, `warn` failures, `error` nothing yet, `off` nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];
/** The environment variable that turns logging on where the runtime has an environment (Node, Bun, Deno). */
export const LOG_ENVIRONMENT_VARIABLE = 'SERVICE_SDK_LOG';

/** A logger with the level it writes from, or `undefined` when nothing is to be logged. */
export interface LevelledLogger {
  readonly logger: Logger;
  readonly level: LogLevel;
}

/**
 * The client's logging: `logLevel` wins, then `SERVICE_SDK_LOG`, then `info`
 * when a `logger` is given; with neither a logger nor a level, nothing is
 * logged (and nothing costs). A level without a logger writes to `console`.
 */
export function resolveLogging(logger: unknown, logLevel: unknown): LevelledLogger | undefined {
  if (logger !== undefined) {
    const candidate = logger as Partial<Record<keyof Logger, unknown>> | null;
    const missing = (['debug', 'info', 'warn', 'error'] as const).filter((method) => typeof candidate?.[method] !== 'function');
    if (candidate === null || typeof candidate !== 'object' || missing.length > 0) {
      throw new ConfigurationError('logger', `expected an object with debug, info, warn and error methods (console will do); ${missing.length > 0 && candidate !== null && typeof candidate === 'object' ? `missing ${missing.join(', ')}` : `got ${describe(logger)}`}`);
    }
  }
  const level = logLevel === undefined ? environmentLevel() : levelOption('logLevel', logLevel);
  const effective = level ?? (logger === undefined ? 'off' : 'info');
  if (effective === 'off') return undefined;
  return { logger: (logger as Logger | undefined) ?? console, level: effective };
}

function levelOption(option: string, value: unknown): LogLevel {
  if (typeof value === 'string' && (LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new ConfigurationError(option, `expected one of ${LEVELS.join(', ')}, got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 20)) : describe(value)}`);
}

/** `SERVICE_SDK_LOG`, where the runtime has an environment that may be read; `undefined` elsewhere. */
function environmentLevel(): LogLevel | undefined {
  let value: string | undefined;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[LOG_ENVIRONMENT_VARIABLE];
  } catch {
    // Deno without --allow-env throws on reading the environment: no logging then.
    return undefined;
  }
  if (value === undefined || value === '') return undefined;
  return levelOption(LOG_ENVIRONMENT_VARIABLE, value.toLowerCase());
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/**
 * One line per attempt: method, path template, attempt number, status or
 * error class, duration, request ID, and why a retry happens or not. An
 * attempt that will be retried is `info`, a call that ends without an
 * answer or with a 429/5xx is `warn`, any other attempt `debug`. Nothing of
 * the request's headers or body is written: no credential can reach a log.
 */
export function loggingObserver({ logger, level }: LevelledLogger): AttemptObserver {
  const threshold = RANK[level];
  return () => (end) => {
    const lineLevel = levelOf(end);
    if (RANK[lineLevel] < threshold) return;
    logger[lineLevel](attemptLine(end), attemptFields(end));
  };
}

function levelOf(end: AttemptEnd): Exclude<LogLevel, 'off' | 'error'> {
  if (end.retry.willRetry) return 'info';
  if (end.status === undefined || end.status === 429 || end.status >= 500) return 'warn';
  return 'debug';
}

/** `service-sdk: GET /wallets/{wallet_id} attempt 1/3: 503 in 12 ms (request ID r-1); retrying in 240 ms: 503 is transient`. */
export function attemptLine(end: AttemptEnd): string {
  const outcome = end.status === undefined ? (end.errorType ?? 'no answer') : String(end.status);
  const request = end.requestId === undefined ? '' : ` (request ID ${end.requestId})`;
  const next = end.retry.willRetry ? `retrying in ${end.retry.delayMs ?? 0} ms: ${end.retry.reason}` : `not retried: ${end.retry.reason}`;
  return `service-sdk: ${end.operation.method} ${end.operation.path} attempt ${end.attempt}/${end.maxAttempts}: ${outcome} in ${Math.round(end.durationMs)} ms${request}; ${next}`;
}

function attemptFields(end: AttemptEnd): Record<string, unknown> {
  return {
    method: end.operation.method,
    path: end.operation.path,
    urlPath: end.operation.urlPath,
    attempt: end.attempt,
    maxAttempts: end.maxAttempts,
    status: end.status,
    error: end.errorType,
    durationMs: Math.round(end.durationMs),
    requestId: end.requestId,
    retry: end.retry.willRetry,
    retryDelayMs: end.retry.delayMs,
    retryReason: end.retry.reason,
  };
}
