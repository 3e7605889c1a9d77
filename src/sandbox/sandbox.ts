import { pathWithQuery } from '../core/auth.js';
import type { ReportTrust } from '../reports/verify-types.js';
import { sandboxReportTrust } from './streams/don.js';
import { createBehaviours } from './behaviours.js';
import { createClock, type SandboxClock } from './clock.js';
import type { BehaviourContext, SandboxCredentials } from './context.js';
import { SandboxUsageError, SandboxViolationError } from './errors.js';
import { sandboxRoutes, type SandboxRoute } from './fault-routes.js';
import { createFaultPlan, delay, InjectedDrop, slowBody, type FaultHandle, type FaultSpec } from './faults.js';
import { startListener, type ListenOptions, type ListenTarget, type SandboxListener } from './listen.js';
import { requireNodeServer } from './node-server.js';
import { createRequestRouter, type SandboxServedBaseUrls } from './base-url-routing.js';
import { applyRequestCheck, GENERATED_REQUEST_CHECKS, type RequestChecks } from './request-check.js';
import { checkSeed, type SandboxSeed } from './seed.js';
import { SANDBOX_STREAM_ORIGINS } from './streams/live.js';
import { createStreamOrigins, type StreamOrigins } from './streams/origins.js';
import { linkedSandboxFetch } from './streams/in-process-link.js';
import { createLiveFeed } from './streams/live-feed.js';
import { createLiveSocketServer } from './streams/live-socket.js';
import {
  SandboxHttpError,
  type ApiBehaviour,
  type SandboxAnswer,
  type SandboxApi,
  type SandboxRequest,
} from './types.js';

/** Checks one answer against its spec; throws (any error) to report a violation. */
export type AnswerValidator = (answer: {
  api: SandboxApi;
  operationId: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}) => void;

/** Options of `createSandbox`: its pace, credentials, seed data, base URLs and an answer validator. */
export interface SandboxOptions {
  /** Sandbox ms per real ms. Default 1: every flow ends within a few seconds. 0 freezes time; move it with `advance()`. */
  pace?: number;
  /** Credentials to accept instead of freshly made ones. */
  credentials?: Partial<{ [K in keyof SandboxCredentials]: Partial<SandboxCredentials[K]> }>;
  /** Called with every answer; a throw makes the request fail with SandboxViolationError. */
  validate?: AnswerValidator;
  /**
   * Records to start with, besides the built-in ones (networks, the policy
   * engines), and to go back to on `reset()`. Channels wallets and channels
   * only, for now; see `SandboxSeed`. Bad data is a SandboxUsageError here.
   */
  seed?: SandboxSeed;
  /**
   * Base URLs your clients use, by API, when the path alone cannot tell
   * (e.g. `{ channels: 'https://acme.example/v1' }`). Not needed otherwise:
   * the sandbox serves each request by its path under any origin and any
   * base path the service has, and tells two APIs with the same path apart
   * by their API keys. `policy` is the host, or, for a proxy in front of
   * one policy API, the base URLs of the policy client's `baseUrls`
   * (`{ reporting: 'https://proxy.acme.example/reports' }`), which tell the
   * policy APIs (one key) apart where a path is two's. A base URL the
   * service does not have (a policy host with a path) is a SandboxUsageError.
   */
  baseUrls?: SandboxServedBaseUrls;
}

/** An answer of the sandbox that its API's description does not allow, as `onViolation` receives it. */
export interface Violation {
  api: SandboxApi;
  operationId: string;
  status: number;
  problem: string;
}

/**
 * The five APIs in your own process, made by `createSandbox()`. Hand `fetch`
 * to the clients (they keep their production options); move time with
 * `advance()`; inject faults with `inject()`, whose handle's `remove()` ends
 * one when the test says so, while `clearFaults()` ends them all and keeps
 * the data; go back to the seed with `reset()`; `close()` when done.
 */
