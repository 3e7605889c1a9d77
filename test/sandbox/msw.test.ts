// The sandbox under MSW (`@ourteam/service-sdk/sandbox/msw`): application code
// that takes no `fetch` (global `fetch`, `node:https`, an SDK client made
// without a `fetch` option) reaches one stateful sandbox through
// `setupServer(...sandboxHandlers(sandbox))`. Every connection to a host other
// than the loopback is refused and recorded, so a request that leaked to the
// network would show.
import http from 'node:http';
import https from 'node:https';
import { build } from 'esbuild';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { createPolicyClient, requestEvaluation } from '../../src/policy/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { sandboxHandlers, SandboxUsageError } from '../../src/sandbox/msw/index.js';
import { createStreamsClient, getLatestReport } from '../../src/streams/index.js';
import { apiError } from '../support/api-error.js';
import { readmeClaim } from '../support/readme-claim.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { rejection } from '../support/rejection.js';
import { transferEvaluation } from '../support/policy-requests.js';

const ACME = 'https://acme.example/v1';
/** The key the application under test was configured with: the sandbox is told to accept it. */
const APP_KEY = 'app-channels-key';
const auth = { Authorization: `Apikey ${APP_KEY}` };
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

const sandbox = createSandbox({ pace: 0, credentials: { channels: { apiKey: APP_KEY } } });
// Made at module level, before MSW listens, as application code makes its clients.
const channels = createChannelsClient({ apiKey: APP_KEY, baseUrl: ACME, retry: false });
const streams = createStreamsClient({ ...sandbox.credentials.streams, network: 'mainnet', retry: false });
const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, retry: false });

const server = setupServer(...sandboxHandlers(sandbox, { baseUrls: { channels: ACME } }));
/** URLs MSW found no handler for. */
const unhandled: string[] = [];
let network: RefusedNetwork;

beforeAll(() => {
  network = refuseNonLoopback();
  server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) });
});

afterAll(() => {
  server.close();
  network.restore();
  sandbox.close();
});

