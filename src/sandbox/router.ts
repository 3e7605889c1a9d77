import { pathWithQuery } from '../core/auth.js';
import { operations as channelsOperations } from '../../generated/operations/channels.js';
import { operations as coordinatorOperations } from '../../generated/operations/policy-coordinator.js';
import { operations as evaluationOperations } from '../../generated/operations/policy-evaluation.js';
import { operations as reportingOperations } from '../../generated/operations/policy-reporting.js';
import { operations as streamsOperations } from '../../generated/operations/streams.js';
import { CHANNELS_DEFAULT_BASE_URL } from '../channels/client.js';
import { POLICY_DEFAULT_HOST } from '../policy/client.js';
import { STREAMS_BASE_URLS } from '../streams/client.js';
import { STREAMS_WS_URLS } from '../streams/report-stream/options.js';
import type { SandboxApi } from './types.js';

/** The operation tables generated from the specs: the sandbox routes from the same source as the clients. */
const OPERATION_TABLES: Record<SandboxApi, Record<string, { method: string; path: string }>> = {
  channels: channelsOperations,
  streams: streamsOperations,
  'policy-coordinator': coordinatorOperations,
  'policy-evaluation': evaluationOperations,
  'policy-reporting': reportingOperations,
};

/**
 * Where each API lives. A request reaches an API when its URL starts with one
 * of the API's default base URLs (what the clients use when given no
 * `baseUrl`), or, on any origin (the listener), with its local path prefix.
 * Longer prefixes are tried first: the coordinator's `/v1` holds the
 * evaluation and reporting APIs below it.
 */
export const DEFAULT_BASE_URLS: Record<SandboxApi, readonly string[]> = {
  channels: [CHANNELS_DEFAULT_BASE_URL],
  // The WebSocket hosts too, over HTTPS: their signed `HEAD /` (getStreamOrigins) is an operation of this spec.
  streams: [STREAMS_BASE_URLS.testnet, STREAMS_BASE_URLS.mainnet, ...Object.values(STREAMS_WS_URLS).map((url) => url.replace(/^wss:/, 'https:'))],
  'policy-coordinator': [`${POLICY_DEFAULT_HOST}/v1`],
  'policy-evaluation': [`${POLICY_DEFAULT_HOST}/v1/evaluation`],
  'policy-reporting': [`${POLICY_DEFAULT_HOST}/v1/reporting`],
};

/** Path prefixes on the listener's origin. Streams sits at the root: the service's own clients drop any base path. */
export const LOCAL_PREFIXES: Record<SandboxApi, string> = {
  channels: '/channels/v1',
  streams: '',
  'policy-coordinator': '/v1',
  'policy-evaluation': '/v1/evaluation',
  'policy-reporting': '/v1/reporting',
};

interface Mount {
  api: SandboxApi;
  /** An absolute URL prefix, or a path prefix that matches on any origin. */
  prefix: string;
  absolute: boolean;
}

const MOUNTS: readonly Mount[] = [
  ...Object.entries(DEFAULT_BASE_URLS).flatMap(([api, urls]) =>
    urls.map((prefix) => ({ api: api as SandboxApi, prefix, absolute: true })),
  ),
  ...Object.entries(LOCAL_PREFIXES).map(([api, prefix]) => ({ api: api as SandboxApi, prefix, absolute: false })),
].sort((a, b) => Number(b.absolute) - Number(a.absolute) || b.prefix.length - a.prefix.length);

interface CompiledRoute {
  operationId: string;
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  /** Literal segments win over parameters: `/identities/batch` before `/identities/{identity_id}`. */
  literalSegments: number;
}

function compile(operationId: string, method: string, template: string): CompiledRoute {
  const names: string[] = [];
  let literalSegments = 0;
  const source = template
    .split('/')
    .map((segment) =>
      segment.replace(/\{([^}]+)\}|[^{]+/g, (part, name: string | undefined) => {
        if (name !== undefined) {
          names.push(name);
          return '([^/]+)';
        }
        literalSegments++;
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }),
    )
    .join('/');
  return { operationId, method, template, pattern: new RegExp(`^${source}$`), names, literalSegments };
}

const ROUTES: Record<SandboxApi, CompiledRoute[]> = Object.fromEntries(
  Object.entries(OPERATION_TABLES).map(([api, table]) => [
    api,
    Object.entries(table)
      .map(([operationId, { method, path }]) => compile(operationId, method, path))
      .sort((a, b) => b.literalSegments - a.literalSegments),
  ]),
) as Record<SandboxApi, CompiledRoute[]>;

/** Every operation of every API, with its API, method, path template and the pattern its paths match (for `inject()` and `sandbox.routes()`). */
export function allRoutes(): readonly (Pick<CompiledRoute, 'operationId' | 'method' | 'template' | 'pattern'> & { api: SandboxApi })[] {
  return Object.entries(ROUTES).flatMap(([api, routes]) => routes.map((compiled) => ({ ...compiled, api: api as SandboxApi })));
}

/** Every operationId of every API, for coverage checks. */
export function operationIdsOf(api: SandboxApi): string[] {
  return Object.keys(OPERATION_TABLES[api]);
}

export type RouteResult =
  | { kind: 'matched'; api: SandboxApi; operationId: string; pathTemplate: string; pathParams: Record<string, string>; target: string }
  | { kind: 'no_api' }
  | { kind: 'no_route'; api: SandboxApi; target: string }
  | { kind: 'bad_method'; api: SandboxApi; target: string; allowed: string[] };

/**
 * Finds the API and operation of a request. `url` is the URL as sent
 * (absolute); `target` in the result is the path and query below the API's
 * mount point, exactly as sent (a signature covers it byte for byte).
 * `local` is true for requests that reached the listener, where the path
 * prefixes apply; elsewhere only the default base URLs do.
 */
export function route(method: string, url: string, local: boolean): RouteResult {
  const mount = MOUNTS.find(
    (candidate) => (candidate.absolute || local) && startsAtBoundary(candidate.absolute ? url : pathWithQuery(url), candidate.prefix),
  );
  if (mount === undefined) return { kind: 'no_api' };
  const below = (mount.absolute ? url : pathWithQuery(url)).slice(mount.prefix.length) || '/';
  return routeIn(mount.api, method, below.startsWith('/') ? below : `/${below}`);
}

/** The operation of `api` that `target` (path and query below the API's base URL, as sent) names. */
export function routeIn(api: SandboxApi, method: string, target: string): Exclude<RouteResult, { kind: 'no_api' }> {
  const queryStart = target.indexOf('?');
  const path = queryStart < 0 ? target : target.slice(0, queryStart);
  const allowed: string[] = [];
  for (const candidate of ROUTES[api]) {
    const match = candidate.pattern.exec(path);
    if (match === null) continue;
    if (candidate.method !== method) {
      allowed.push(candidate.method);
      continue;
    }
    const pathParams: Record<string, string> = {};
    candidate.names.forEach((name, index) => {
      pathParams[name] = safeDecode(match[index + 1]!);
    });
    return { kind: 'matched', api, operationId: candidate.operationId, pathTemplate: candidate.template, pathParams, target };
  }
  return allowed.length > 0 ? { kind: 'bad_method', api, target, allowed } : { kind: 'no_route', api, target };
}

/** `text` starts with `prefix`, and the prefix ends at a path segment (the end, `/` or `?` follows). */
export function startsAtBoundary(text: string, prefix: string): boolean {
  if (!text.startsWith(prefix)) return false;
  const next = text.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