export interface Sandbox {
  /**
   * A `fetch` that serves every API of the sandbox, under any origin and any
   * base path the service has (a client keeps its production `baseUrl`). A
   * request it cannot serve, or that the service would not (a doubled `/v1`),
   * rejects with a SandboxUsageError naming the URL and the fix.
   */
  fetch(input: Request | URL | string, init?: RequestInit): Promise<Response>;
  readonly credentials: SandboxCredentials;
  /**
   * The made-up oracle network the sandbox signs its reports with: pass it as
   * `verify` (REST helpers, `streamReports`) or to `verifyReport`, as you
   * would the trust `readReportTrust` reads from a chain.
   */
  readonly reportTrust: ReportTrust;
  readonly clock: SandboxClock;
  /** Moves sandbox time on by `ms`, running every state change that became due. */
  advance(ms: number): void;
  /**
   * Injects a fault into the next matching requests (`fault.times` of them,
   * default 1), and returns its handle: `remove()` ends it when the test says
   * so, e.g. an `Infinity` fault once the code under test has seen enough
   * failures. A malformed fault is a SandboxUsageError naming the field.
   */
  inject(fault: FaultSpec): FaultHandle;
  /** Ends every injected fault, and keeps everything else: channels, wallets, operations, time, violations. */
  clearFaults(): void;
  /** Every operation the sandbox serves, API by API, with each name `inject({ route })` takes for it. */
  routes(): SandboxRoute[];
  /**
   * The origins of the streams API's WebSocket host (`001`, `002`), served by
   * `listen()`: `drop(origin)` closes its connections at once and refuses new
   * ones (and `HEAD /` stops listing it) until `restore(origin)`.
   */
  readonly streamOrigins: Pick<StreamOrigins, 'all' | 'up' | 'drop' | 'restore'>;
  /** Every answer that broke its spec, and every handler failure, since the last reset. */
  readonly violations: readonly Violation[];
  /**
   * Back to the seeded state (the built-in seed and `options.seed`): data,
   * faults, scheduled changes and violations. To end the faults alone, keeping
   * the data, use `clearFaults()` or a fault's `remove()`.
   */
  reset(): void;
  /**
   * Stops everything the sandbox runs, timers included: a request held by a
   * `delayMs` fault rejects, and a body held by `bodyDelayMs` errors, with a
   * SandboxUsageError ('the sandbox is closed').
   */
  close(): void;
  /**
   * Serves the sandbox over HTTP on `host` (default 127.0.0.1) and `port`
   * (default: a free one), Node 20+. Resolves to base URLs for each client's
   * `baseUrl` option. A request it will not serve (where `fetch` rejects with
   * a SandboxUsageError) is answered `404 { type: 'SANDBOX_USAGE_ERROR',
   * message }`, as under MSW. `close()` on the result, or on the sandbox, stops it.
   */
  listen(options?: ListenOptions): Promise<SandboxListener>;
  /** Dispatches one request that reached the listener (path prefixes apply). Used by `listen()`. */
  dispatch(request: Request, local: boolean): Promise<Response>;
}

