/**
 * The base paths each API really has, from its spec's `servers`, and why a
 * request under another would not be served by the real service:
 *
 * - channels: the organisation's own address, which ends with `/v1`
 *   (`https://acme.example/v1`, or under a gateway's path
 *   `https://gateway.example/acme/v1`); one `/v1`, not two;
 * - policy: the host alone (`https://ace.api.chain.link`); the client puts
 *   `/v1`, `/v1/evaluation` or `/v1/reporting` after it itself. Behind a
 *   proxy, one API's whole base URL may be given instead (the client's
 *   `baseUrls: { evaluation: 'https://proxy.acme.example/policy' }`), below
 *   which the client puts the operation paths alone: a policy API below a
 *   base path without its own (`/policy`) is such a proxy's, off the
 *   production host. With its own base path after a segment (`/policy/v1`,
 *   a doubled `/v1`) it is the host given with a path: refused;
 * - streams: the root of its host; a client's `baseUrl` of its own (a proxy,
 *   a gateway) may have a path, except the `/api/v1` its operations already
 *   start with.
 *
 * On a production host (an API's default base URL) the base path is exactly
 * the one the host has. The sandbox refuses the rest, so that a test does not
 * pass with a base URL production would answer with 404.
 */
import { DEFAULT_BASE_URLS } from './router.js';
import type { SandboxApi } from './types.js';

/** Why the real service would not serve an API's operation below a base path, and the client base URL that would be right. */
export interface BasePathProblem {
  /** What the service has, and what the URL has instead, in a clause. */
  reason: string;
  /**
   * True when the API's own base path is there with `segment` before it (a
   * base URL with a path too many, a doubled `/v1`): a likely slip in the
   * client's `baseUrl`, worth naming even where the path alone is not served.
   */
  extra: boolean;
  /** The client's `baseUrl` that would reach this operation. */
  baseUrl: string;
  /** True when `baseUrl` must be the host alone (policy). */
  hostOnly: boolean;
  /**
   * For a policy API below its own base path after a segment, off the
   * production host: the URL a proxy in front of this API alone would have
   * to be at, for the client's `baseUrls` (see `baseUrlFix`).
   */
  proxyBaseUrl?: { api: PolicyApiName; url: string } | undefined;
}

/** The policy client's name of each policy API, as its `baseUrls` option takes them. */
export type PolicyApiName = 'coordinator' | 'evaluation' | 'reporting';
/** Every {@link PolicyApiName}. */
export const POLICY_API_NAMES: readonly PolicyApiName[] = ['coordinator', 'evaluation', 'reporting'];

/** The policy client's name of a policy API (`policy-evaluation` → `evaluation`). */
export function policyApiName(api: SandboxApi): PolicyApiName {
  return api.slice('policy-'.length) as PolicyApiName;
}

/**
 * The path each API's server URL fixes at the end of its base path: the
 * organisation address's `/v1` (channels), the path the policy client adds
 * after its host, nothing for streams.
 */
export const OWN_BASE_PATH: Record<SandboxApi, string> = {
  channels: '/v1',
  streams: '',
  'policy-coordinator': '/v1',
  'policy-evaluation': '/v1/evaluation',
  'policy-reporting': '/v1/reporting',
};

const LABEL: Record<SandboxApi, string> = {
  channels: 'channels',
  streams: 'streams',
  'policy-coordinator': 'policy coordinator',
  'policy-evaluation': 'policy evaluation',
  'policy-reporting': 'policy reporting',
};

/** The start of every streams operation path: a base path ending with it doubles it. */
const STREAMS_OPERATIONS_PREFIX = '/api/v1';

export const isPolicy = (api: SandboxApi) => api.startsWith('policy-');

/** Whether `origin` is one of the services' production hosts (an API's default base URL is on it). */
export function isProductionHost(origin: string): boolean {
  return PRODUCTION_HOSTS.has(origin);
}

/**
 * A policy API below a base path without its own (`/policy/evaluate` for
 * evaluation), off the production hosts: what a client sends with that API's
 * base URL of a proxy in its `baseUrls`. No policy client given a host sends
 * it, so it is served; where two policy APIs have the path, a base URL named
 * in `createSandbox({ baseUrls })` says which.
 */
export function isProxiedPolicyBase(api: SandboxApi, origin: string, basePath: string): boolean {
  return isPolicy(api) && !PRODUCTION_HOSTS.has(origin) && !endsWith(basePath, OWN_BASE_PATH[api]);
}

