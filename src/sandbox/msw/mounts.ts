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
import { POLICY_DEFAULT_HOST } from '../../policy/client.js';
import { OWN_BASE_PATH } from '../base-paths.js';
import { namedBaseUrls, type OptionKey } from '../base-url-rules.js';
import { DEFAULT_BASE_URLS } from '../router.js';

/** An API a mount serves. */
export type ApiName = OptionKey;

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
 * wins). Bad values are a SandboxUsageError naming the field (createSandbox's
 * rules, base-url-rules.ts).
 */
export function mswMounts(baseUrls: unknown): MswMount[] {
  const bases = new Map<string, NamedBase>(DEFAULT_MOUNTS.map(([api, url]) => [url, { api, url, sandboxBase: SANDBOX_BASE[api] }]));
  for (const named of namedBases(baseUrls)) bases.set(named.url, named);
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

/** The base URLs named in `baseUrls`, checked by createSandbox's rules, each with where its requests go. */
function namedBases(baseUrls: unknown): NamedBase[] {
  return namedBaseUrls(baseUrls, 'sandboxHandlers()').map(({ option, policyApi, url }) => ({
    api: option,
    url,
    // A policy API behind a proxy: handed over below that API's base URL on the policy host.
    sandboxBase: policyApi === undefined ? SANDBOX_BASE[option] : `${POLICY_DEFAULT_HOST}${OWN_BASE_PATH[`policy-${policyApi}`]}`,
  }));
}
