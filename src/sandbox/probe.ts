/**
 * What the sandbox does not model of its specs yet, found by calling its
 * handlers (for `npm run spec:bump` and the coverage tests; not exported by
 * the package): every operation of the generated tables with no handler, and
 * every documented query parameter a handler never reads. Each parameter is
 * sent alone (with the operation's required ones) and counts as unread when
 * the handler answered 2xx without touching it, after each creation was
 * called once with its example so that lists have items to filter. An answer
 * that is not 2xx (a path parameter naming nothing, a value the check
 * refuses), or a list that is empty without any filter (a filter is read per
 * item), proves nothing: inconclusive.
 */
import { table as channelsTable } from '../../generated/cli/channels.js';
import { table as coordinatorTable } from '../../generated/cli/policy-coordinator.js';
import { table as evaluationTable } from '../../generated/cli/policy-evaluation.js';
import { table as reportingTable } from '../../generated/cli/policy-reporting.js';
import { table as streamsTable } from '../../generated/cli/streams.js';
import { createBehaviours } from './behaviours.js';
import { createClock } from './clock.js';
import { applyRequestCheck, GENERATED_REQUEST_CHECKS } from './request-check.js';
import { SANDBOX_STREAM_ORIGINS } from './streams/live.js';
import { createStreamOrigins } from './streams/origins.js';
import type { ApiBehaviour, SandboxApi, SandboxRequest } from './types.js';

interface TableParam {
  name: string;
  in: string;
  required: boolean;
  schema: { type?: string; enum?: unknown[]; default?: unknown; pattern?: string; format?: string; minimum?: number; items?: unknown };
  example?: unknown;
}
interface TableOperation {
  id: string;
  method: string;
  path: string;
  params: TableParam[];
  body?: { example?: unknown; fields?: { name: string; required: boolean }[] };
}

const TABLES: Record<SandboxApi, { operations: readonly TableOperation[] }> = {
  channels: channelsTable as never,
  streams: streamsTable as never,
  'policy-coordinator': coordinatorTable as never,
  'policy-evaluation': evaluationTable as never,
  'policy-reporting': reportingTable as never,
};

export interface SandboxProbe {
  /** Operations of the spec with no handler (the sandbox answers them 501). */
  missingHandlers: { api: SandboxApi; operationId: string; method: string; path: string }[];
  /** Documented query parameters a handler answered 2xx without reading. */
  unreadParameters: { api: SandboxApi; operationId: string; parameter: string }[];
  /** Parameters whose probe proved nothing (the handler did not answer 2xx). */
  inconclusive: { api: SandboxApi; operationId: string; parameter: string }[];
}

/** Probes every operation of `apis` (default: all). */
export function probeSandbox(apis: readonly SandboxApi[] = Object.keys(TABLES) as SandboxApi[]): SandboxProbe {
  const clock = createClock({ pace: 0 });
  const credentials = {
    channels: { apiKey: 'probe' },
    streams: { apiKey: 'probe', apiSecret: 'probe' },
    policy: { apiKey: 'probe' },
  };
  const context = { clock, credentials, newId: () => crypto.randomUUID(), streamOrigins: createStreamOrigins(SANDBOX_STREAM_ORIGINS) };
  const behaviours = new Map(createBehaviours(context).map((behaviour) => [behaviour.api, behaviour]));
  const probe: SandboxProbe = { missingHandlers: [], unreadParameters: [], inconclusive: [] };
  try {
    for (const api of apis) {
      const behaviour = behaviours.get(api)!;
      const modelled = TABLES[api].operations.filter((operation) => behaviour.handlers[operation.id] !== undefined);
      for (const operation of TABLES[api].operations.filter((candidate) => !modelled.includes(candidate))) {
        probe.missingHandlers.push({ api, operationId: operation.id, method: operation.method, path: operation.path });
      }
      // Something to list first: each creation once, with its documented example, or only the
      // example's required fields where the whole one names other resources.
      for (const operation of modelled.filter((candidate) => candidate.method === 'POST')) {
        if (call(behaviour, api, operation) === undefined) call(behaviour, api, operation, undefined, requiredPart(operation));
      }
      for (const operation of modelled) {
        const params = operation.params.filter((candidate) => candidate.in === 'query');
        // A list with nothing in it reads no filter: its parameters prove nothing.
        const baseline = call(behaviour, api, operation);
        const listed = baseline !== undefined && !listsNothing(baseline.body);
        for (const param of params) {
          const where = { api, operationId: operation.id, parameter: param.name };
          const answer = listed ? call(behaviour, api, operation, param) : undefined;
          if (answer === undefined) probe.inconclusive.push(where);
          else if (!answer.reads.has(param.name)) probe.unreadParameters.push(where);
        }
      }
    }
  } finally {
    clock.clear();
  }
  return probe;
}

