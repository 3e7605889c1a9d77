import createClient, { type ClientOptions as FetchClientOptions, type Middleware } from 'openapi-fetch';
import type { Authorizer } from './auth.js';
import { callContextOf, suggestion, type CallContext } from './call-options.js';
import { ConfigurationError, InvalidResponseBodyError, type AttemptRecord, type OperationRef } from './errors.js';
import { loggingObserver, resolveLogging, type LevelledLogger, type Logger, type LogLevel } from './logging.js';
import type { AttemptEnd, AttemptObserver, AttemptStart } from './observe.js';
import { baseUrlOption, describe, durationOption, headersOption, headerValueOption } from './options.js';
import { resolveRetryOptions, type RetryOptions } from './retry.js';
import { recordAnswer } from './answers.js';
import { checkWithOptions, deriveClient, originalClient, type WithOptions } from './derived-client.js';
import { CALL_CONTEXT, RequestNotingSignal } from './sdk-request.js';
import { createTransport, type FetchLike } from './transport.js';
import type { SdkClient } from './typed-client.js';

export type { SdkClient, SdkClientMethod } from './typed-client.js';

export type { Logger, LogLevel } from './logging.js';
export type { AttemptEnd, AttemptObserver, AttemptStart, CallOperation, RetryDecision } from './observe.js';
export type { CallOptions } from './call-options.js';

/**
 * Functions the client calls around every attempt of every call (retries
 * included): before it is sent, and when it has ended, with its status or
 * error, duration, request ID and whether it will be retried. A hook that
 * throws is ignored: it cannot break the call.
 */
export interface ClientHooks {
  beforeAttempt?(attempt: AttemptStart): void;
  afterAttempt?(attempt: AttemptEnd): void;
}

/** Options every client accepts. */
export interface CommonClientOptions {
  /** Root URL of the API, e.g. `https://example.test/v1`. Each API documents its default. */
  baseUrl?: string;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). Called as `fetch(request, init?)`. */
  fetch?: FetchLike;
  /** Time limit of each attempt, in ms. Default 30,000. `0` or `Infinity` disables it. */
  timeoutMs?: number;
  /**
   * Time limit of a whole call, in ms: every attempt, back-off, `Retry-After`
   * wait and the body. Default 60,000. `0` or `Infinity` disables it. A call
   * can set its own: `client.GET(path, { ..., deadlineMs })`.
   */
  deadlineMs?: number;
  /** Retry policy, or `false` for none. Defaults: see `DEFAULT_RETRY`. */
  retry?: RetryOptions | false;
  /** Sent as `User-Agent` (runtimes that allow it) after the SDK's own product token. */
  userAgent?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /**
   * Where to write one line per attempt (method, path template, status or
   * error, duration, request ID, retry decision): `console` or any object
   * with `debug`, `info`, `warn` and `error`. Never given a credential.
   */
  logger?: Logger;
  /**
   * From which level to log: `debug` (every attempt), `info` (retries),
   * `warn` (calls that end without an answer or with a 429/5xx), `off`.
   * Default: the `SERVICE_SDK_LOG` environment variable where the runtime has
   * one, else `info` when a `logger` is given; with neither, nothing is logged.
   */
  logLevel?: LogLevel;
  /** Called around every attempt of every call, retries included. */
  hooks?: ClientHooks;
  /**
   * Lower-level observers of every attempt (how integrations such as
   * OpenTelemetry plug in): each is called before an attempt is sent and
   * returns, if it wants, the function to call when the attempt ends.
   */
  observers?: readonly AttemptObserver[];
}

/** The option names every client takes (`CommonClientOptions`); an API's factory adds its own. */
export const COMMON_CLIENT_OPTIONS = [
  'baseUrl',
  'fetch',
  'timeoutMs',
  'deadlineMs',
  'retry',
  'userAgent',
  'headers',
  'logger',
  'logLevel',
  'hooks',
  'observers',
] as const;

/**
 * Refuses an option the client does not know, naming it (and the nearest
 * known one): a misspelt `timeoutMS` must not silently leave the default.
 */
