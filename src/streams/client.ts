import { hmacAuthorizer } from '../core/auth.js';
import { createApiClient, type CommonClientOptions, type SdkClient } from '../core/client.js';
import { ConfigurationError } from '../core/errors.js';
import { rememberStreamsClient } from './client-settings.js';
import { EMPTY_SUCCESS } from '../../generated/operations/streams.js';
import type { paths } from '../../generated/types/streams.js';

import type { components } from '../../generated/types/streams.js';
import { API_VERSION } from '../../generated/operations/streams.js';

/** Every path of the streams API with its parameters, bodies and answers, as typed from the API description. */
export type StreamsPaths = paths;
/** The streams API's schemas (`StreamsComponents['schemas']['Report']`, …), as typed from the API description. */
export type StreamsComponents = components;
/** The version (`info.version`) of the streams API description this client was generated from. */
export const STREAMS_API_VERSION = API_VERSION;

/** The two deployments of the report API. */
export const STREAMS_BASE_URLS = Object.freeze({
  testnet: 'https://api.testnet-dataengine.chain.link',
  mainnet: 'https://api.dataengine.chain.link',
});

/** The networks whose streams service has a published address: `mainnet` and `testnet`. */
export type StreamsNetwork = keyof typeof STREAMS_BASE_URLS;

/** Options of `createStreamsClient`: the key and its secret, the network or base URL, and the limits every client shares. */
export interface StreamsClientOptions extends CommonClientOptions {
  /** The key's identifier, a UUID. Omit both credentials for anonymous discovery only. */
  apiKey?: string;
  /** The shared secret that signs requests (HMAC-SHA256). Never sent. */
  apiSecret?: string;
  /** Which deployment to call when `baseUrl` is not given. Default `testnet`. */
  network?: StreamsNetwork;
}

/** A typed client of the streams API (`GET` on the API's own paths, each request signed), made by `createStreamsClient`. */
export type StreamsClient = SdkClient<paths>;

/**
 * A typed client of the report API. Every request is signed with HMAC-SHA256
 * (a fresh timestamp per attempt, retries included); the key is checked and
 * the secret absorbed once, here.
 */
export function createStreamsClient(options: StreamsClientOptions = {}): StreamsClient {
  const network = options.network ?? 'testnet';
  if (!Object.hasOwn(STREAMS_BASE_URLS, network)) {
    throw new ConfigurationError('network', `expected 'testnet' or 'mainnet'`);
  }
  const { apiKey, apiSecret } = options;
  const anonymous = apiKey === undefined && apiSecret === undefined;
  const authorize = anonymous ? undefined : hmacAuthorizer({ apiKey: apiKey as string, apiSecret: apiSecret as string });
  const client = createApiClient<paths>(options, {
    baseUrl: STREAMS_BASE_URLS[network],
    emptySuccess: EMPTY_SUCCESS,
    optionNames: ['apiKey', 'apiSecret', 'network'],
    ...(authorize ? { authorize } : {}),
    // `feedIDs` travels as one comma-separated value, not as repeated keys.
    querySerializer: { array: { style: 'form', explode: false } },
  });
  rememberStreamsClient(client, { network, authorize, userAgent: options.userAgent, baseUrl: options.baseUrl, fetch: options.fetch });
  return client;
}
