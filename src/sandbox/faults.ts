import { describe } from '../core/options.js';
import { SandboxUsageError } from './errors.js';
import { operationKey, operationsNamed, unknownRouteProblem } from './fault-routes.js';
import type { ReportSigning } from './streams/don.js';
import { LIVE_REPORT_OPERATION, REST_REPORT_OPERATIONS } from './streams/report-operations.js';
import type { SandboxApi } from './types.js';

/** A fault to inject into the next matching requests, so users can test their own retry and timeout handling. */
export interface FaultSpec {
  /**
   * Which requests: an operationId (`getWallet`), the name of the SDK helper
   * that calls it (`finalizeOperation`), or `METHOD /path/template`
   * (`GET /wallets/{wallet_id}`) of one of the sandbox's APIs; anything else
   * is refused with the closest names. `sandbox.routes()` lists them all.
   * Default: every request.
   */
  route?: string;
  /** Answer this status (100–599, with the API's error body) instead of the real answer. */
  status?: number;
  /**
   * How many matching requests the fault applies to: a whole number >= 1, or
   * `Infinity` (until its handle's `remove()`, `clearFaults()` or `reset()`). Default 1.
   */
  times?: number;
  /** `Retry-After` header on the injected answer, in whole seconds (needs `status`). */
  retryAfter?: number;
  /** Wait this long (real ms) before answering. */
  delayMs?: number;
  /** Drop the connection instead of answering (a network error); not with `status` or `bodyDelayMs`, which it would hide. */
  drop?: boolean;
  /**
   * A slow body: the status, the headers and the first half of the body come
   * at once, the rest after this many (real) ms. For testing timeouts that
   * must cover the body, not only the headers.
   */
  bodyDelayMs?: number;
  /**
   * Serve the streams API's reports forged, over REST (latest, at a time,
   * bulk, page) and on the live stream (`streamReports`: each report a new
   * second brings counts once in `times`, every origin sending the same
   * forged copy): `'stranger'`, one signature by a key that is no signer's;
   * or `'too_few_signatures'`, f signatures instead of f + 1. With `verify`
   * the SDK refuses them (`not_a_signer`, `signature_count`); for testing
   * your handling of forged reports. Requests that carry no report (a
   * stream's `HEAD /` and upgrade, other APIs) neither see it nor use it up;
   * on the live stream only the forging applies (its `delayMs` or
   * `bodyDelayMs` hold REST answers alone).
   */
  reports?: ReportSigning;
}

const FIELDS: readonly (keyof FaultSpec)[] = ['route', 'status', 'times', 'retryAfter', 'delayMs', 'drop', 'bodyDelayMs', 'reports'];
const REPORT_FAULTS: readonly ReportSigning[] = ['stranger', 'too_few_signatures'];

/**
 * How an injected dropped connection surfaces: through `sandbox.fetch` as the
 * TypeError a runtime's `fetch` rejects with on a network failure, and
 * through the listener as a socket closed without an answer.
 */
export class InjectedDrop extends TypeError {
  constructor() {
    super('fetch failed', { cause: new Error('sandbox: connection dropped (injected fault)') });
    this.name = 'TypeError';
  }
}

/** What `sandbox.inject()` returns: the fault, to end when the test says so. */
export interface FaultHandle {
  /**
   * Ends this fault: matching requests are answered as usual from now on;
   * other faults and the sandbox's data stay as they are. Calling it again,
   * or once the fault was used up, cleared or reset, does nothing.
   */
  remove(): void;
}

export interface ActiveFault extends Required<Pick<FaultSpec, 'times'>>, Omit<FaultSpec, 'times'> {
  remaining: number;
  /** `api operationId` of each operation `route` names; `undefined` for every request. */
  operations: ReadonlySet<string> | undefined;
}

