// Over the listener, a request the sandbox will not serve (a path under no
// base path any API has: a doubled /v1, `/api/v1` twice for streams, a
// policy host with a path) is answered as the MSW handlers answer it:
// `404 { type: 'SANDBOX_USAGE_ERROR', message }`, the usage error's own words
// as the message, which the SDK's clients read into their ApiError. Never a
// 500, which reads as the sandbox failing, and never a 2xx.
import { describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { createPolicyClient } from '../../src/policy/index.js';
import { SANDBOX_USAGE_ERROR_TYPE } from '../../src/sandbox/msw/answer.js';
import { createStreamsClient, getLatestReport } from '../../src/streams/index.js';
import { apiError } from '../support/api-error.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

const live = useListeningSandbox({ pace: 0 });

describe(readmeClaim("A request it will not serve (a doubled `/v1`, a base path no API has) is answered `404` with `{ type: 'SANDBOX_USAGE_ERROR', message }`, the usage error's words, which a client's `ApiError` carries."), () => {
  it('a doubled /v1 over plain fetch: 404, JSON, the segment and the baseUrl to pass', async () => {
    const response = await fetch(`${live.listener.url}/channels/v1/v1/networks`, {
      headers: { Authorization: `Apikey ${live.sandbox.credentials.channels.apiKey}` },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { type: string; message: string };
    expect(body).toEqual({ type: SANDBOX_USAGE_ERROR_TYPE, message: expect.any(String) });
    expect(body.message).toContain("'/v1' twice");
    expect(body.message).toContain(`baseUrl '${live.listener.url}/channels/v1'`);
  });

  it('channels client with a doubled /v1: an ApiError 404 whose message names the segment and the fix', async () => {
    const channels = createChannelsClient({
      apiKey: live.sandbox.credentials.channels.apiKey,
      baseUrl: `${live.listener.baseUrls.channels}/v1`,
      retry: false,
    });
    const error = await apiError(unwrap(channels.GET('/networks')));
    expect(error.status).toBe(404);
    expect(error.type).toBe(SANDBOX_USAGE_ERROR_TYPE);
    expect(error.message).toContain(`pass baseUrl '${live.listener.baseUrls.channels}'`);
  });

  it('streams client with /api/v1 twice: an ApiError 404 naming the segment and the baseUrl to pass', async () => {
    const streams = createStreamsClient({ ...live.sandbox.credentials.streams, baseUrl: `${live.listener.url}/api/v1`, retry: false });
    const error = await apiError(getLatestReport(streams, ETH_USD));
    expect(error.status).toBe(404);
    expect(error.type).toBe(SANDBOX_USAGE_ERROR_TYPE);
    expect(error.message).toContain("'/api/v1' twice");
    expect(error.message).toContain(`pass baseUrl '${live.listener.url}'`);
  });

  it('policy client on a host with a path: an ApiError 404 naming the segment and the host to pass', async () => {
    const policy = createPolicyClient({ apiKey: live.sandbox.credentials.policy.apiKey, baseUrl: `${live.listener.url}/v1`, retry: false });
    const error = await apiError(unwrap(policy.coordinator.GET('/policy-engines')));
    expect(error.status).toBe(404);
    expect(error.type).toBe(SANDBOX_USAGE_ERROR_TYPE);
    expect(error.message).toContain("'/v1'");
    expect(error.message).toContain(`pass the host only: baseUrl '${live.listener.url}'`);
    // No credential in what the user sees.
    expect(error.message).not.toContain(live.sandbox.credentials.policy.apiKey);
  });
});
