import { editDistance } from './edit-distance.js';
import { ConfigurationError, type AttemptRecord, type OperationRef } from './errors.js';
import { describe, durationOption } from './options.js';
import { resolveRetryOptions, type ResolvedRetryOptions, type RetryOptions } from './retry.js';

/**
 * Options one call may set for itself, beside openapi-fetch's own (`params`,
 * `body`, `headers`, `signal`, `parseAs`, …). Each wins over the client's
 * setting of the same name for this call only.
 */
export interface CallOptions {
  /** Time limit of each attempt of this call, in ms; `0` or `Infinity` for none. */
  timeoutMs?: number;
  /** Time limit of this whole call (attempts, waits, body), in ms; `0` or `Infinity` for none. */
  deadlineMs?: number;
  /** Retry policy of this call, or `false` for none (a single attempt). */
  retry?: RetryOptions | false;
}

/** The per-call options of openapi-fetch and the Fetch API that a call may pass through to the request. */
const PASSED_THROUGH = [
  'params',
  'body',
  'parseAs',
  'headers',
  'signal',
  'baseUrl',
  'querySerializer',
  'bodySerializer',
  'pathSerializer',
  'middleware',
  // RequestInit settings a browser honours.
  'cache',
  'credentials',
  'integrity',
  'keepalive',
  'mode',
  'priority',
  'referrer',
  'referrerPolicy',
] as const;
const OWN = ['timeoutMs', 'deadlineMs', 'retry'] as const;
/** The keys a call's options may have (anything else is refused, at compile time and at run time). */
export type KnownCallOption = (typeof PASSED_THROUGH)[number] | (typeof OWN)[number];
const KNOWN: ReadonlySet<string> = new Set<string>([...PASSED_THROUGH, ...OWN]);

/** Call options that would take the request out of the SDK's hands, each with what to do instead. */
const REFUSED: Readonly<Record<string, string>> = {
  fetch: 'a call cannot replace the client\'s fetch (its retries, time limits and signing would be skipped); pass `fetch` to the client',
  Request: 'a call cannot replace the Request class; the SDK builds its own',
  redirect: 'the SDK follows redirects itself, within the origin only',
  method: 'the method is the one you called (GET, POST, …)',
};

/**
 * One call's state as the transport sees it: its operation, its own
 * settings, and what each attempt got. Made by the client's call wrapper and
 * carried to the transport on the Request (see `sdk-request.ts`).
 */
export interface CallContext {
  readonly method: string;
  /** The path template the call was made with. */
  readonly path: string;
  readonly timeoutMs?: number | undefined;
  readonly deadlineMs?: number | undefined;
  readonly retry?: ResolvedRetryOptions | undefined;
  /** The call's own openapi-fetch middleware (`{ middleware: [...] }`), run per attempt after the client's. */
  readonly middleware?: readonly unknown[] | undefined;
  /** The call's `params`, handed to middleware as openapi-fetch does. */
  readonly params?: unknown;
  /** What each attempt got, in order; filled by the transport. */
  readonly attempts: AttemptRecord[];
  /** The concrete URL path, once the request is built. */
  urlPath?: string;
}

/** The operation of a call, as every error and event names it. */
export function operationOfCall(context: CallContext, urlPath: string): OperationRef {
  return { method: context.method, path: context.path, urlPath };
}

/**
 * Checks one call's options and splits them: the ones the SDK handles go in
 * the returned context, the rest stay in `init` for openapi-fetch. An
 * unknown or misspelt option is a ConfigurationError naming it (JavaScript
 * callers make typos too), never silently ignored.
 */
export function callContextOf(method: string, path: string, init: Record<string, unknown> | undefined): { context: CallContext; init: Record<string, unknown> | undefined } {
  if (init === undefined || init === null) return { context: { method, path, attempts: [] }, init: undefined };
  if (typeof init !== 'object' || Array.isArray(init)) {
    throw new ConfigurationError('options', `the options of ${method} ${path} must be an object, got ${describe(init)}`);
  }
  let own = false;
  for (const key in init) {
    if (!KNOWN.has(key)) throw unknownCallOption(key);
    if (key === 'timeoutMs' || key === 'deadlineMs' || key === 'retry' || key === 'middleware') own = true;
  }
  if (!own) return { context: { method, path, params: init.params, attempts: [] }, init };
  const { timeoutMs, deadlineMs, retry, middleware, ...rest } = init;
  if (middleware !== undefined && !Array.isArray(middleware)) throw new ConfigurationError('middleware', `expected an array of middleware, got ${describe(middleware)}`);
  return {
    context: {
      method,
      path,
      params: init.params,
      attempts: [],
      timeoutMs: timeoutMs === undefined ? undefined : durationOption('timeoutMs', timeoutMs),
      deadlineMs: deadlineMs === undefined ? undefined : durationOption('deadlineMs', deadlineMs),
      retry: retry === undefined ? undefined : resolveRetryOptions(retry),
      middleware: middleware as unknown[] | undefined,
    },
    init: rest,
  };
}

function unknownCallOption(key: string): ConfigurationError {
  const shown = key.slice(0, 40);
  const refused = Object.hasOwn(REFUSED, key) ? REFUSED[key] : undefined;
  if (refused !== undefined) return new ConfigurationError(shown, refused);
  return new ConfigurationError(shown, `not an option of a call${suggestion(key, [...KNOWN])} (known: ${[...OWN, ...PASSED_THROUGH].join(', ')})`);
}

/** ` (did you mean \`x\`?)` for a near miss among `known`, else nothing. */
export function suggestion(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best === undefined ? '' : ` (did you mean \`${best}\`?)`;
}