export interface FaultPlan {
  /** Adds a fault, and returns its handle; a malformed one is a SandboxUsageError naming the field, and nothing is added. */
  add(spec: FaultSpec): FaultHandle;
  /** The fault that applies to this request, counted as used; `undefined` when none. */
  take(api: SandboxApi, operationId: string): ActiveFault | undefined;
  /** How the live stream's next report is signed, when a `reports` fault applies to it (counted as used). */
  takeLiveReport(): ReportSigning | undefined;
  /** Ends every fault. */
  clear(): void;
}

export function createFaultPlan(): FaultPlan {
  let faults: ActiveFault[] = [];
  /** Counts `fault` (if any) as used once: gone when that was its last time. */
  const use = (fault: ActiveFault | undefined): ActiveFault | undefined => {
    if (fault === undefined) return undefined;
    fault.remaining--;
    if (fault.remaining === 0) faults = faults.filter((candidate) => candidate !== fault);
    return fault;
  };
  return {
    add(spec) {
      checkFault(spec);
      const times = spec.times ?? 1;
      const operations = spec.route === undefined ? undefined : operationsNamed(spec.route);
      const fault: ActiveFault = { ...spec, times, remaining: times, operations };
      faults.push(fault);
      // By identity: a fault used up, cleared or reset is gone already, and removing it again removes nothing else.
      return { remove: () => void (faults = faults.filter((candidate) => candidate !== fault)) };
    },
    take(api, operationId) {
      const key = operationKey(api, operationId);
      const carriesReports = REST_REPORT_KEYS.has(key);
      return use(faults.find((candidate) => applies(candidate, key) && (candidate.reports === undefined || carriesReports)));
    },
    takeLiveReport() {
      return use(faults.find((candidate) => candidate.reports !== undefined && applies(candidate, LIVE_REPORT_KEY)))?.reports;
    },
    clear() {
      faults = [];
    },
  };
}

const REST_REPORT_KEYS: ReadonlySet<string> = new Set(REST_REPORT_OPERATIONS.map((operationId) => operationKey('streams', operationId)));
const LIVE_REPORT_KEY = operationKey('streams', LIVE_REPORT_OPERATION);

/** Whether `fault`'s route covers the operation `key` (`api operationId`); a fault without a route covers every one. */
function applies(fault: ActiveFault, key: string): boolean {
  return fault.operations === undefined || fault.operations.has(key);
}

/**
 * Refuses a fault that could not do what it says: a misspelt route or field
 * would never fire, and a user's retry test would pass without testing
 * anything; a field another one hides would be silently ignored.
 */
