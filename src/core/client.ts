import createClient, { type Client, type ClientOptions as FetchClientOptions } from 'openapi-fetch';
import type { Authorizer } from './auth.js';
import { ConfigurationError, InvalidResponseBodyError, type OperationRef } from './errors.js';
import { baseUrlOption, durationOption, headersOption, headerValueOption } from './options.js';
import { resolveRetryOptions, type RetryOptions } from './retry.js';
import { RequestNotingSignal } from './sdk-request.js';
import { createTransport, type FetchLike } from './transport.js';

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
}

/** What `unwrap` needs to know about an answer: its operation, and whether an empty success is documented. */
export interface AnswerInfo {
  operation: OperationRef;
  emptySuccessAllowed: boolean;
}

/** Recorded per answer; `emptySuccessAllowed` is worked out only when `unwrap` needs it. */
interface AnswerRecord {
  operation: OperationRef;
  emptySuccess: ReadonlySet<string>;
}

/**
 * The operation of each answer, so `unwrap` can name it in an ApiError or
 * an InvalidResponseBodyError. Kept on the Response itself under a symbol,
 * so it lives and dies with the answer (a WeakMap entry measured about three
 * times the cost, plus the garbage collector's ephemeron work).
 */
const ANSWER = Symbol('answer');
type RecordedResponse = Response & { [ANSWER]?: AnswerRecord };

export function answerInfo(response: Response): AnswerInfo | undefined {
  const record = (response as RecordedResponse)[ANSWER];
  if (record === undefined) return undefined;
  const { operation, emptySuccess } = record;
  return {
    operation,
    // A getter: unwrap asks only for an empty body, so the lookup stays off the common path.
    get emptySuccessAllowed() {
      return emptySuccess.has(`${operation.method} ${operation.path}`);
    },
  };
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
type CallMethod = (path: string, init?: unknown) => Promise<{ response: Response }>;

/**
 * Records each answer's operation by wrapping the client's call methods,
 * and names the operation of a 2xx body that is not JSON (openapi-fetch
 * parses it and would throw a bare SyntaxError). An openapi-fetch
 * middleware could record too, but any middleware makes every call build
 * and freeze an options object and await each hook (measured about 6 µs a
 * call); the wrapper costs one WeakMap entry.
 */
function recordAnswers(client: object, emptySuccess: ReadonlySet<string>): void {
  const calls = client as Record<(typeof METHODS)[number], CallMethod> & {
    request: (method: string, path: string, init?: unknown) => Promise<{ response: Response }>;
  };
  const record = <R extends { response: Response }>(method: string, path: string, result: R): R => {
    (result.response as RecordedResponse)[ANSWER] = { operation: { method, path }, emptySuccess };
    return result;
  };
  const named = (method: string, path: string, error: unknown): never => {
    if (error instanceof SyntaxError) throw new InvalidResponseBodyError(`${method} ${path}`, 'a body that is not valid JSON', { cause: error });
    throw error;
  };
  for (const method of METHODS) {
    const call = calls[method];
    calls[method] = (path, init) =>
      call(path, init).then(
        (result) => record(method, path, result),
        (error: unknown) => named(method, path, error),
      );
  }
  const request = calls.request;
  calls.request = (method, path, init) =>
    request(method, path, init).then(
      (result) => record(method.toUpperCase(), path, result),
      (error: unknown) => named(method.toUpperCase(), path, error),
    );
}

export function createApiClient<Paths extends {}>(options: CommonClientOptions, setup: ClientSetup): Client<Paths> {
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
  const userAgent = headerValueOption('userAgent', options.userAgent ? `${SDK_USER_AGENT} ${options.userAgent}` : SDK_USER_AGENT);

  const transport = createTransport({
    fetch: baseFetch,
    retry,
    timeoutMs: noLimit(timeoutMs),
    deadlineMs: noLimit(deadlineMs),
    authorize: setup.authorize,
    dedupKeys: setup.dedupKeys ?? [],
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
  recordAnswers(client, new Set(setup.emptySuccess));
  return client;
}

/** `0` and `Infinity` both mean no limit. */
function noLimit(ms: number): number | undefined {
  return ms === 0 || ms === Number.POSITIVE_INFINITY ? undefined : ms;
}
