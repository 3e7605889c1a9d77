/**
 * Which API a request through `sandbox.fetch` is for, whatever base URL its
 * client was given. Production code sets its own `baseUrl` (the channels API
 * lives at each organisation's address, e.g. `https://acme.example/v1`); a
 * test swaps in `sandbox.fetch` and changes nothing else. So, in this order:
 *
 * 1. a base URL named in `createSandbox({ baseUrls })` serves its API;
 * 2. an API's default base URL (what a client uses without `baseUrl`), or on
 *    the listener its path prefix, serves that API (`router.ts`);
 * 3. otherwise the path alone decides, under any origin: the operation paths
 *    of every API are tried below every `/` of the path. Where two APIs have
 *    the path (`GET /v1/wallets` is channels' and the policy coordinator's),
 *    what the request carries settles it: the API key (the sandbox issues one
 *    per API), then the base path each API's client uses (`/v1`,
 *    `/v1/evaluation`, `/v1/reporting`).
 *
 * The base path must be one the real service has (`base-paths.ts`): a
 * doubled `/v1`, or a policy host with a path, would get a 404 in
 * production, so here it is a SandboxUsageError naming the segment and the
 * `baseUrl` to pass, never an answer. The same goes for such a path below a
 * base URL of steps 1 and 2, whose API has no operation there. A policy API
 * below a path without its own base path is a proxy's (the policy client's
 * per-API `baseUrls`), served; where two policy APIs have the path, the
 * base path named in `createSandbox({ baseUrls: { policy: { … } } })` says
 * which, on its own origin and on any other (the listener's).
 *
 * A request none of these serve is a SandboxUsageError naming the URL and
 * the fix: a test must fail with the reason, not with a connection error.
 */
import { apiKeyOf } from './auth.js';
import {
  baseUrlFix,
  basePathProblem,
  isProxiedPolicyBase,
  OWN_BASE_PATH,
  policyApiName,
  type BasePathProblem,
  type PolicyApiName,
} from './base-paths.js';
import { namedBaseUrls, type OptionKey } from './base-url-rules.js';
import type { SandboxCredentials } from './context.js';
import { SandboxUsageError } from './errors.js';
import { pathWithQuery } from '../core/auth.js';
import { DEFAULT_BASE_URLS, route, routeIn, startsAtBoundary, type RouteResult } from './router.js';
import type { SandboxApi } from './types.js';

/** Base URLs the sandbox serves besides the defaults, each fit for that client's `baseUrl` option. */
export interface SandboxBaseUrlsOption {
  /** The channels client's `baseUrl`, e.g. `https://acme.example/v1`. */
  channels?: string;
  /** The streams client's `baseUrl`. */
  streams?: string;
  /** The policy client's `baseUrl` (the host; its APIs are below `/v1`, `/v1/evaluation`, `/v1/reporting`). */
  policy?: string;
}

/** One policy API's whole base URL each, as the policy client's `baseUrls` option takes them (a proxy in front of that API). */
export type SandboxPolicyBaseUrls = Partial<Record<PolicyApiName, string>>;

/**
 * `createSandbox({ baseUrls })`: the base URLs of SandboxBaseUrlsOption, and
 * for policy either its host or the per-API base URLs of its client's
 * `baseUrls` option (`{ evaluation: 'https://proxy.acme.example/policy' }`).
 */
export interface SandboxServedBaseUrls extends Omit<SandboxBaseUrlsOption, 'policy'> {
  /** The policy host, or the base URL of each policy API that a proxy serves, as the policy client's `baseUrls` names them. */
  policy?: string | SandboxPolicyBaseUrls;
}

type Served = Exclude<RouteResult, { kind: 'no_api' }>;

/** Finds the API and operation of a request; throws a SandboxUsageError when the sandbox cannot serve it. */
export type RequestRouter = (request: Request, local: boolean) => Served;

const POLICY_APIS: readonly SandboxApi[] = ['policy-coordinator', 'policy-evaluation', 'policy-reporting'];

export function createRequestRouter(baseUrls: SandboxServedBaseUrls | undefined, credentials: SandboxCredentials): RequestRouter {
  const configured = configuredMounts(baseUrls);
  // `api basePath` of each policy API's own base URL: on another origin (the listener), the same base path is that API's too.
  const named = new Set(
    configured.filter((mount) => mount.perApi).map((mount) => namedPathKey(mount.api, new URL(mount.prefix).pathname.replace(/\/+$/, ''))),
  );
  return (request, local) => {
    const mounted = mountedRoute(configured, request, local);
    if (mounted.kind === 'matched' || mounted.kind === 'bad_method') return mounted;
    return routeByPath(request, credentials, named, mounted.kind === 'no_route' ? { unmatched: mounted, local } : undefined);
  };
}

const namedPathKey = (api: SandboxApi, basePath: string) => `${api} ${basePath}`;

