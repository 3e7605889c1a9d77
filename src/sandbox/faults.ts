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
      if (spec.status === undefined && !spec.drop && spec.delayMs === undefined) {
        throw new SandboxUsageError('inject(): give a status, drop: true or a delayMs');
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
