import type { Authorizer } from '../core/auth.js';
import { originalClient } from '../core/derived-client.js';

/**
 * What the report stream needs from a streams client beyond its REST calls:
 * the deployment (for the default WebSocket host), the request signer (to
 * sign the WebSocket upgrade), and where its requests go (a `baseUrl` of its
 * own, a sandbox's `fetch`). Kept in a module-private WeakMap keyed by
 * the client, so nothing is added to the client object (its JSON stays free
 * of secrets) and nothing outlives it. Not exported from any entry point.
 */
export interface StreamsClientSettings {
  readonly network: 'testnet' | 'mainnet';
  /** The client's HMAC signer; `undefined` for an anonymous client. */
  readonly authorize: Authorizer | undefined;
  /** The caller's `userAgent` option, appended to the SDK's own token. */
  readonly userAgent: string | undefined;
  /** The caller's `baseUrl` option, when given: the stream then needs its `wsUrl` too. */
  readonly baseUrl: string | undefined;
  /** The caller's `fetch` option: a sandbox's carries a link to its live feed. */
  readonly fetch: unknown;
}

const settings = new WeakMap<object, StreamsClientSettings>();

export function rememberStreamsClient(client: object, value: StreamsClientSettings): void {
  settings.set(client, value);
}

/** The settings of a client made by `createStreamsClient`, or `undefined` for any other object. */
export function streamsClientSettings(client: unknown): StreamsClientSettings | undefined {
  return typeof client === 'object' && client !== null ? settings.get(originalClient(client)) : undefined;
}
