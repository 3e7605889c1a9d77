import type { Middleware } from 'openapi-fetch';
import { inject } from 'vitest';
import { createChannelsClient } from '../../../src/channels/index.js';
import { createPolicyClient } from '../../../src/policy/index.js';
import { createStreamsClient } from '../../../src/streams/index.js';

export const TEST_API_KEY = 'contract-test-key';
export const TEST_HMAC_KEY = 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11';
export const TEST_HMAC_SECRET = 'test-secret-please-ignore';

/** Mocks answer at once; keep the SDK's retries from hiding a wrong status. */
const noRetry = { retry: false as const, timeoutMs: 10_000 };

export function prismUrl(api: string): string {
  const url = inject('prismUrls')[api];
  if (!url) throw new Error(`no Prism mock for ${api}`);
  return url;
}

export const channelsClient = () => createChannelsClient({ apiKey: TEST_API_KEY, baseUrl: prismUrl('channels'), ...noRetry });

export const streamsClient = () =>
  createStreamsClient({ apiKey: TEST_HMAC_KEY, apiSecret: TEST_HMAC_SECRET, baseUrl: prismUrl('streams'), ...noRetry });

export const policyClient = () =>
  createPolicyClient({
    apiKey: TEST_API_KEY,
    baseUrls: {
      coordinator: prismUrl('policy-coordinator'),
      evaluation: prismUrl('policy-evaluation'),
      reporting: prismUrl('policy-reporting'),
    },
    ...noRetry,
  });

/**
 * The client with a `Prefer` header on every request, so Prism answers the
 * named example or status: one value for all requests, or one per request.
 */
export function preferring<C extends { use(...middleware: Middleware[]): void }>(
  client: C,
  prefer: string | ((request: Request) => string),
): C {
  client.use({
    onRequest({ request }) {
      request.headers.set('Prefer', typeof prefer === 'string' ? prefer : prefer(request));
      return request;
    },
  });
  return client;
}