/** GET through `node:https` (or `node:http` for an http URL), which MSW intercepts below `request()`. */
function httpsGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    (url.startsWith('http:') ? http : https)
      .request(url, { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        response.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

const namesOf = (list: { data: { name: string }[] }) => list.data.map((channel) => channel.name).sort();

describe('one sandbox behind setupServer', () => {
  it('an SDK client without a fetch option, global fetch and node:https see the same state', async () => {
    const created = await unwrap(channels.POST('/channels', { body: { name: 'payouts' } }));

    const viaFetch = await fetch(`${ACME}/channels`, { headers: auth });
    expect(viaFetch.status).toBe(200);
    expect(namesOf((await viaFetch.json()) as { data: { name: string }[] })).toContain('payouts');

    const viaHttps = await httpsGet(`${ACME}/channels/${created.channel_id}`, auth);
    expect(viaHttps).toMatchObject({ status: 200, body: { channel_id: created.channel_id, name: 'payouts' } });

    // And back: what global fetch creates, the client lists.
    const posted = await fetch(`${ACME}/channels`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'refunds' }) });
    expect(posted.status).toBe(201);
    expect(namesOf(await unwrap(channels.GET('/channels')))).toEqual(expect.arrayContaining(['payouts', 'refunds']));

    expect(network.attempts).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('streams on its default host: signed requests served, a wrong secret refused by the HMAC check', async () => {
    const report = await getLatestReport(streams, ETH_USD, { decode: true });
    expect(report.decoded.version).toBe('V3');

    const forger = createStreamsClient({ apiKey: sandbox.credentials.streams.apiKey, apiSecret: 'not-the-secret', retry: false });
    expect((await apiError(getLatestReport(forger, ETH_USD))).status).toBe(401);
    expect(network.attempts).toEqual([]);
  });

  it('streams on a base URL of its own, below a base path: the path as sent is what is signed and checked', async () => {
    const own = 'https://proxy.acme.example/streams';
    server.use(...sandboxHandlers(sandbox, { baseUrls: { streams: own } }));
    try {
      const client = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: own, retry: false });
      expect((await getLatestReport(client, ETH_USD)).feedID).toBe(ETH_USD);
      const forger = createStreamsClient({ apiKey: sandbox.credentials.streams.apiKey, apiSecret: 'not-the-secret', baseUrl: own, retry: false });
      expect((await apiError(getLatestReport(forger, ETH_USD))).status).toBe(401);
    } finally {
      server.resetHandlers();
    }
    expect(network.attempts).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it(readmeClaim('a policy API behind a proxy as the policy client names it'), async () => {
    const proxy = 'https://proxy.acme.example/policy';
    server.use(...sandboxHandlers(sandbox, { baseUrls: { policy: { evaluation: proxy } } }));
    try {
      const client = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, baseUrls: { evaluation: proxy }, retry: false });
      const { permit_id } = await requestEvaluation(client, transferEvaluation('msw-proxied-evaluation'));
      // Read back through plain fetch at the proxy's address: the same sandbox's state.
      const answer = await fetch(`${proxy}/evaluate/${permit_id}`, { headers: { Authorization: `Apikey ${sandbox.credentials.policy.apiKey}` } });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ permit_id });
      expect((await unwrap(client.coordinator.GET('/policy-engines'))).policy_engines.length).toBeGreaterThan(0);
    } finally {
      server.resetHandlers();
    }
    expect(network.attempts).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('node:http on a plain http base URL', async () => {
    const plain = 'http://channels.internal.example/v1';
    server.use(...sandboxHandlers(sandbox, { baseUrls: { channels: plain } }));
    try {
      expect(await httpsGet(`${plain}/networks`, auth)).toMatchObject({ status: 200, body: { data: expect.arrayContaining([expect.objectContaining({ name: expect.any(String) })]) } });
    } finally {
      server.resetHandlers();
    }
    expect(network.attempts).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('a path two APIs share is served by the API whose base URL the request is under, whatever key it carries', async () => {
    const policyHost = 'https://policy.acme.example';
    server.use(...sandboxHandlers(sandbox, { baseUrls: { channels: ACME, policy: policyHost } }));
    try {
      // GET /v1/wallets is channels' and the policy coordinator's: a wrong key is refused by the right API, not left ambiguous.
      const wrongKey = { Authorization: 'Apikey someone-else' };
      const channelsRefusal = await fetch(`${ACME}/wallets`, { headers: wrongKey });
      const coordinatorRefusal = await fetch(`${policyHost}/v1/wallets`, { headers: wrongKey });
      expect([channelsRefusal.status, coordinatorRefusal.status]).toEqual([401, 401]);
      const coordinator = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, baseUrl: policyHost, retry: false });
      expect((await unwrap(coordinator.coordinator.GET('/policy-engines'))).policy_engines.length).toBeGreaterThan(0);
    } finally {
      server.resetHandlers();
    }
    expect(network.attempts).toEqual([]);
  });

  it('policy on its default host', async () => {
    const engines = await unwrap(policy.coordinator.GET('/policy-engines'));
    expect(engines.policy_engines.length).toBeGreaterThan(0);
    expect(network.attempts).toEqual([]);
  });

  it('a request under a base URL that the sandbox does not serve is a 404 naming why, never the network', async () => {
    // Below an API's base URL: that API's own 404.
    const underChannels = await fetch(`${ACME}/no-such-thing`, { headers: auth });
    expect(underChannels.status).toBe(404);
    expect(await underChannels.json()).toMatchObject({ type: 'NOT_FOUND', message: expect.stringContaining('/no-such-thing') });

    // Below the policy host but outside its three APIs: the sandbox's usage error, as the answer's body.
    const underPolicy = await fetch('https://ace.api.chain.link/v2/nothing', { headers: auth });
    expect(underPolicy.status).toBe(404);
    expect(await underPolicy.json()).toEqual({
      type: 'SANDBOX_USAGE_ERROR',
      message: expect.stringMatching(/^sandbox\.fetch cannot serve GET https:\/\/ace\.api\.chain\.link\/v2\/nothing: /),
    });

    expect(network.attempts).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it("requests outside the base URLs are left to MSW's onUnhandledRequest", async () => {
    unhandled.length = 0;
    // Another host, and a path that only starts like the base URL's.
    for (const url of ['https://elsewhere.example/v1/channels', 'https://acme.example/v10/channels']) {
      await rejection(fetch(url, { headers: auth }));
    }
    expect(unhandled).toEqual(['https://elsewhere.example/v1/channels', 'https://acme.example/v10/channels']);
    // Passed through by the callback, so the refused connections show they were not the sandbox's.
    expect(network.attempts).toEqual(['elsewhere.example:443', 'acme.example:443']);
  });

  it("MSW lists one handler, named by the APIs and base URLs it serves (server.listHandlers())", () => {
    const headers = server.listHandlers().map((handler) => ('info' in handler ? handler.info.header : handler.kind));
    expect(headers).toEqual([expect.stringMatching(/^sandbox: /)]);
    const served = headers[0]!.slice('sandbox: '.length).split(', ');
    expect(served).toEqual(
      expect.arrayContaining([`channels ${ACME}`, 'channels https://cre-connect.api.chain.link/v1', 'streams https://api.dataengine.chain.link', 'policy https://ace.api.chain.link']),
    );
  });

  it('an injected drop is a network error, and injected statuses come through', async () => {
    const before = network.attempts.length;
    sandbox.inject({ route: 'listChannels', drop: true, times: 1 });
    await rejection(fetch(`${ACME}/channels`, { headers: auth }));
    sandbox.inject({ route: 'listChannels', status: 503, retryAfter: 2, times: 1 });
    const unavailable = await fetch(`${ACME}/channels`, { headers: auth });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('2');
    expect(network.attempts.slice(before)).toEqual([]);
  });
});

describe('sandboxHandlers() arguments', () => {
  it('refuses what is not a sandbox, naming it', () => {
    expect(() => sandboxHandlers({} as never)).toThrow(SandboxUsageError);
    expect(() => sandboxHandlers({} as never)).toThrow(/sandboxHandlers\(\): the first argument must be a sandbox from createSandbox\(\)/);
    expect(() => sandboxHandlers(sandbox, null as never)).toThrow(/^sandboxHandlers\(\): options must be an object/);
  });

  it('refuses a base URL a client would not take, naming the field and never quoting a password', () => {
    const refusal = (baseUrls: unknown) => {
      try {
        sandboxHandlers(sandbox, { baseUrls } as never);
      } catch (error) {
        expect(error).toBeInstanceOf(SandboxUsageError);
        return (error as Error).message;
      }
      return expect.unreachable('accepted');
    };
    expect(refusal({ channels: 'acme.example/v1' })).toMatch(/^sandboxHandlers\(\): baseUrls\.channels /);
    expect(refusal({ streams: 'https://streams.example/?x=1' })).toMatch(/^sandboxHandlers\(\): baseUrls\.streams .*query/);
    expect(refusal({ payments: 'https://pay.example' })).toMatch(/^sandboxHandlers\(\): baseUrls\.payments is not an API of the sandbox \(known: channels, streams, policy\)/);
    expect(refusal('https://acme.example')).toMatch(/^sandboxHandlers\(\): baseUrls must be an object/);
    expect(refusal({ policy: { payouts: 'https://proxy.acme.example/p' } })).toMatch(/^sandboxHandlers\(\): baseUrls\.policy\.payouts is not a policy API \(known: coordinator, evaluation, reporting\)/);
    expect(refusal({ policy: { evaluation: 'proxy/policy' } })).toMatch(/^sandboxHandlers\(\): baseUrls\.policy\.evaluation /);
    const withPassword = refusal({ channels: 'https://user:hunter2@acme.example/v1' });
    expect(withPassword).toMatch(/baseUrls\.channels/);
    expect(withPassword).not.toContain('hunter2');
  });
});

describe('msw stays optional', () => {
  it('only the sandbox/msw entry imports msw', async () => {
    const entries = ['src/channels/index.ts', 'src/streams/index.ts', 'src/policy/index.ts', 'src/reports/index.ts', 'src/sandbox/index.ts', 'src/sandbox/msw/index.ts'];
    const { metafile } = await build({ entryPoints: entries, bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, outdir: '/out', metafile: true, logLevel: 'silent' });
    const importsMsw = Object.fromEntries(
      Object.values(metafile.outputs)
        .filter((output) => output.entryPoint !== undefined)
        .map((output) => [output.entryPoint, output.imports.some((imported) => imported.path === 'msw' || imported.path.startsWith('msw/'))]),
    );
    expect(importsMsw).toEqual({ ...Object.fromEntries(entries.map((entry) => [entry, false])), 'src/sandbox/msw/index.ts': true });
  });
});
