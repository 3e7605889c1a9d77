// Production code on the sandbox: a client created with the options it has in
// production (an organisation's own base URL, a policy host of its own) and
// `fetch: sandbox.fetch` works unchanged. The sandbox serves each request by
// its path under any origin and base path; where two APIs have the path, the
// API key (one per API) or `createSandbox({ baseUrls })` settles it. A
// request it cannot serve fails at once with a SandboxUsageError that names
// the URL and the fix: no retries, no ApiConnectionError hiding it.
import { afterEach, describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { createPolicyClient, requestEvaluation, waitForEvaluation } from '../../src/policy/index.js';
import { createSandbox, SandboxUsageError, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { createStreamsClient, getLatestReport } from '../../src/streams/index.js';
import { rejection } from '../support/rejection.js';
import { sandboxValidator } from '../support/sandbox-validator.js';
import { SEPOLIA, transferEvaluation } from '../support/policy-requests.js';

const ACME = 'https://acme.example/v1';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

let sandbox: Sandbox | undefined;

function start(options: SandboxOptions = {}): Sandbox {
  sandbox = createSandbox({ validate: sandboxValidator(), ...options });
  return sandbox;
}

afterEach(() => {
  const violations = [...(sandbox?.violations ?? [])];
  sandbox?.close();
  sandbox = undefined;
  expect(violations).toEqual([]);
});

/** A `fetch` over the sandbox's that counts the requests the client sends. */
function counting(of: Sandbox): { fetch: Sandbox['fetch']; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return of.fetch(input, init);
    },
  };
}

describe('clients with their production base URLs', () => {
  it('a channels client at an organisation address creates a wallet and a channel', async () => {
    const sandbox = start();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch });
    const networks = await unwrap(channels.GET('/networks'));
    expect(networks.data.length).toBeGreaterThan(0);
    const wallet = await unwrap(
      channels.POST('/wallets', {
        body: { name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
      }),
    );
    const channel = await unwrap(channels.POST('/channels', { body: { name: 'payouts' } }));
    const found = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }));
    expect(found.wallet_id).toBe(wallet.wallet_id);
    expect((await unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id: channel.channel_id } } }))).name).toBe('payouts');
  });

  it('a policy client on its own host reaches the coordinator, the evaluation and the reporting APIs', async () => {
    const sandbox = start({ pace: 50 });
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, baseUrl: 'https://policy.acme.example', fetch: sandbox.fetch });
    const organization = await unwrap(policy.coordinator.GET('/organizations/me'));
    expect(organization).toBeTruthy();
    const { permit_id } = await requestEvaluation(policy, transferEvaluation('production-options-1'));
    expect((await waitForEvaluation(policy, permit_id, { intervalMs: 20 })).status).toBe('ready');
    // Reporting's /policies is also a coordinator path: the base path the client uses for each settles it.
    const reported = await unwrap(policy.reporting.GET('/policies', { params: { query: { as_of: new Date().toISOString() } } }));
    const managed = await unwrap(policy.coordinator.GET('/policies'));
    expect(reported).not.toEqual(managed);
  });

  it('a streams client on its own host reads a signed report', async () => {
    const sandbox = start();
    const streams = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: 'https://reports.acme.example', fetch: sandbox.fetch });
    const report = await getLatestReport(streams, ETH_USD);
    expect(report.feedID).toBe(ETH_USD);
  });
});

describe('a path two APIs have', () => {
  it('is settled by the API key each client carries', async () => {
    const sandbox = start();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch });
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, baseUrls: { coordinator: ACME }, fetch: sandbox.fetch });
    // GET /v1/wallets is channels' listWallets and the coordinator's listWallets.
    const channelsWallets = await unwrap(channels.GET('/wallets'));
    const coordinatorWallets = await unwrap(policy.coordinator.GET('/wallets'));
    expect(channelsWallets.data).toEqual([]);
    expect(coordinatorWallets).not.toEqual(channelsWallets);
  });

  it('without a key of the sandbox, is a SandboxUsageError that names the URL, both APIs and both fixes', async () => {
    const sandbox = start();
    const error = await rejection(sandbox.fetch(`${ACME}/wallets?limit=5`));
    expect(error).toBeInstanceOf(SandboxUsageError);
    const { message } = error as Error;
    expect(message).toContain('GET https://acme.example/v1/wallets');
    expect(message).not.toContain('limit=5');
    expect(message).toContain('channels (listWallets');
    expect(message).toContain('policy-coordinator (listWallets');
    expect(message).toContain('sandbox.credentials.channels.apiKey');
    expect(message).toContain("createSandbox({ baseUrls: { channels: 'https://acme.example/v1' } })");
  });

  it('is settled by createSandbox({ baseUrls }) for requests that carry no key', async () => {
    const sandbox = start({ baseUrls: { channels: ACME } });
    const response = await sandbox.fetch(`${ACME}/wallets`);
    // channels' own refusal of a missing key, from its spec.
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'VALIDATION_ERROR' });
  });

  it('a policy host in baseUrls serves its three APIs below /v1, /v1/evaluation and /v1/reporting', async () => {
    const sandbox = start({ baseUrls: { policy: 'https://policy.acme.example' } });
    const policyKey = { authorization: `Apikey ${sandbox.credentials.policy.apiKey}` };
    // Without a key: each API's own refusal, where the path alone would be ambiguous (channels has /v1/wallets too).
    expect((await sandbox.fetch('https://policy.acme.example/v1/wallets')).status).toBe(401);
    const evaluation = await sandbox.fetch('https://policy.acme.example/v1/evaluation/health-check', { headers: policyKey });
    expect(evaluation.status).toBe(200);
    const asOf = encodeURIComponent(new Date().toISOString());
    const reporting = await sandbox.fetch(`https://policy.acme.example/v1/reporting/policies?as_of=${asOf}`, { headers: policyKey });
    expect(reporting.status).toBe(200);
    expect(await reporting.json()).toHaveProperty('policies'); // reporting's list, not the coordinator's
  });

  it('refuses malformed baseUrls, naming the field', () => {
    expect(() => createSandbox({ baseUrls: { channels: 'acme.example/v1' } })).toThrow(/baseUrls\.channels must be an absolute http\(s\) URL/);
    expect(() => createSandbox({ baseUrls: { chanels: ACME } as never })).toThrow(/baseUrls\.chanels is not an API of the sandbox/);
  });
});

describe('a request the sandbox cannot serve', () => {
  it('reaches the caller at once as a SandboxUsageError naming the URL and the fix, not retried, not a connection error', async () => {
    const sandbox = start();
    const { fetch, sent } = counting(sandbox);
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch });
    const started = performance.now();
    const error = await rejection(channels.GET('/no-such-thing' as '/networks'));
    expect(performance.now() - started).toBeLessThan(200);
    expect(error).toBeInstanceOf(SandboxUsageError);
    expect((error as Error).message).toContain('GET https://acme.example/v1/no-such-thing');
    expect((error as Error).message).toContain('sandbox.routes()');
    expect(sent).toHaveLength(1);
  });
});