/**
 * Calls the operation's handler with its required query parameters and
 * `param`: its answer body and the query parameters it read, or undefined
 * when it did not answer 2xx.
 */
function call(
  behaviour: ApiBehaviour,
  api: SandboxApi,
  operation: TableOperation,
  param?: TableParam,
  body = operation.body?.example,
): { body: unknown; reads: Set<string> } | undefined {
  const sent = operation.params.filter((candidate) => candidate.in === 'query' && (candidate.required || candidate === param));
  const query = new URLSearchParams(sent.map((candidate) => [candidate.name, String(sampleOf(candidate))]));
  const pathParams = Object.fromEntries(
    operation.params.filter((candidate) => candidate.in === 'path').map((candidate) => [candidate.name, String(sampleOf(candidate))]),
  );
  const check = GENERATED_REQUEST_CHECKS[api][operation.id];
  const checked = check === undefined ? undefined : applyRequestCheck(check, { pathParams, query, headers: new Headers(), body });
  if (checked?.problem !== undefined) return undefined;
  const reads = new Set<string>();
  const queryParams = new Proxy(
    { ...(checked?.parameters.query ?? {}) },
    {
      get: (target, key, receiver) => (typeof key === 'string' && reads.add(key), Reflect.get(target, key, receiver)),
      has: (target, key) => (typeof key === 'string' && reads.add(key), Reflect.has(target, key)),
      ownKeys: (target) => (sent.forEach((candidate) => reads.add(candidate.name)), Reflect.ownKeys(target)),
    },
  );
  const request: SandboxRequest = {
    api,
    operationId: operation.id,
    method: operation.method,
    pathParams,
    query: recordingSearchParams(query, reads),
    queryParams,
    headers: new Headers(),
    body,
    authenticated: true,
  };
  try {
    const answer = behaviour.handlers[operation.id]!(request);
    return answer.status >= 200 && answer.status < 300 ? { body: answer.body, reads } : undefined;
  } catch {
    return undefined;
  }
}

/** The operation's body example with only its required fields. */
function requiredPart(operation: TableOperation): unknown {
  const example = operation.body?.example;
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return example;
  const required = new Set((operation.body?.fields ?? []).filter((field) => field.required).map((field) => field.name));
  return Object.fromEntries(Object.entries(example).filter(([name]) => required.has(name)));
}

/** True when `body` is a list answer whose items are none (an empty array, or an object whose only array is empty). */
function listsNothing(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  if (body === null || typeof body !== 'object') return false;
  const arrays = Object.values(body).filter(Array.isArray);
  return arrays.length > 0 && arrays.every((array) => array.length === 0);
}

/** `query`, recording each name a handler reads from it. */
function recordingSearchParams(query: URLSearchParams, reads: Set<string>): URLSearchParams {
  const recording = new URLSearchParams(query);
  for (const method of ['get', 'getAll', 'has'] as const) {
    const original = recording[method].bind(recording) as (name: string) => unknown;
    Object.defineProperty(recording, method, { value: (name: string) => (reads.add(name), original(name)) });
  }
  return recording;
}

/** A value the parameter's schema accepts: its example, first enum value, default, or one made for its type and pattern. */
function sampleOf(param: TableParam): unknown {
  const { schema } = param;
  if (param.example !== undefined) return param.example;
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  if (schema.format === 'uuid') return crypto.randomUUID();
  if (schema.pattern?.includes('0x[0-9a-fA-F]{40}')) return `0x${'11'.repeat(20)}`;
  if (schema.pattern?.startsWith('^[0-9]')) return '1';
  return 'probe';
}