export function checkOptionNames(options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new ConfigurationError(key.slice(0, 40), `not an option of this client${suggestion(key, known)} (known: ${known.join(', ')})`);
    }
  }
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_DEADLINE_MS = 60_000;
export const SDK_USER_AGENT = 'service-sdk-ts/0.1.0';

/** What an API entry point adds to the common options when it builds its client. */
export interface ClientSetup {
  baseUrl: string;
  /** Headers that carry credentials (API-key schemes); set once per client, not per request. */
  authHeaders?: Record<string, string>;
  /** Per-attempt signer (HMAC schemes). */
  authorize?: Authorizer;
  /** Body fields that make a POST/PATCH of this API safe to retry. */
  dedupKeys?: readonly string[];
  querySerializer?: FetchClientOptions['querySerializer'];
  /** `METHOD /path` of operations documented to answer 2xx (not 204) with no body (the generated `EMPTY_SUCCESS`). */
  emptySuccess?: readonly string[];
  /** The API's own option names beside `COMMON_CLIENT_OPTIONS` (e.g. `apiKey`); any other is refused. */
  optionNames?: readonly string[];
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
type CallMethod = (path: string, init?: unknown) => Promise<{ response: Response }>;

/**
 * Wraps the client's call methods: each call's own options are checked and
 * taken into its context (an unknown one is refused), the context rides on
 * the Request to the transport, and the answer records its operation and
 * attempts for `unwrap`. A 2xx body that is not JSON is named (openapi-fetch
 * parses it and would throw a bare SyntaxError).
 */
function wrapCalls(client: object, emptySuccess: ReadonlySet<string>): void {
  const calls = client as Record<(typeof METHODS)[number], CallMethod> & {
    request: (method: string, path: string, init?: unknown) => Promise<{ response: Response }>;
  };
  const send = (method: string, path: string, init: unknown, call: (init: unknown) => Promise<{ response: Response }>) => {
    let split: ReturnType<typeof callContextOf>;
    try {
      split = callContextOf(method, path, init as Record<string, unknown> | undefined);
    } catch (error) {
      return Promise.reject(error);
    }
    const { context } = split;
    return call({ ...split.init, [CALL_CONTEXT]: context }).then(
      (result) => {
        recordAnswer(result.response, { context, response: result.response, emptySuccess });
        return result;
      },
      (error: unknown) => {
        if (error instanceof SyntaxError) throw new InvalidResponseBodyError(`${method} ${path}`, 'a body that is not valid JSON', { cause: error });
        throw error;
      },
    );
  };
  for (const method of METHODS) {
    const call = calls[method];
    calls[method] = (path, init) => send(method, path, init, (withContext) => call(path, withContext));
  }
  const request = calls.request;
  calls.request = (method, path, init) => send(String(method).toUpperCase(), path, init, (withContext) => request(method, path, withContext));
}

/**
 * Takes `client.use()` / `client.eject()` from openapi-fetch into the
 * transport's list, so a middleware runs around every attempt (its
 * `onRequest`, `onResponse` and `onError` see each retry, with `attempt`
 * readable on their argument) instead of once per call.
 */
function takeMiddleware(client: object, middleware: Middleware[]): void {
  const target = client as { use: (...m: Middleware[]) => void; eject: (...m: Middleware[]) => void };
  target.use = (...added) => {
    for (const m of added) {
      if (!m) continue;
      if (typeof m !== 'object' || !('onRequest' in m || 'onResponse' in m || 'onError' in m)) {
        throw new ConfigurationError('middleware', 'expected an object with onRequest(), onResponse() or onError()');
      }
      middleware.push(m);
    }
  };
  target.eject = (...removed) => {
    for (const m of removed) {
      const index = middleware.indexOf(m);
      if (index !== -1) middleware.splice(index, 1);
    }
  };
}

/** The client's hooks as an observer: a hook that throws is ignored. */
function hooksObserver(hooks: ClientHooks): AttemptObserver {
  const { beforeAttempt, afterAttempt } = hooks;
  return (start) => {
    if (beforeAttempt) quietly(() => beforeAttempt.call(hooks, start));
    return afterAttempt ? (end) => quietly(() => afterAttempt.call(hooks, end)) : undefined;
  };
}

function quietly(run: () => void): void {
  try {
    run();
  } catch {
    // An observer's failure must not break the call it observes.
  }
}

function observersOf(options: CommonClientOptions, logging: LevelledLogger | undefined): AttemptObserver[] {
  const observers: AttemptObserver[] = [];
  const { hooks } = options;
  if (hooks !== undefined) {
    if (hooks === null || typeof hooks !== 'object') throw new ConfigurationError('hooks', `expected an object with beforeAttempt and/or afterAttempt, got ${describe(hooks)}`);
    checkOptionNames(hooks, ['beforeAttempt', 'afterAttempt']);
    for (const name of ['beforeAttempt', 'afterAttempt'] as const) {
      if (hooks[name] !== undefined && typeof hooks[name] !== 'function') throw new ConfigurationError(`hooks.${name}`, `expected a function, got ${describe(hooks[name])}`);
    }
    observers.push(hooksObserver(hooks));
  }
  if (logging !== undefined) observers.push(loggingObserver(logging));
  if (options.observers !== undefined) {
    if (!Array.isArray(options.observers) || options.observers.some((o) => typeof o !== 'function')) {
      throw new ConfigurationError('observers', 'expected an array of functions');
    }
    observers.push(...options.observers);
  }
  return observers;
}

/** Each client's logging, for helpers that have something to say (a wait that meets a status it does not know). */
const LOGGING = new WeakMap<object, LevelledLogger>();

/** The logger of `client` with its level, when logging is on; `undefined` otherwise. */
export function loggingOf(client: object): LevelledLogger | undefined {
  return LOGGING.get(originalClient(client));
}


export function createApiClient<Paths extends {}>(options: CommonClientOptions, setup: ClientSetup): SdkClient<Paths> {
  checkOptionNames(options, [...COMMON_CLIENT_OPTIONS, ...(setup.optionNames ?? [])]);
  const baseUrl = baseUrlOption(options.baseUrl ?? setup.baseUrl);
  const timeoutMs = durationOption('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const deadlineMs = durationOption('deadlineMs', options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const baseFetch = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  if (typeof baseFetch !== 'function') throw new ConfigurationError('fetch', 'expected a function');
  const retry = resolveRetryOptions(options.retry);
  const headers = headersOption(options.headers);
  if (options.userAgent !== undefined && typeof options.userAgent !== 'string') {
    throw new ConfigurationError('userAgent', 'expected a string');
  }
  const logging = resolveLogging(options.logger, options.logLevel);
  const observers = observersOf(options, logging);
  const middleware: Middleware[] = [];
  const userAgent = headerValueOption('userAgent', options.userAgent ? `${SDK_USER_AGENT} ${options.userAgent}` : SDK_USER_AGENT);

  const transport = createTransport({
    fetch: baseFetch,
    retry,
    timeoutMs: noLimit(timeoutMs),
    deadlineMs: noLimit(deadlineMs),
    authorize: setup.authorize,
    dedupKeys: setup.dedupKeys ?? [],
    observers,
    middleware,
    baseUrl,
  });
  const client = createClient<Paths>({
    baseUrl,
    fetch: transport,
    Request: RequestNotingSignal,
    // The transport follows redirects itself, within the origin only.
    redirect: 'manual',
    headers: { ...headers, 'User-Agent': userAgent, ...setup.authHeaders },
    ...(setup.querySerializer ? { querySerializer: setup.querySerializer } : {}),
  });
  wrapCalls(client, new Set(setup.emptySuccess));
  takeMiddleware(client, middleware);
  (client as { withOptions?: (options: WithOptions) => unknown }).withOptions = (defaults) => deriveClient(client, checkWithOptions(defaults));
  if (logging !== undefined) LOGGING.set(client, logging);
  return client as unknown as SdkClient<Paths>;
}

/** `0` and `Infinity` both mean no limit. */
function noLimit(ms: number): number | undefined {
  return ms === 0 || ms === Number.POSITIVE_INFINITY ? undefined : ms;
}
