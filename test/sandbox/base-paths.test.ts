// Base paths on the sandbox, as the real services have them (issue 30, items 1
// and 2). The streams client signs the whole path it sends, base path
// included, and the sandbox checks exactly that, under any base URL of a proxy
// or gateway. A path the real service would not serve (a doubled `/v1`, a
// base path the API does not have) is a SandboxUsageError naming the segment
// and the fix, never an answer: each API's rule comes from its spec's
// `servers` (channels: the organisation's address, which ends with `/v1`;
// policy: the host alone, its APIs below `/v1`, `/v1/evaluation`,
// `/v1/reporting`; streams: the root of its host).
import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { ApiError } from '../../src/core/errors.js';
import { createPolicyClient } from '../../src/policy/index.js';
import { createSandbox, SandboxUsageError, type Sandbox, type SandboxListener, type SandboxOptions } from '../../src/sandbox/index.js';
import { createStreamsClient, getLatestReport, stringToSign } from '../../src/streams/index.js';
import { readmeClaim } from '../support/readme-claim.js';
import { rejection } from '../support/rejection.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const GATEWAY = 'https://api.example.com/v1';

let sandbox: Sandbox | undefined;
let listener: SandboxListener | undefined;

function start(options: SandboxOptions = {}): Sandbox {
  sandbox = createSandbox({ validate: sandboxValidator(), ...options });
  return sandbox;
}

afterEach(async () => {
  const violations = [...(sandbox?.violations ?? [])];
  await listener?.close();
  sandbox?.close();
  sandbox = listener = undefined;
  expect(violations).toEqual([]);
});

/** The SandboxUsageError a call rejects with, and its message. */
async function usageError(call: Promise<unknown>): Promise<string> {
  const error = await rejection(call);
  expect(error).toBeInstanceOf(SandboxUsageError);
  return (error as Error).message;
}

describe(readmeClaim('A streams signature is checked over the whole path the client signed, base path included'), () => {
  it('reads a report through sandbox.fetch under any origin and base path', async () => {
    const sandbox = start();
    const streams = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: GATEWAY, fetch: sandbox.fetch });
    expect((await getLatestReport(streams, ETH_USD)).feedID).toBe(ETH_USD);
  });

  it('reads a report under the base URL named in createSandbox({ baseUrls })', async () => {
    const sandbox = start({ baseUrls: { streams: GATEWAY } });
    const streams = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: GATEWAY, fetch: sandbox.fetch });
    expect((await getLatestReport(streams, ETH_USD)).feedID).toBe(ETH_USD);
  });

  it('reads a report over HTTP under a base path on the listener', async () => {
    const sandbox = start();
    listener = await sandbox.listen();
    const streams = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: `${listener.url}/v1` });
    expect((await getLatestReport(streams, ETH_USD)).feedID).toBe(ETH_USD);
  });

  it('refuses a signature over the path below the base: the signed text is the whole path as sent', async () => {
    const sandbox = start();
    const { apiKey, apiSecret } = sandbox.credentials.streams;
    const below = `/api/v1/reports/latest?feedID=${ETH_USD}`;
    const timestamp = Date.now();
    const bodyHash = createHash('sha256').update('').digest('hex');
    const signature = createHmac('sha256', apiSecret).update(stringToSign('GET', below, bodyHash, apiKey, timestamp)).digest('hex');
    const response = await sandbox.fetch(`${GATEWAY}${below}`, {
      headers: { Authorization: apiKey, 'X-Authorization-Timestamp': String(timestamp), 'X-Authorization-Signature-SHA256': signature },
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('SIGNATURE_MISMATCH');
    expect(body.message).toContain(`"GET /v1${below} `);
    expect(body.message).not.toContain(apiSecret);
  });
});

