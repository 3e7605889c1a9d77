import { apiKeyHeader } from '../core/auth.js';
import { createApiClient, type CommonClientOptions, type SdkClient } from '../core/client.js';
import { ConfigurationError } from '../core/errors.js';
import { EMPTY_SUCCESS } from '../../generated/operations/channels.js';
import type { paths } from '../../generated/types/channels.js';

import type { components } from '../../generated/types/channels.js';
import { API_VERSION } from '../../generated/operations/channels.js';

/** Every path of the channels API with its parameters, bodies and answers, as typed from the API description. */
export type ChannelsPaths = paths;
/** The channels API's schemas (`ChannelsComponents['schemas']['Wallet']`, …), as typed from the API description. */
export type ChannelsComponents = components;
/** The version (`info.version`) of the channels API description this client was generated from. */
export const CHANNELS_API_VERSION = API_VERSION;

/** The service's published address; each organisation may have its own `{base_url}` ending in `/v1`. */
export const CHANNELS_DEFAULT_BASE_URL = 'https://cre-connect.api.chain.link/v1';

/**
 * Body fields the channels service deduplicates on, which make a retried POST
 * safe: a query's `idempotency_key` and an operation's `wallet_operation_id`.
 */
export const CHANNELS_DEDUP_KEYS = ['idempotency_key', 'wallet_operation_id'] as const;

/** Options of `createChannelsClient`: the API key, the organisation's base URL, and the limits every client shares. */
export interface ChannelsClientOptions extends CommonClientOptions {
  /** The organisation API key (`Authorization: Apikey <key>`). Keep it server-side. */
  apiKey: string;
}

/** A typed client of the channels API (`GET`, `POST`, … on the API's own paths), made by `createChannelsClient`. */
export type ChannelsClient = SdkClient<paths>;

/** A typed client of the channels, wallets and operations API. */
export function createChannelsClient(options: ChannelsClientOptions): ChannelsClient {
  if (options === null || typeof options !== 'object') throw new ConfigurationError('options', 'expected an object');
  return createApiClient<paths>(options, {
    baseUrl: CHANNELS_DEFAULT_BASE_URL,
    authHeaders: { Authorization: apiKeyHeader(options.apiKey) },
    dedupKeys: CHANNELS_DEDUP_KEYS,
    emptySuccess: EMPTY_SUCCESS,
    optionNames: ['apiKey'],
    // Multi-valued filters (e.g. `status`) repeat the key: status=a&status=b.
    querySerializer: { array: { style: 'form', explode: true } },
  });
}