/** The route below a base URL of `createSandbox({ baseUrls })`, a default one, or (on the listener) a path prefix; `no_api` when none holds the URL. */
function mountedRoute(configured: readonly Mount[], request: Request, local: boolean): RouteResult {
  const { method, url } = request;
  const mount = configured.find((candidate) => startsAtBoundary(url, candidate.prefix));
  if (mount === undefined) return route(method, url, local);
  const below = url.slice(mount.prefix.length) || '/';
  return routeIn(mount.api, method, below.startsWith('/') ? below : `/${below}`);
}

interface Candidate {
  api: SandboxApi;
  /** The base path below which the operation path matched. */
  basePath: string;
  result: Extract<Served, { kind: 'matched' | 'bad_method' }>;
  /** Why the real service would not serve it there; `undefined` when it would. */
  problem: BasePathProblem | undefined;
  /** A policy API below a proxy's base path (`isProxiedPolicyBase`): served, but the weakest reading of the path. */
  proxied: boolean;
  /** The base path of a base URL named in `createSandbox({ baseUrls })` for this API. */
  named: boolean;
}

/**
 * A request under a base URL whose API has no operation at its path: the
 * route of that base URL (a 404 of its API), and whether the request reached
 * the listener, whose origin serves any API by its path as an unknown one does.
 */
interface Unmatched {
  unmatched: Extract<Served, { kind: 'no_route' }>;
  local: boolean;
}

function routeByPath(request: Request, credentials: SandboxCredentials, named: ReadonlySet<string>, below: Unmatched | undefined): Served {
  const target = pathWithQuery(request.url);
  const queryStart = target.indexOf('?');
  const path = queryStart < 0 ? target : target.slice(0, queryStart);
  const query = queryStart < 0 ? '' : target.slice(queryStart);
  const { origin } = new URL(request.url);

  let candidates = candidatesOf(request.method, path, query, origin, named);
  if (candidates.some((candidate) => candidate.result.kind === 'matched')) {
    candidates = candidates.filter((candidate) => candidate.result.kind === 'matched');
  }
  const keyed = keyedApis(request.headers, credentials);
  candidates = narrow(candidates, (candidate) => keyed(candidate.api));
  const fitting = candidates.filter((candidate) => candidate.problem === undefined);
  // Only an operation the path names exactly is worth a refusal: a bare `/` is any path's (streams' HEAD /).
  const misplaced = candidates.filter((candidate) => candidate.problem !== undefined && candidate.result.kind === 'matched');

  if (below !== undefined && !below.local) {
    // A known base URL: its API answers 404, unless the client's base URL has a segment too many (a doubled /v1).
    const doubled = misplaced.filter((candidate) => candidate.problem!.extra);
    if (doubled.length > 0) throw misplacedError(request, doubled);
    return below.unmatched;
  }
  // A policy host given with a path (its own base path after a segment) explains the path better than a proxy
  // in front of another policy API would: `/v1/v1/evaluation/health-check` is a doubled /v1, not the coordinator's.
  const slips = misplaced.filter((candidate) => candidate.problem!.extra);
  if (slips.length > 0 && fitting.every((candidate) => candidate.proxied && !candidate.named)) throw misplacedError(request, slips);
  if (fitting.length === 0) {
    if (misplaced.length > 0) throw misplacedError(request, misplaced);
    if (below !== undefined) return below.unmatched;
  }
  candidates = narrow(fitting, (candidate) => endsAtBoundary(candidate.basePath, OWN_BASE_PATH[candidate.api]));
  candidates = narrow(candidates, (candidate) => candidate.named);

  if (candidates.length === 1) return candidates[0]!.result;
  const shown = shownUrl(request.url);
  if (candidates.length === 0) {
    throw new SandboxUsageError(
      `sandbox.fetch cannot serve ${request.method} ${shown}: no operation of the sandbox's APIs has this path, below any base path. ` +
        `Check the client's baseUrl and the path; sandbox.routes() lists every operation the sandbox serves`,
    );
  }
  const which = candidates.map((candidate) => `${candidate.api} (${operationOf(candidate)} below '${candidate.basePath || '/'}')`).join(' and ');
  const keys = [...new Set(candidates.map((candidate) => credentialName(candidate.api)))];
  if (candidates.every((candidate) => candidate.proxied)) {
    // Policy APIs share a key: only the base URL each is at can tell them apart.
    const options = candidates.map((candidate) => `createSandbox({ baseUrls: { policy: { ${policyApiName(candidate.api)}: '${origin}${candidate.basePath}' } } })`);
    throw new SandboxUsageError(
      `sandbox.fetch cannot tell which API ${request.method} ${shown} is for: ${which} both have this path. ` +
        `Name the base URL the client has for its API: ${options.join(' or ')}`,
    );
  }
  const example = candidates[0]!;
  const optionKey = optionKeyOf(example.api);
  const exampleBaseUrl = optionKey === 'policy' ? origin : `${origin}${example.basePath}`;
  throw new SandboxUsageError(
    `sandbox.fetch cannot tell which API ${request.method} ${shown} is for: ${which} both have this path. ` +
      `Give the client the sandbox's key of its API (${keys.join(' or ')}), ` +
      `or name the base URL: createSandbox({ baseUrls: { ${optionKey}: '${exampleBaseUrl}' } })`,
  );
}