/** The APIs each production host serves, and at which base path. */
const PRODUCTION_HOSTS: ReadonlyMap<string, readonly { api: SandboxApi; basePath: string }[]> = (() => {
  const hosts = new Map<string, { api: SandboxApi; basePath: string }[]>();
  for (const [api, urls] of Object.entries(DEFAULT_BASE_URLS) as [SandboxApi, readonly string[]][]) {
    for (const url of urls) {
      const { origin, pathname } = new URL(url);
      const served = hosts.get(origin) ?? [];
      served.push({ api, basePath: pathname.replace(/\/+$/, '') });
      hosts.set(origin, served);
    }
  }
  return hosts;
})();

/** `path` ends with `tail` at a segment boundary (`tail` is '' or starts with `/`). */
function endsWith(path: string, tail: string): boolean {
  return tail === '' || path === tail || path.endsWith(tail);
}

/**
 * Why the real service would not serve `api`'s operations below `basePath`
 * (the path before the operation path, no trailing `/`) on `origin`;
 * `undefined` when it would.
 */
export function basePathProblem(api: SandboxApi, origin: string, basePath: string): BasePathProblem | undefined {
  const own = OWN_BASE_PATH[api];
  const label = LABEL[api];
  const hostOnly = isPolicy(api);
  const production = PRODUCTION_HOSTS.get(origin);
  if (production !== undefined && !production.some((served) => served.api === api)) {
    const apis = [...new Set(production.map((served) => LABEL[served.api]))].join(', ');
    const [home] = DEFAULT_BASE_URLS[api];
    return { reason: `${origin} is the host of the ${apis} API, not of the ${label} API`, extra: false, hostOnly, baseUrl: clientBaseUrl(api, new URL(home!).origin, '') };
  }
  if (isProxiedPolicyBase(api, origin, basePath)) return undefined;
  if (!endsWith(basePath, own)) {
    const where = api === 'channels' ? "the channels API's address ends with /v1" : `the ${label} API's operations are below ${own} of the host`;
    return { reason: `${where}, and this URL has them below '${basePath || '/'}'`, extra: false, hostOnly, baseUrl: clientBaseUrl(api, origin, api === 'channels' ? basePath : '') };
  }
  const prefix = basePath.slice(0, basePath.length - own.length);
  if (prefix === '') return undefined;
  if (production !== undefined || hostOnly) {
    const reason =
      production !== undefined
        ? `the ${label} API at ${origin} has its operations ${own === '' ? 'at the root' : `below ${own}`}, and this URL has '${prefix}' before ${own === '' ? 'them' : 'it'}`
        : `the policy client puts ${own} after the host itself, and this URL has '${prefix}' before it`;
    const proxyBaseUrl = production === undefined ? { api: policyApiName(api), url: `${origin}${basePath}` } : undefined;
    return { reason, extra: true, hostOnly, baseUrl: clientBaseUrl(api, origin, ''), proxyBaseUrl };
  }
  // Elsewhere channels and streams may sit below a path of their own, but not below their own path twice.
  const doubled = api === 'channels' ? own : STREAMS_OPERATIONS_PREFIX;
  if (!endsWith(prefix, doubled)) return undefined;
  const reason =
    api === 'channels'
      ? `the channels API's address ends with one /v1, and this URL has '/v1' twice`
      : `the streams client puts ${STREAMS_OPERATIONS_PREFIX} after its baseUrl itself, and this URL has '${STREAMS_OPERATIONS_PREFIX}' twice`;
  return { reason, extra: true, hostOnly, baseUrl: clientBaseUrl(api, origin, prefix.slice(0, prefix.length - doubled.length)) };
}

/** The `baseUrl` of `api`'s client on `origin`, below `prefix` (channels' addresses end with `/v1`; policy takes the host alone). */
function clientBaseUrl(api: SandboxApi, origin: string, prefix: string): string {
  if (isPolicy(api)) return origin;
  return api === 'channels' ? `${origin}${prefix}/v1` : `${origin}${prefix}`;
}

/**
 * How to put it right, for a message: `pass baseUrl '…'`, or for policy `pass
 * the host only: baseUrl '…'`, and, where a proxy may serve that one API
 * there, the client's `baseUrls` and the sandbox's option that serve it.
 */
export function baseUrlFix(problem: BasePathProblem): string {
  const fix = `${problem.hostOnly ? 'pass the host only: ' : 'pass '}baseUrl '${problem.baseUrl}'`;
  const proxy = problem.proxyBaseUrl;
  if (proxy === undefined) return fix;
  return (
    `${fix}; or, if a proxy serves the policy ${proxy.api} API at ${proxy.url}, pass that as the client's baseUrls.${proxy.api} ` +
    `and name it: createSandbox({ baseUrls: { policy: { ${proxy.api}: '${proxy.url}' } } })`
  );
}
