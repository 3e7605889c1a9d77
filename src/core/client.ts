import createClient, { type Client, type ClientOptions as FetchClientOptions, type Middleware } from 'openapi-fetch';
import type { Authorizer } from './auth.js';
import { ConfigurationError, type OperationRef } from './errors.js';
import { resolveRetryOptions, type RetryOptions } from './retry.js';
import { createTransport, type FetchLike } from './transport.js';

/** Options every client accepts. */
export interface CommonClientOptions {
  /** Root URL of the API, e.g. `https://example.test/v1`. Each API documents its default. */
  baseUrl?: string;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). Called as `fetch(request, init?)`. */
  fetch?: FetchLike;
  /** Time limit of each attempt, in ms. Default 30,000. `0` disables it. */
  timeoutMs?: number;
  /** Retry policy, or `false` for none. Defaults: see `DEFAULT_RETRY`. */
  retry?: RetryOptions | false;
  /** Sent as `User-Agent` (runtimes that allow it) after the SDK's own product token. */
  userAgent?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
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
}

/**
 * The operation each non-2xx answer belongs to, so `unwrap` can name it in
 * the ApiError. Keyed by the Response object, so nothing leaks or grows.
 */
const failedOperations = new WeakMap<Response, OperationRef>();

const recordFailedOperation: Middleware = {
  onResponse({ request, response, schemaPath }) {
    if (!response.ok) failedOperations.set(response, { method: request.method, path: schemaPath });
    return undefined;
  },
};

export function operationOfResponse(response: Response): OperationRef | undefined {
  return failedOperations.get(response);
}

export function createApiClient<Paths extends {}>(options: CommonClientOptions, setup: ClientSetup): Client<Paths> {
  const baseUrl = options.baseUrl ?? setup.baseUrl;
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new ConfigurationError('baseUrl', 'expected an absolute http(s) URL');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new ConfigurationError('timeoutMs', 'expected a number of milliseconds >= 0');
  }
  const baseFetch = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  if (typeof baseFetch !== 'function') throw new ConfigurationError('fetch', 'expected a function');
  let retry;
  try {
    retry = resolveRetryOptions(options.retry);
  } catch (error) {
    throw new ConfigurationError('retry', (error as Error).message);
  }

  const transport = createTransport({
    fetch: baseFetch,
    retry,
    timeoutMs: timeoutMs === 0 ? undefined : timeoutMs,
    authorize: setup.authorize,
    dedupKeys: setup.dedupKeys ?? [],
  });
  const userAgent = options.userAgent ? `${SDK_USER_AGENT} ${options.userAgent}` : SDK_USER_AGENT;
  const client = createClient<Paths>({
    baseUrl,
    fetch: transport,
    headers: { ...options.headers, 'User-Agent': userAgent, ...setup.authHeaders },
    ...(setup.querySerializer ? { querySerializer: setup.querySerializer } : {}),
  });
  client.use(recordFailedOperation);
  return client;
}
