/**
 * Which base URLs the sandbox serves besides the defaults, as
 * `createSandbox({ baseUrls })` and `sandboxHandlers(sandbox, { baseUrls })`
 * both take them: one set of rules, so that what one refuses the other
 * refuses in the same words. A base URL must be one a client takes (its
 * own `baseUrl` check) and one the real service has (`base-paths.ts`):
 * named here, a policy host with a path, say, would have the sandbox serve
 * the doubled `/v1` that production answers with 404.
 */
import { ConfigurationError } from '../core/errors.js';
import { baseUrlOption } from '../core/options.js';
import { basePathProblem, isProductionHost, POLICY_API_NAMES, type PolicyApiName } from './base-paths.js';
import { SandboxUsageError } from './errors.js';
import { DEFAULT_BASE_URLS } from './router.js';
import type { SandboxApi } from './types.js';

/** The APIs `baseUrls` names. */
export const OPTION_KEYS = ['channels', 'streams', 'policy'] as const;
export type OptionKey = (typeof OPTION_KEYS)[number];

/** Who checks `baseUrls`: the function the messages name. */
export type BaseUrlsCaller = 'createSandbox()' | 'sandboxHandlers()';

/** One base URL of `baseUrls`, checked. */
export interface NamedBaseUrl {
  /** The API it is for (`policy`: the host of the three policy APIs, or one policy API's own base URL). */
  readonly option: OptionKey;
  /** The policy API whose own base URL it is (`baseUrls.policy: { evaluation: … }`), as a proxy in front of it has. */
  readonly policyApi?: PolicyApiName;
  /** Origin and path, without a trailing `/`. */
  readonly url: string;
}

/**
 * The base URLs of `baseUrls`, checked.
 *
 * @throws {SandboxUsageError} naming `caller`, the field and the fix when a value is not a base URL a client would send to.
 */
export function namedBaseUrls(baseUrls: unknown, caller: BaseUrlsCaller): NamedBaseUrl[] {
  if (baseUrls === undefined) return [];
  if (baseUrls === null || typeof baseUrls !== 'object' || Array.isArray(baseUrls)) {
    throw new SandboxUsageError(`${caller}: baseUrls must be an object ({ ${OPTION_KEYS.join(', ')} })`);
  }
  const named: NamedBaseUrl[] = [];
  for (const [key, value] of Object.entries(baseUrls)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      throw new SandboxUsageError(`${caller}: baseUrls.${key.slice(0, 40)} is not an API of the sandbox (known: ${OPTION_KEYS.join(', ')})`);
    }
    if (value === undefined) continue;
    if (key === 'policy' && value !== null && typeof value === 'object') {
      named.push(...policyApiBaseUrls(value, caller));
      continue;
    }
    const url = absoluteUrl(key, value, caller);
    checkBasePath(key as OptionKey, url, caller);
    named.push({ option: key as OptionKey, url });
  }
  return named;
}

/** `baseUrls.channels`, `.streams` or `.policy` (the host) must be a base URL the service has. */
function checkBasePath(key: OptionKey, base: string, caller: BaseUrlsCaller): void {
  const { origin, pathname } = new URL(base);
  const path = pathname === '/' ? '' : pathname;
  const problem =
    key === 'policy' ? basePathProblem('policy-coordinator', origin, `${path}/v1`) : basePathProblem(key, origin, path);
  if (problem === undefined) return;
  // Off the production host, a policy host with a path may be meant for a proxy in front of one policy API.
  const proxy =
    key === 'policy' && !isProductionHost(origin)
      ? `; for a proxy in front of one policy API, give its base URL as the policy client's baseUrls names it, e.g. baseUrls.policy: { coordinator: '${base}/v1' }`
      : '';
  throw new SandboxUsageError(
    `${caller}: baseUrls.${key} '${base}' is not a base URL the service has: ${problem.reason} (as a ${key} client's baseUrl). ` +
      `Give ${problem.hostOnly ? 'the host only: ' : ''}baseUrls.${key}: '${problem.baseUrl}'${proxy}`,
  );
}

/**
 * `baseUrls.policy: { coordinator, evaluation, reporting }`: each the whole
 * base URL of one policy API, any path a proxy has, except what no proxy's
 * would be: a path on the production host (which has each API at one base
 * URL) or a doubled `/v1` (a host with `/v1` given as one).
 */
function policyApiBaseUrls(value: object, caller: BaseUrlsCaller): NamedBaseUrl[] {
  if (Array.isArray(value)) {
    throw new SandboxUsageError(
      `${caller}: baseUrls.policy must be the policy host (a string) or an object of per-API base URLs ({ ${POLICY_API_NAMES.join(', ')} }), as the policy client's baseUrls`,
    );
  }
  const named: NamedBaseUrl[] = [];
  for (const [name, url] of Object.entries(value)) {
    if (!(POLICY_API_NAMES as readonly string[]).includes(name)) {
      throw new SandboxUsageError(`${caller}: baseUrls.policy.${name.slice(0, 40)} is not a policy API (known: ${POLICY_API_NAMES.join(', ')})`);
    }
    if (url === undefined) continue;
    const field = `policy.${name}`;
    const base = absoluteUrl(field, url, caller);
    const { origin, pathname } = new URL(base);
    const [home] = DEFAULT_BASE_URLS[`policy-${name}` as SandboxApi];
    if (isProductionHost(origin) && base !== home) {
      throw new SandboxUsageError(`${caller}: baseUrls.${field} '${base}' is not a base URL the service has: on ${origin} the policy ${name} API is at ${home!}. Give baseUrls.${field}: '${home!}'`);
    }
    if (/\/v1\/v1(\/|$)/.test(pathname)) {
      const once = `${origin}${pathname.replace(/\/v1\/v1(?=\/|$)/, '/v1')}`.replace(/\/+$/, '');
      throw new SandboxUsageError(`${caller}: baseUrls.${field} '${base}' has '/v1' twice, which no proxy's base URL has. Give baseUrls.${field}: '${once}'`);
    }
    named.push({ option: 'policy', policyApi: name as PolicyApiName, url: base });
  }
  return named;
}

/**
 * A base URL as a client's `baseUrl` takes it (the client's own check, whose
 * message never quotes the URL: it may hold a password), without a trailing `/`.
 */
function absoluteUrl(key: string, value: unknown, caller: BaseUrlsCaller): string {
  try {
    baseUrlOption(value);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new SandboxUsageError(`${caller}: baseUrls.${key} must be an absolute http(s) URL without query, like a client's baseUrl: ${error.message}`, { cause: error });
  }
  const url = new URL(value as string);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