/**
 * An offline sandbox of the five APIs in this process: hand `sandbox.fetch`
 * to a client as its `fetch` (its credentials in `sandbox.credentials`), or
 * `listen()` to serve it over HTTP. State moves as the services' does, on the
 * sandbox's clock (`pace`, `advance()`); `inject()` adds faults, `reset()`
 * goes back to the seed, `close()` stops its timers and listener. Throws
 * `SandboxUsageError` on malformed options.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandboxWith(GENERATED_REQUEST_CHECKS, options);
}

/** A sandbox that checks requests with `requestChecks` (not exported by the entry: tests regenerate them from a changed spec). */
export function createSandboxWith(requestChecks: RequestChecks, options: SandboxOptions = {}): Sandbox {
  if (options === null || typeof options !== 'object') throw new SandboxUsageError('createSandbox(): options must be an object');
  const seed = checkSeed(options.seed);
  const clock = createClock({ pace: options.pace ?? 1 });
  const credentials = makeCredentials(options.credentials);
  const routeRequest = createRequestRouter(options.baseUrls, credentials);
  const streamOrigins = createStreamOrigins(SANDBOX_STREAM_ORIGINS);
  const context: BehaviourContext = { clock, credentials, newId: () => crypto.randomUUID(), streamOrigins };
  const behaviours = new Map<SandboxApi, ApiBehaviour>(createBehaviours(context, seed).map((behaviour) => [behaviour.api, behaviour]));
  const faults = createFaultPlan();
  const violations: Violation[] = [];
  let closed = false;
  /** Aborted by close(): the real-time waits of faults listen to it, so none outlives the sandbox. */
  const closing = new AbortController();
  const ensureOpen = () => {
    if (closed) throw new SandboxUsageError('the sandbox is closed');
  };

  /** `injected` answers are faults asked for by a test: they are off-spec on purpose and not validated. */
  function answer(behaviour: ApiBehaviour, operationId: string, produce: () => SandboxAnswer, injected = false): Response {
    let result: SandboxAnswer;
    try {
      result = produce();
    } catch (error) {
      if (!(error instanceof SandboxHttpError)) {
        const problem = `handler failed: ${error instanceof Error ? error.message : String(error)}`;
        violations.push({ api: behaviour.api, operationId, status: 500, problem });
        throw new SandboxViolationError(operationId, problem);
      }
      result = behaviour.errorAnswer(error);
    }
    const headers: Record<string, string> = { ...result.headers };
    if (result.body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.validate !== undefined && !injected) {
      try {
        options.validate({ api: behaviour.api, operationId, status: result.status, headers, body: result.body });
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        violations.push({ api: behaviour.api, operationId, status: result.status, problem });
        throw new SandboxViolationError(operationId, problem);
      }
    }
    const text = result.body === undefined ? null : JSON.stringify(result.body);
    return new Response(text, { status: result.status, headers });
  }

  /** One request: routed, faults applied, answered; a HEAD answer carries no body, a slow-body fault trickles it. */
  async function dispatch(request: Request, local: boolean): Promise<Response> {
    const { response, bodyDelayMs } = await answerOnce(request, local);
    if (request.method === 'HEAD') return new Response(null, { status: response.status, headers: response.headers });
    if (bodyDelayMs === undefined || response.body === null) return response;
    const bytes = new Uint8Array(await response.arrayBuffer());
    return new Response(slowBody(bytes, bodyDelayMs, [request.signal, closing.signal]), { status: response.status, headers: response.headers });
  }

  /**
   * `501 NOT_IMPLEMENTED` in the API's error body, naming the operation: the
   * spec has it, the sandbox has no handler for it yet. Not checked against
   * the spec, which documents no 501.
   */
  function notModelled(behaviour: ApiBehaviour, operationId: string, method: string, pathTemplate: string): Response {
    const problem = `the sandbox does not model ${operationId} (${method} ${pathTemplate}) yet`;
    return answer(behaviour, operationId, () => {
      throw new SandboxHttpError(501, 'NOT_IMPLEMENTED', problem);
    }, true);
  }

  async function answerOnce(request: Request, local: boolean): Promise<{ response: Response; bodyDelayMs?: number | undefined }> {
    ensureOpen();
    clock.runDue();
    const found = routeRequest(request, local);
    const behaviour = behaviours.get(found.api)!;
    if (found.kind !== 'matched') {
      const status = found.kind === 'bad_method' ? 405 : 404;
      const text = found.kind === 'bad_method' ? `${request.method} is not allowed here` : `no operation at ${found.target}`;
      return { response: answer(behaviour, '(unrouted)', () => {
        throw new SandboxHttpError(status, status === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED', text);
      }) };
    }
    const { operationId } = found;
    const fault = faults.take(found.api, operationId);
    if (fault?.delayMs !== undefined) await delay(fault.delayMs, [request.signal, closing.signal]);
    if (fault?.drop) throw new InjectedDrop();

    await behaviour.ready?.();
    const bodyText = request.body === null ? '' : await request.text();
    // Reading the body waited: a sandbox closed meanwhile answers nothing more.
    ensureOpen();
    // The whole path as sent, base path included: what a streams client signs, under any base URL.
    const auth = behaviour.authenticate({ operationId, method: request.method, target: pathWithQuery(request.url), headers: request.headers, bodyText });
    if (typeof auth !== 'string') return { response: answer(behaviour, operationId, () => auth) };
    const bodyDelayMs = fault?.bodyDelayMs;
    if (fault?.status !== undefined) {
      const retryAfter = fault.retryAfter === undefined ? undefined : { 'Retry-After': String(fault.retryAfter) };
      const response = answer(behaviour, operationId, () => {
        throw new SandboxHttpError(fault.status!, 'INJECTED_FAULT', `injected ${fault.status}`, undefined, retryAfter);
      }, true);
      return { response, bodyDelayMs };
    }
    const handler = behaviour.handlers[operationId];
    if (handler === undefined) {
      // An operation of the spec the sandbox does not model yet (a spec bump ahead of its handler):
      // a clear answer everywhere the sandbox runs, type-checked or not (tsx, MSW, the docs' Try it).
      return { response: notModelled(behaviour, operationId, request.method, found.pathTemplate) };
    }
    const response = answer(behaviour, operationId, () => {
      const sandboxRequest: SandboxRequest = {
        api: found.api,
        operationId,
        method: request.method,
        pathParams: found.pathParams,
        query: new URLSearchParams(queryOf(found.target)),
        queryParams: {},
        headers: request.headers,
        body: parseBody(bodyText),
        authenticated: auth === 'ok',
        reportSigning: fault?.reports,
      };
      // The spec's own checks first (generated from the bundle); handlers see only requests their spec allows, with its defaults.
      const check = requestChecks[found.api][operationId];
      const checked = check === undefined ? undefined : applyRequestCheck(check, sandboxRequest);
      if (checked?.problem !== undefined) throw behaviour.refuseRequest(checked.problem, operationId);
      return handler(checked === undefined ? sandboxRequest : { ...sandboxRequest, queryParams: checked.parameters.query });
    });
    return { response, bodyDelayMs };
  }

  const listeners = new Set<SandboxListener>();
  /** The streams API's live WebSocket, made with the first listener (it needs Node's `ws`). */
  let liveSocket: { upgrade: NonNullable<ListenTarget['upgrade']>; close(): void } | undefined;
  /** The streams API's live feed: served by the listener's WebSocket, and in process to streams on a client with this `fetch`. */
  const liveFeed = createLiveFeed({ clock, origins: streamOrigins, dispatch, reportSigning: () => faults.takeLiveReport() ?? 'don' });
  const sandboxFetch = linkedSandboxFetch(liveFeed, () => clock.now(), (request) => dispatch(request, false));

  return {
    credentials,
    reportTrust: sandboxReportTrust(),
    clock,
    violations,
    fetch: sandboxFetch,
    dispatch,
    async listen(listenOptions) {
      ensureOpen();
      // Node's modules come through `#node-server`: browser and worker builds of the sandbox hold none of them.
      liveSocket ??= createLiveSocketServer(liveFeed, await requireNodeServer());
      const listener = await startListener({ dispatch, upgrade: liveSocket.upgrade }, listenOptions);
      listeners.add(listener);
      return {
        url: listener.url,
        baseUrls: listener.baseUrls,
        close: () => {
          listeners.delete(listener);
          return listener.close();
        },
      };
    },
    advance: (ms) => clock.advance(ms),
    inject: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    routes: sandboxRoutes,
    streamOrigins,
    reset() {
      clock.clear();
      faults.clear();
      violations.length = 0;
      for (const behaviour of behaviours.values()) behaviour.reset();
    },
    close() {
      closed = true;
      closing.abort(new SandboxUsageError('the sandbox is closed'));
      clock.clear();
      faults.clear();
      // Listeners finish closing on their own; nothing waits on them.
      for (const listener of listeners) void listener.close();
      listeners.clear();
      liveSocket?.close();
      liveFeed.close();
    },
  };
}

function makeCredentials(given: SandboxOptions['credentials'] = {}): SandboxCredentials {
  const secret = () => `sandbox_${crypto.randomUUID().replaceAll('-', '')}`;
  return {
    channels: { apiKey: given.channels?.apiKey ?? secret() },
    streams: { apiKey: given.streams?.apiKey ?? crypto.randomUUID(), apiSecret: given.streams?.apiSecret ?? secret() },
    policy: { apiKey: given.policy?.apiKey ?? secret() },
  };
}

function queryOf(target: string): string {
  const start = target.indexOf('?');
  return start < 0 ? '' : target.slice(start + 1);
}

/** The JSON body; a body that is not JSON is a bad request, answered by the API's own error. */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new SandboxHttpError(400, 'BAD_REQUEST', 'the request body is not valid JSON');
  }
}