describe(readmeClaim('the sandbox rejects it with a `SandboxUsageError` naming the segment and the `baseUrl` to pass, never with an answer'), () => {
  describe('policy (its base URL is the host alone)', () => {
    const clientAt = (sandbox: Sandbox, baseUrl: string) =>
      createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, baseUrl, fetch: sandbox.fetch, retry: false });

    it('a doubled /v1, from each of the three APIs', async () => {
      const sandbox = start();
      const policy = clientAt(sandbox, GATEWAY);
      for (const call of [
        policy.coordinator.GET('/policy-engines'),
        policy.evaluation.GET('/health-check'),
        policy.reporting.GET('/policies', { params: { query: { as_of: new Date().toISOString() } } }),
      ]) {
        const message = await usageError(call);
        expect(message).toContain("'/v1'");
        expect(message).toContain("pass the host only: baseUrl 'https://api.example.com'");
      }
    });

    it('a doubled /v1 on the default host', async () => {
      const sandbox = start();
      const message = await usageError(clientAt(sandbox, 'https://ace.api.chain.link/v1').coordinator.GET('/policy-engines'));
      expect(message).toContain('GET https://ace.api.chain.link/v1/v1/policy-engines');
      expect(message).toContain("pass the host only: baseUrl 'https://ace.api.chain.link'");
    });

    it('a base path the policy APIs do not have', async () => {
      const sandbox = start();
      const message = await usageError(clientAt(sandbox, 'https://api.example.com/policy').coordinator.GET('/policy-engines'));
      expect(message).toContain("'/policy'");
      expect(message).toContain("pass the host only: baseUrl 'https://api.example.com'");
    });

    it('a doubled /v1 under a policy host named in createSandbox({ baseUrls })', async () => {
      const sandbox = start({ baseUrls: { policy: 'https://api.example.com' } });
      const message = await usageError(clientAt(sandbox, GATEWAY).coordinator.GET('/policy-engines'));
      expect(message).toContain("pass the host only: baseUrl 'https://api.example.com'");
    });

    it('createSandbox({ baseUrls }) with a base URL the service does not have is refused, naming the option and the fix', () => {
      expect(() => createSandbox({ baseUrls: { policy: GATEWAY } })).toThrow(SandboxUsageError);
      expect(() => createSandbox({ baseUrls: { policy: GATEWAY } })).toThrow(/baseUrls\.policy .*'\/v1'.*baseUrls\.policy: 'https:\/\/api\.example\.com'/);
      expect(() => createSandbox({ baseUrls: { channels: 'https://acme.example' } })).toThrow(/baseUrls\.channels .*baseUrls\.channels: 'https:\/\/acme\.example\/v1'/);
      expect(() => createSandbox({ baseUrls: { streams: 'https://api.example.com/api/v1' } })).toThrow(/baseUrls\.streams .*baseUrls\.streams: 'https:\/\/api\.example\.com'/);
    });

    it('over HTTP, the listener refuses it with the same words, never a 2xx', async () => {
      const sandbox = start();
      listener = await sandbox.listen();
      const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, baseUrl: `${listener.url}/v1`, retry: false });
      const error = await rejection(unwrap(policy.coordinator.GET('/policy-engines')));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(404);
      expect((error as ApiError).type).toBe('SANDBOX_USAGE_ERROR');
      expect((error as ApiError).message).toContain(`pass the host only: baseUrl '${listener.url}'`);
    });
  });

  describe('channels (its base URL is the organisation address, ending with /v1)', () => {
    const clientAt = (sandbox: Sandbox, baseUrl: string) =>
      createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl, fetch: sandbox.fetch, retry: false });

    it('an address under a path of its own works, as long as it ends with /v1', async () => {
      const sandbox = start();
      const networks = await unwrap(clientAt(sandbox, 'https://gateway.example/acme/v1').GET('/networks'));
      expect(networks.data.length).toBeGreaterThan(0);
    });

    it('a doubled /v1', async () => {
      const sandbox = start();
      const message = await usageError(clientAt(sandbox, 'https://acme.example/v1/v1').GET('/networks'));
      expect(message).toContain("'/v1'");
      expect(message).toContain("baseUrl 'https://acme.example/v1'");
    });

    it('an address without its /v1', async () => {
      const sandbox = start();
      const message = await usageError(clientAt(sandbox, 'https://acme.example').GET('/channels'));
      expect(message).toContain('/v1');
      expect(message).toContain("baseUrl 'https://acme.example/v1'");
    });
  });

  describe('streams (its operations are at the root of its host)', () => {
    const clientAt = (sandbox: Sandbox, baseUrl: string) =>
      createStreamsClient({ ...sandbox.credentials.streams, baseUrl, fetch: sandbox.fetch, retry: false });

    it('a doubled /api/v1', async () => {
      const sandbox = start();
      const message = await usageError(getLatestReport(clientAt(sandbox, 'https://api.example.com/api/v1'), ETH_USD));
      expect(message).toContain("'/api/v1'");
      expect(message).toContain("baseUrl 'https://api.example.com'");
    });

    it('a base path on the production host, which has none', async () => {
      const sandbox = start();
      const message = await usageError(getLatestReport(clientAt(sandbox, 'https://api.testnet-dataengine.chain.link/v1'), ETH_USD));
      expect(message).toContain("'/v1'");
      expect(message).toContain("baseUrl 'https://api.testnet-dataengine.chain.link'");
    });
  });
});
