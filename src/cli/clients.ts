/**
 * The typed client behind a command, made from the resolved settings:
 * imported only when a command runs, so help and completion stay fast. The
 * clients bring signing, retries, time limits and typed errors.
 */
import type { CliApi } from './apis.js';
import { CliUsageError } from './errors.js';
import { envName, FLAG_OF } from './credentials.js';
import type { ApiSettings } from './profiles.js';

export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** The openapi-fetch client methods the command line calls, loosely typed: operations come from the table. */
export interface LooseClient {
  GET: (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  [method: string]: (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

function missing(api: CliApi, key: keyof ApiSettings): never {
  throw new CliUsageError(
    `${api.name}: no ${key === 'apiSecret' ? 'API secret' : 'API key'}: pass --${FLAG_OF[key]}, set ${envName(api.credentials, key)}, or save it in a profile (service-sdk profile set)`,
  );
}

export async function makeClient(api: CliApi, settings: ApiSettings, fetch?: FetchLike): Promise<LooseClient> {
  const common = { ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}), ...(fetch ? { fetch } : {}) };
  switch (api.credentials) {
    case 'channels': {
      if (settings.apiKey === undefined) missing(api, 'apiKey');
      const { createChannelsClient } = await import('../channels/client.js');
      return createChannelsClient({ apiKey: settings.apiKey, ...common }) as unknown as LooseClient;
    }
    case 'streams': {
      if (settings.apiKey !== undefined && settings.apiSecret === undefined) missing(api, 'apiSecret');
      if (settings.apiSecret !== undefined && settings.apiKey === undefined) missing(api, 'apiKey');
      if (settings.network !== undefined && settings.network !== 'testnet' && settings.network !== 'mainnet') {
        throw new CliUsageError(`--network: expected one of testnet|mainnet, got ${JSON.stringify(settings.network)}`);
      }
      const { createStreamsClient } = await import('../streams/client.js');
      return createStreamsClient({
        ...(settings.apiKey ? { apiKey: settings.apiKey, apiSecret: settings.apiSecret! } : {}),
        ...(settings.network ? { network: settings.network as 'testnet' | 'mainnet' } : {}),
        ...common,
      }) as unknown as LooseClient;
    }
    case 'policy': {
      if (settings.apiKey === undefined) missing(api, 'apiKey');
      const { createPolicyClient } = await import('../policy/client.js');
      const policy = createPolicyClient({ apiKey: settings.apiKey, ...common });
      const which = api.spec === 'policy-coordinator' ? 'coordinator' : api.spec === 'policy-evaluation' ? 'evaluation' : 'reporting';
      return policy[which] as unknown as LooseClient;
    }
  }
}
