import { SandboxUsageError } from './errors.js';

/** A fault to inject into the next matching requests, so users can test their own retry and timeout handling. */
export interface FaultSpec {
  /** Which requests: an operationId (`getWallet`) or `METHOD /path/template`. Default: every request. */
  route?: string;
  /** Answer this status (with the API's error body) instead of the real answer. */
  status?: number;
  /** How many matching requests the fault applies to. Default 1. */
  times?: number;
  /** `Retry-After` header, in seconds, on the injected answer. */
  retryAfter?: number;
  /** Wait this long (real ms) before answering. */
  delayMs?: number;
  /** Drop the connection instead of answering (a network error). */
  drop?: boolean;
  /**
   * A slow body: the status, the headers and the first half of the body come
   * at once, the rest after this many (real) ms. For testing timeouts that
   * must cover the body, not only the headers.
   */
  bodyDelayMs?: number;
}

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

export interface ActiveFault extends Required<Pick<FaultSpec, 'times'>>, Omit<FaultSpec, 'times'> {
  remaining: number;
}

export interface FaultPlan {
  add(spec: FaultSpec): void;
  /** The fault that applies to this request, counted as used; `undefined` when none. */
  take(operationId: string, method: string, pathTemplate: string): ActiveFault | undefined;
  clear(): void;
}

export function createFaultPlan(): FaultPlan {
  let faults: ActiveFault[] = [];
  return {
    add(spec) {
      const times = spec.times ?? 1;
      if (!Number.isInteger(times) || times < 1) throw new SandboxUsageError(`inject(): times must be an integer >= 1, got ${String(times)}`);
      if (spec.status !== undefined && (!Number.isInteger(spec.status) || spec.status < 100 || spec.status > 599)) {
        throw new SandboxUsageError(`inject(): status must be an HTTP status code, got ${String(spec.status)}`);
      }
      for (const field of ['delayMs', 'bodyDelayMs', 'retryAfter'] as const) {
        const value = spec[field];
        if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
          throw new SandboxUsageError(`inject(): ${field} must be a finite number >= 0, got ${String(value)}`);
        }
      }
      if (spec.status === undefined && !spec.drop && spec.delayMs === undefined && spec.bodyDelayMs === undefined) {
        throw new SandboxUsageError('inject(): give a status, drop: true, a delayMs or a bodyDelayMs');
      }
      faults.push({ ...spec, times, remaining: times });
    },
    take(operationId, method, pathTemplate) {
      const fault = faults.find(
        (candidate) =>
          candidate.route === undefined || candidate.route === operationId || candidate.route === `${method} ${pathTemplate}`,
      );
      if (fault === undefined) return undefined;
      fault.remaining--;
      if (fault.remaining === 0) faults = faults.filter((candidate) => candidate !== fault);
      return fault;
    },
    clear() {
      faults = [];
    },
  };
}

/**
 * A body whose first half comes at once and the rest after `delayMs`. As a
 * runtime's `fetch` does, the request's signal errors a body still arriving;
 * cancelling it stops the timer.
 */
export function slowBody(bytes: Uint8Array, delayMs: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const half = Math.ceil(bytes.length / 2);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      onAbort = () => {
        clearTimeout(timer);
        controller.error(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort!);
        if (half < bytes.length) controller.enqueue(bytes.subarray(half));
        controller.close();
      }, delayMs);
    },
    cancel() {
      clearTimeout(timer);
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    },
  });
}
