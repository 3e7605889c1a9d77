/**
 * Which URLs the MSW handlers take from the network, and what each becomes
 * for `sandbox.fetch`. A handler knows which API its base URL is for, so
 * it need not leave that to the sandbox's guess by path and key: a channels
 * or policy request is handed over below that API's default base URL, where
 * the sandbox routes it to its API alone (their Apikey auth covers no part
 * of the URL). A streams request is handed over as sent: its HMAC signature
 * covers the path and query byte for byte.
 */
import { pathWithQuery } from '../../core/auth.js';
import { ConfigurationError } from '../../core/errors.js';
import { baseUrlOption } from '../../core/options.js';
import { POLICY_DEFAULT_HOST } from '../../policy/client.js';
import { OWN_BASE_PATH, POLICY_API_NAMES, type PolicyApiName } from '../base-paths.js';
import type { SandboxBaseUrlsOption } from '../base-url-routing.js';
import { SandboxUsageError } from '../errors.js';
import { DEFAULT_BASE_URLS } from '../router.js';

/** An API a mount serves. */
export type ApiName = keyof SandboxBaseUrlsOption;

const API_NAMES: readonly ApiName[] = ['channels', 'streams', 'policy'];

/** Where each API's requests are handed to the sandbox: the SDK's own defaults, which the sandbox serves by URL. */
const SANDBOX_BASE: Record<ApiName, string | undefined> = {
  channels: DEFAULT_BASE_URLS.channels[0],
  // Streams requests keep their URL (signed).
  streams: undefined,
  policy: POLICY_DEFAULT_HOST,
};

/** What a client without a `baseUrl` reaches: served even when not named. */
const DEFAULT_MOUNTS: readonly [ApiName, string][] = [
  ['channels', DEFAULT_BASE_URLS.channels[0]!],
  // Mainnet, testnet, and the WebSocket hosts over HTTPS (their signed `HEAD /`).
  ...DEFAULT_BASE_URLS.streams.map((url): [ApiName, string] => ['streams', url]),
  ['policy', POLICY_DEFAULT_HOST],
];

/** One base URL whose requests the sandbox serves. */
export interface MswMount {
  /** The API served below `base`. */
  readonly api: ApiName;
  /** Origin and base path, without a trailing `/`. */
  readonly base: string;
  /** The URL to hand `sandbox.fetch` for `url`, a URL under `base`. */
  sandboxUrl(url: string): string;
}

/**
 * The mounts for `sandboxHandlers(sandbox, { baseUrls })`: the named base
 * URLs and the SDK's defaults, longest first (a base path below another's
 * wins). Bad values are a SandboxUsageError naming the field.
 */
export function mswMounts(baseUrls: unknown): MswMount[] {
  const bases = new Map<string, NamedBase>(DEFAULT_MOUNTS.map(([api, url]) => [url, { api, url, sandboxBase: SANDBOX_BASE[api] }]));
  for (const named of namedBaseUrls(baseUrls)) bases.set(named.url, named);
  return [...bases.values()]
    .map(mount)
    .sort((a, b) => b.base.length - a.base.length);
}

/** A base URL to serve, and where below the sandbox's own addresses its requests go (undefined: as sent). */
interface NamedBase {
  readonly api: ApiName;
  readonly url: string;
  readonly sandboxBase: string | undefined;
}

function mount({ api, url: base, sandboxBase }: NamedBase): MswMount {
  if (sandboxBase === undefined || sandboxBase === base) return { api, base, sandboxUrl: (url) => url };
  const basePath = base.slice(new URL(base).origin.length);
  return { api, base, sandboxUrl: (url) => `${sandboxBase}${pathWithQuery(url).slice(basePath.length)}` };
}

function namedBaseUrls(baseUrls: unknown): NamedBase[] {
  if (baseUrls === undefined) return [];
  if (baseUrls === null || typeof baseUrls !== 'object' || Array.isArray(baseUrls)) {
    throw new SandboxUsageError(`sandboxHandlers(): baseUrls must be an object ({ ${API_NAMES.join(', ')} })`);
  }
  const named: NamedBase[] = [];
  for (const [key, value] of Object.entries(baseUrls)) {
    if (!(API_NAMES as readonly string[]).includes(key)) {
      throw new SandboxUsageError(`sandboxHandlers(): baseUrls.${key.slice(0, 40)} is not an API of the sandbox (known: ${API_NAMES.join(', ')})`);
    }
    if (value === undefined) continue;
    if (key === 'policy' && value !== null && typeof value === 'object' && !Array.isArray(value)) named.push(...perApiPolicyBases(value));
    else named.push({ api: key as ApiName, url: clientBaseUrl(key, value), sandboxBase: SANDBOX_BASE[key as ApiName] });
  }
  return named;
}

/**
 * `baseUrls.policy` as the policy client's own `baseUrls` (`{ evaluation:
 * 'https://proxy.acme.example/policy' }`): each named API's requests are
 * handed over below that API's base URL on the policy host.
 */
function perApiPolicyBases(value: object): NamedBase[] {
  return Object.entries(value).flatMap(([name, url]): NamedBase[] => {
    if (!(POLICY_API_NAMES as readonly string[]).includes(name)) {
      throw new SandboxUsageError(`sandboxHandlers(): baseUrls.policy.${name.slice(0, 40)} is not a policy API (known: ${POLICY_API_NAMES.join(', ')})`);
    }
    if (url === undefined) return [];
    const sandboxBase = `${POLICY_DEFAULT_HOST}${OWN_BASE_PATH[`policy-${name as PolicyApiName}`]}`;
    return [{ api: 'policy', url: clientBaseUrl(`policy.${name}`, url), sandboxBase }];
  });
}

/** A base URL as a client takes it (the client's own check, whose message never quotes the URL), without a trailing `/`. */
function clientBaseUrl(key: string, value: unknown): string {
  try {
    baseUrlOption(value);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new SandboxUsageError(`sandboxHandlers(): baseUrls.${key} must be what a client's baseUrl takes: ${error.message}`, { cause: error });
  }
  const url = new URL(value as string);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