function checkFault(spec: unknown): asserts spec is FaultSpec {
  const refuse = (problem: string) => new SandboxUsageError(`inject(): ${problem}`);
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw refuse(`expected a fault object ({ ${FIELDS.join(', ')} }), got ${describe(spec)}`);
  }
  const fault = spec as Record<string, unknown>;
  const unknown = Object.keys(fault).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw refuse(`unknown field '${unknown.slice(0, 40)}' (known: ${FIELDS.join(', ')})`);
  const { route, status, times, retryAfter, drop } = fault;
  if (route !== undefined) {
    if (typeof route !== 'string') throw refuse(`route must be a string (an operationId or 'METHOD /path/template'), got ${describe(route)}`);
    const problem = unknownRouteProblem(route);
    if (problem !== undefined) throw refuse(problem);
  }
  if (status !== undefined && !(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)) {
    throw refuse(`status must be an HTTP status code (a whole number from 100 to 599), got ${describe(status)}`);
  }
  if (times !== undefined && times !== Number.POSITIVE_INFINITY && !(typeof times === 'number' && Number.isInteger(times) && times >= 1)) {
    throw refuse(`times must be a whole number >= 1, or Infinity, got ${describe(times)}`);
  }
  for (const field of ['delayMs', 'bodyDelayMs'] as const) {
    const value = fault[field];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw refuse(`${field} must be a finite number of ms >= 0, got ${describe(value)}`);
    }
  }
  // Retry-After is whole seconds (RFC 9110); a client reads "1.5" as no Retry-After at all.
  if (retryAfter !== undefined && !(typeof retryAfter === 'number' && Number.isSafeInteger(retryAfter) && retryAfter >= 0)) {
    throw refuse(`retryAfter must be a whole number of seconds >= 0, got ${describe(retryAfter)}`);
  }
  if (retryAfter !== undefined && status === undefined) throw refuse('retryAfter needs a status: the Retry-After header goes on the injected answer');
  if (drop !== undefined && typeof drop !== 'boolean') throw refuse(`drop must be true or false, got ${describe(drop)}`);
  if (drop === true && (status !== undefined || fault.bodyDelayMs !== undefined)) {
    throw refuse(`drop: true sends no answer, so its ${status !== undefined ? 'status' : 'bodyDelayMs'} would never be seen; give one or the other`);
  }
  if (fault.reports !== undefined && !(REPORT_FAULTS as readonly unknown[]).includes(fault.reports)) {
    throw refuse(`reports must be one of ${REPORT_FAULTS.map((k) => `'${k}'`).join(', ')}, got ${describe(fault.reports)}`);
  }
  if (fault.reports !== undefined && (status !== undefined || drop === true)) {
    throw refuse(`reports: the forged reports would never be seen behind its ${status !== undefined ? 'status' : 'drop'}; give one or the other`);
  }
  if (fault.reports !== undefined && typeof route === 'string') {
    const named = operationsNamed(route);
    if (![...REST_REPORT_KEYS, LIVE_REPORT_KEY].some((key) => named.has(key))) {
      const carriers = [...REST_REPORT_OPERATIONS, `${LIVE_REPORT_OPERATION} (the live stream)`].join(', ');
      throw refuse(`reports: route '${route.slice(0, 200)}' serves no reports, so forged ones would never be seen; name one that does (${carriers}) or none`);
    }
  }
  if (status === undefined && drop !== true && fault.delayMs === undefined && fault.bodyDelayMs === undefined && fault.reports === undefined) {
    throw refuse('give a status, drop: true, a delayMs, a bodyDelayMs or reports');
  }
}

/**
 * Runs `done` after `ms`, or `failed` with the reason of the first of
 * `signals` to abort (the request's, the sandbox's close). Either way the
 * timer and the listeners go, so nothing outlives the request or the
 * sandbox. The returned function cancels it all.
 */
function afterDelay(ms: number, signals: readonly AbortSignal[], done: () => void, failed: (reason: unknown) => void): () => void {
  const early = signals.find((signal) => signal.aborted);
  if (early !== undefined) {
    failed(early.reason);
    return () => undefined;
  }
  const listeners = signals.map((signal) => {
    const onAbort = () => {
      cancel();
      failed(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
  const timer = setTimeout(() => {
    cancel();
    done();
  }, ms);
  function cancel(): void {
    clearTimeout(timer);
    for (const remove of listeners) remove();
  }
  return cancel;
}

/** Waits `ms` (a `delayMs` fault); rejects as soon as one of `signals` aborts, with its reason. */
export function delay(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve, reject) => {
    afterDelay(ms, signals, resolve, reject);
  });
}

/**
 * A body whose first half comes at once and the rest after `delayMs`. As a
 * runtime's `fetch` does, an aborted signal (the request's, or the sandbox's
 * close) errors a body still arriving; cancelling it stops the timer.
 */
export function slowBody(bytes: Uint8Array, delayMs: number, signals: readonly AbortSignal[]): ReadableStream<Uint8Array> {
  const half = Math.ceil(bytes.length / 2);
  let cancel: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      cancel = afterDelay(
        delayMs,
        signals,
        () => {
          if (half < bytes.length) controller.enqueue(bytes.subarray(half));
          controller.close();
        },
        (reason) => controller.error(reason),
      );
    },
    cancel() {
      cancel?.();
    },
  });
}
