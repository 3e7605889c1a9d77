import { answerInfo, urlPathOf } from './answers.js';
import { ConfigurationError, type AttemptRecord, type OperationRef } from './errors.js';
import { requestIdOf } from './error-body.js';
import { describe } from './options.js';

/**
 * Options every call of a derived client carries (`client.withOptions`):
 * the per-call options, for helpers that make the calls themselves.
 */
export interface WithOptions {
  timeoutMs?: number;
  deadlineMs?: number;
  retry?: import('./retry.js').RetryOptions | false;
  /** Extra headers on every call (a call's own headers win). */
  headers?: Record<string, string>;
  /** Aborts every call of the derived client (beside any signal a helper passes). */
  signal?: AbortSignal;
}

const WITH_OPTION_NAMES = ['timeoutMs', 'deadlineMs', 'retry', 'headers', 'signal'] as const;

/** The HTTP answer a call got: what `withResponse` hands back beside a helper's result. */
export interface ResponseInfo {
  readonly status: number;
  readonly headers: Headers;
  /** The service's request ID, when it sent one. */
  readonly requestId: string | undefined;
  /** Method, path template and concrete path. */
  readonly operation: OperationRef;
  /** Every attempt of the call, retries included. */
  readonly attempts: readonly AttemptRecord[];
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
type Call = (path: string, init?: Record<string, unknown>) => Promise<{ response: Response }>;
type AnyClient = Record<(typeof METHODS)[number], Call> & {
  request: (method: string, path: string, init?: Record<string, unknown>) => Promise<{ response: Response }>;
  use: (...m: unknown[]) => void;
  eject: (...m: unknown[]) => void;
};

/** Which client each derived client was made from, so per-client settings (the stream's, the logger) are found. */
const ORIGIN = new WeakMap<object, object>();

/** The client `client` was derived from (itself when it is an original). */
export function originalClient<C extends object>(client: C): C {
  return (ORIGIN.get(client) as C | undefined) ?? client;
}

/**
 * A client that sends every call through `base` with `defaults` added to
 * the call's options (the call's own win; headers merge; both signals
 * abort), and tells `onAnswer` of every answer. Middleware is shared.
 */
export function deriveClient<C extends object>(base: C, defaults: Record<string, unknown>, onAnswer?: (response: Response) => void): C {
  const source = base as unknown as AnyClient;
  const derived = Object.create(null) as AnyClient & { withOptions: (options: WithOptions) => C };
  const merge = (init: Record<string, unknown> | undefined) => mergeInit(defaults, init);
  const seen = <R extends { response: Response }>(result: R): R => {
    onAnswer?.(result.response);
    return result;
  };
  for (const method of METHODS) derived[method] = (path, init) => source[method](path, merge(init)).then(seen);
  derived.request = (method, path, init) => source.request(method, path, merge(init)).then(seen);
  derived.use = (...m) => source.use(...m);
  derived.eject = (...m) => source.eject(...m);
  derived.withOptions = (options) => deriveClient(derived as unknown as C, checkWithOptions(options));
  ORIGIN.set(derived, originalClient(base));
  return derived as unknown as C;
}

/**
 * `deriveClient` of a client, or of each client of a group of them (the
 * policy client's `coordinator`, `evaluation` and `reporting`), keeping the
 * group's shape.
 */
export function deriveClients<C extends object>(client: C, defaults: Record<string, unknown>, onAnswer?: (response: Response) => void): C {
  if (client === null || typeof client !== 'object') throw new ConfigurationError('client', `expected a client of this SDK, got ${describe(client)}`);
  if (typeof (client as Partial<AnyClient>).GET === 'function') return deriveClient(client, defaults, onAnswer);
  const group: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(client)) {
    if (member !== null && typeof member === 'object' && typeof (member as Partial<AnyClient>).GET === 'function') group[name] = deriveClient(member, defaults, onAnswer);
  }
  if (Object.keys(group).length === 0) throw new ConfigurationError('client', 'expected a client of this SDK (one made by createChannelsClient, createStreamsClient or createPolicyClient)');
  Object.defineProperty(group, 'withOptions', { value: (options: WithOptions) => deriveClients(group, checkWithOptions(options)) });
  return group as C;
}

/** Checks `withOptions`' argument: only per-call options, each of its type (the call checks their values). */
export function checkWithOptions(options: unknown): Record<string, unknown> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ConfigurationError('withOptions', `expected an object of call options, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!(WITH_OPTION_NAMES as readonly string[]).includes(key)) {
      throw new ConfigurationError(key.slice(0, 40), `not an option withOptions takes (known: ${WITH_OPTION_NAMES.join(', ')})`);
    }
  }
  const { signal, headers } = options as WithOptions;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new ConfigurationError('signal', `expected an AbortSignal, got ${describe(signal)}`);
  if (headers !== undefined && (headers === null || typeof headers !== 'object' || headers instanceof Headers || Array.isArray(headers))) {
    throw new ConfigurationError('headers', 'expected an object of header names to string values');
  }
  return options as Record<string, unknown>;
}

/** A call's init with the defaults under it: a value the call leaves `undefined` does not hide a default. */
function mergeInit(defaults: Record<string, unknown>, init: Record<string, unknown> | undefined): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults };
  if (init === undefined || init === null) return merged;
  for (const [key, value] of Object.entries(init)) {
    if (value === undefined) continue;
    if (key === 'headers' && defaults.headers !== undefined) merged.headers = mergeHeaders(defaults.headers as Record<string, string>, value);
    else if (key === 'signal' && defaults.signal !== undefined) merged.signal = AbortSignal.any([defaults.signal as AbortSignal, value as AbortSignal]);
    else merged[key] = value;
  }
  return merged;
}

function mergeHeaders(defaults: Record<string, string>, own: unknown): Headers {
  const headers = new Headers(defaults);
  new Headers(own as HeadersInit).forEach((value, name) => headers.set(name, value));
  return headers;
}

/** The answer a call got, for `withResponse`. */
export function responseInfoOf(response: Response): ResponseInfo {
  const info = answerInfo(response);
  const urlPath = urlPathOf(response.url);
  return {
    status: response.status,
    headers: response.headers,
    requestId: requestIdOf(response.headers),
    operation: info?.operation ?? { method: '?', path: urlPath, urlPath },
    attempts: info?.attempts ?? [],
  };
}

/**
 * Runs `helper` with a client that records every HTTP answer, and returns
 * the helper's result with the last answer (`response`) and all of them
 * (`responses`, in order): the status, headers, request ID and attempts of
 * what a helper such as `getLatestReport` or `requestEvaluation` did.
 *
 *     const { data, response } = await withResponse(streams, (s) => getLatestReport(s, feedId));
 *     console.log(response.requestId, response.attempts.length);
 */
export async function withResponse<C extends object, T>(
  client: C,
  helper: (client: C) => Promise<T>,
): Promise<{ data: T; response: ResponseInfo | undefined; responses: ResponseInfo[] }> {
  if (typeof helper !== 'function') throw new ConfigurationError('helper', `expected a function of the client, got ${describe(helper)}`);
  const responses: ResponseInfo[] = [];
  const recording = deriveClients(client, {}, (response) => void responses.push(responseInfoOf(response)));
  const data = await helper(recording);
  return { data, response: responses.at(-1), responses };
}