/**
 * The refusal of a path the real service would not serve: the URL, the
 * operation and the base path it was found below, why, and the `baseUrl` to
 * pass. Of several, the one whose API's own base path is there (with a
 * segment before it) explains it best.
 */
function misplacedError(request: Request, misplaced: readonly Candidate[]): SandboxUsageError {
  const first = misplaced.find((candidate) => candidate.problem!.extra) ?? misplaced[0]!;
  const problem = first.problem!;
  return new SandboxUsageError(
    `sandbox.fetch will not serve ${request.method} ${shownUrl(request.url)}, as the service would not: ` +
      `it is ${first.api}'s ${operationOf(first)} below '${first.basePath || '/'}', but ${problem.reason}. ` +
      `Check the client's baseUrl: ${baseUrlFix(problem)}`,
  );
}

/**
 * Every API's operation that the path names below one of its `/`s: the
 * shortest base path per API, with its problem there. A base path named in
 * `createSandbox({ baseUrls })` for that API has none, on any origin.
 */
function candidatesOf(method: string, path: string, query: string, origin: string, named: ReadonlySet<string>): Candidate[] {
  const candidates: Candidate[] = [];
  for (const api of Object.keys(OWN_BASE_PATH) as SandboxApi[]) {
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) {
      const result = routeIn(api, method, `${path.slice(at)}${query}`);
      if (result.kind === 'no_route') continue;
      const basePath = path.slice(0, at);
      const isNamed = named.has(namedPathKey(api, basePath));
      candidates.push({
        api,
        basePath,
        result,
        problem: isNamed ? undefined : basePathProblem(api, origin, basePath),
        proxied: isProxiedPolicyBase(api, origin, basePath),
        named: isNamed,
      });
      break;
    }
  }
  return candidates;
}

/** The candidates `keep` accepts, when it accepts any; otherwise all of them (a hint that fits none decides nothing). */
function narrow(candidates: Candidate[], keep: (candidate: Candidate) => boolean): Candidate[] {
  const kept = candidates.filter(keep);
  return kept.length > 0 ? kept : candidates;
}

/** The APIs whose sandbox credentials the request carries (none when it carries another key or none). */
function keyedApis(headers: Headers, credentials: SandboxCredentials): (api: SandboxApi) => boolean {
  const apiKey = apiKeyOf(headers);
  // A streams request is signed: its Authorization header is the key's identifier alone.
  const streamsKey = headers.get('authorization');
  return (api) => {
    if (api === 'channels') return apiKey === credentials.channels.apiKey;
    if (api === 'streams') return streamsKey === credentials.streams.apiKey;
    return apiKey === credentials.policy.apiKey;
  };
}

function operationOf(candidate: Candidate): string {
  return candidate.result.kind === 'matched' ? candidate.result.operationId : `no ${candidate.result.target.split('?')[0]} operation for this method`;
}

function credentialName(api: SandboxApi): string {
  return `sandbox.credentials.${optionKeyOf(api)}.apiKey`;
}

function optionKeyOf(api: SandboxApi): OptionKey {
  return POLICY_APIS.includes(api) ? 'policy' : (api as 'channels' | 'streams');
}

/** Origin and path only: a query or user info may hold anything. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

interface Mount {
  api: SandboxApi;
  prefix: string;
  /** A policy API's own base URL (`baseUrls.policy: { … }`), whose base path names that API on any origin. */
  perApi?: boolean;
}

/** The mounts of `createSandbox({ baseUrls })`, longest first; bad values are a SandboxUsageError naming the field. */
function configuredMounts(baseUrls: SandboxServedBaseUrls | undefined): Mount[] {
  const mounts = namedBaseUrls(baseUrls, 'createSandbox()').flatMap(({ option, policyApi, url }): Mount[] => {
    if (policyApi !== undefined) return [{ api: `policy-${policyApi}`, prefix: url, perApi: true }];
    if (option !== 'policy') return [{ api: option, prefix: url }];
    return [
      { api: 'policy-evaluation', prefix: `${url}/v1/evaluation` },
      { api: 'policy-reporting', prefix: `${url}/v1/reporting` },
      { api: 'policy-coordinator', prefix: `${url}/v1` },
    ];
  });
  return mounts.sort((a, b) => b.prefix.length - a.prefix.length);
}

/** `tail` is empty (the root) or starts with `/`, so a plain suffix test stops at a segment boundary. */
function endsAtBoundary(basePath: string, tail: string): boolean {
  return tail === '' ? basePath === '' : basePath.endsWith(tail);
}
