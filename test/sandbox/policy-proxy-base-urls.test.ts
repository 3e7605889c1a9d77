// A policy API behind a proxy, on the sandbox. The policy client takes one
// host for its three APIs (`baseUrl`), and, for a proxy in front of one of
// them, that API's whole base URL (`baseUrls: { evaluation:
// 'https://proxy.acme.example/policy' }`), below which the client puts the
// operation paths alone. Production code written that way runs unchanged on
// `sandbox.fetch` and through the listener; `createSandbox({ baseUrls:
// { policy: { evaluation: … } } })` names such a base URL, as the client's
// option does, where the path alone cannot tell. What no client sends (a
// policy host with a path, so a doubled `/v1`; a path on the production
// host) is still refused, naming what to pass.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../src/channels/index.js';
import { createPolicyClient, getEvaluation, requestEvaluation, type PolicyClientOptions } from '../../src/policy/index.js';
import { createSandbox, SandboxUsageError, type Sandbox, type SandboxListener, type SandboxOptions } from '../../src/sandbox/index.js';
import { readmeClaim } from '../support/readme-claim.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { rejection } from '../support/rejection.js';
import { sandboxValidator } from '../support/sandbox-validator.js';
import { transferEvaluation } from '../support/policy-requests.js';

const PROXY = 'https://proxy.acme.example/policy';

let sandbox: Sandbox | undefined;
let listener: SandboxListener | undefined;
let network: RefusedNetwork;

// Production code on the sandbox: nothing may leave the machine (a client that fell back to its default host would).
beforeEach(() => {
  network = refuseNonLoopback();
});

function start(options: SandboxOptions = {}): Sandbox {
  sandbox = createSandbox({ validate: sandboxValidator(), pace: 0, ...options });
  return sandbox;
}

afterEach(async () => {
  const violations = [...(sandbox?.violations ?? [])];
  await listener?.close();
  sandbox?.close();
  sandbox = listener = undefined;
  network.restore();
  expect(violations).toEqual([]);
  expect(network.attempts).toEqual([]);
});

const policyClient = (sandbox: Sandbox, options: Omit<PolicyClientOptions, 'apiKey'>) =>
  createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, retry: false, ...options });

/** An evaluation requested and read back through the client's evaluation API, then the coordinator's and reporting's lists. */
async function evaluateAndList(policy: ReturnType<typeof createPolicyClient>, id: string): Promise<void> {
  const { permit_id } = await requestEvaluation(policy, transferEvaluation(id));
  expect((await getEvaluation(policy, permit_id)).permit_id).toBe(permit_id);
  expect((await unwrap(policy.coordinator.GET('/policy-engines'))).policy_engines.length).toBeGreaterThan(0);
  expect(await unwrap(policy.reporting.GET('/policies', { params: { query: { as_of: new Date().toISOString() } } }))).toHaveProperty('policies');
}

describe(readmeClaim("a policy client's per-API base URL behind a proxy (`baseUrls: { evaluation: 'https://proxy.acme.example/policy' }`) is served below whatever path it has"), () => {
  it('named in createSandbox({ baseUrls: { policy: { evaluation } } }), on sandbox.fetch', async () => {
    const sandbox = start({ baseUrls: { policy: { evaluation: PROXY } } });
    const sent: string[] = [];
    const policy = policyClient(sandbox, {
      baseUrls: { evaluation: PROXY },
      fetch: (input, init) => {
        sent.push(input instanceof Request ? input.url : String(input));
        return sandbox.fetch(input, init);
      },
    });
    await evaluateAndList(policy, 'proxy-named');
    // The coordinator has a /health-check too: the named base URL says whose this one is.
    expect(await unwrap(policy.evaluation.GET('/health-check'))).toBeTruthy();
    expect(sent.filter((url) => url.startsWith(`${PROXY}/`))).toHaveLength(3);
  });

  it('not named, on sandbox.fetch: found by its path, as a channels or streams base URL with a path is', async () => {
    const sandbox = start();
    await evaluateAndList(policyClient(sandbox, { baseUrl: 'https://policy.acme.example', baseUrls: { evaluation: PROXY }, fetch: sandbox.fetch }), 'proxy-by-path');
  });

  it('through the listener: each API below a path of its own on the listener', async () => {
    const sandbox = start();
    listener = await sandbox.listen();
    const policy = policyClient(sandbox, { baseUrl: listener.baseUrls.policy, baseUrls: { coordinator: `${listener.url}/coordinator`, evaluation: `${listener.url}/policy` } });
    await evaluateAndList(policy, 'proxy-listener');
  });

  it('through the listener: a base path named in createSandbox settles a path two policy APIs have, there too', async () => {
    const sandbox = start({ baseUrls: { policy: { evaluation: PROXY, reporting: 'https://proxy.acme.example/reporting-proxy' } } });
    listener = await sandbox.listen();
    const policy = policyClient(sandbox, { baseUrl: listener.baseUrls.policy, baseUrls: { evaluation: `${listener.url}/policy`, reporting: `${listener.url}/reporting-proxy` } });
    await evaluateAndList(policy, 'proxy-listener-named');
    expect(await unwrap(policy.evaluation.GET('/health-check'))).toBeTruthy();
  });

  it('a path two policy APIs have below a proxy path: named in createSandbox, each served by its own API', async () => {
    const sandbox = start({ baseUrls: { policy: { reporting: 'https://proxy.acme.example/reports', coordinator: 'https://proxy.acme.example/manage' } } });
    const policy = policyClient(sandbox, { baseUrls: { reporting: 'https://proxy.acme.example/reports', coordinator: 'https://proxy.acme.example/manage' }, fetch: sandbox.fetch });
    const reported = await unwrap(policy.reporting.GET('/policies', { params: { query: { as_of: new Date().toISOString() } } }));
    const managed = await unwrap(policy.coordinator.GET('/policies'));
    expect(reported).toHaveProperty('policies');
    expect(managed).not.toEqual(reported);
  });
});

describe('what no policy client sends is still refused, naming what to pass', () => {
  it('a path two policy APIs have below a proxy path, not named: the createSandbox option that settles it', async () => {
    const sandbox = start();
    const policy = policyClient(sandbox, { baseUrls: { reporting: 'https://proxy.acme.example/reports' }, fetch: sandbox.fetch });
    const error = await rejection(unwrap(policy.reporting.GET('/policies', { params: { query: { as_of: new Date().toISOString() } } })));
    expect(error).toBeInstanceOf(SandboxUsageError);
    expect((error as Error).message).toContain("createSandbox({ baseUrls: { policy: { reporting: 'https://proxy.acme.example/reports' } } })");
  });

  it('a policy host with a path (a doubled /v1) still names the host to pass, and the per-API option for a proxy', async () => {
    const sandbox = start();
    const error = await rejection(unwrap(policyClient(sandbox, { baseUrl: 'https://proxy.acme.example/policy', fetch: sandbox.fetch }).evaluation.GET('/health-check')));
    expect(error).toBeInstanceOf(SandboxUsageError);
    const { message } = error as Error;
    expect(message).toContain("pass the host only: baseUrl 'https://proxy.acme.example'");
    expect(message).toContain("createSandbox({ baseUrls: { policy: { evaluation: 'https://proxy.acme.example/policy/v1/evaluation' } } })");
  });

  it('a path on the production host, which has none: the production base URL', async () => {
    const sandbox = start();
    const policy = policyClient(sandbox, { baseUrls: { evaluation: 'https://ace.api.chain.link/policy' }, fetch: sandbox.fetch });
    const error = await rejection(unwrap(policy.evaluation.GET('/health-check')));
    expect(error).toBeInstanceOf(SandboxUsageError);
    expect((error as Error).message).toContain("'/policy'");
    expect((error as Error).message).toContain("'https://ace.api.chain.link'");
  });

  it('createSandbox({ baseUrls: { policy: { … } } }): an unknown API, a path on the production host, a doubled /v1, a malformed URL', () => {
    const refusal = (policy: unknown) => {
      try {
        createSandbox({ baseUrls: { policy: policy as never } });
      } catch (error) {
        expect(error).toBeInstanceOf(SandboxUsageError);
        return (error as Error).message;
      }
      return expect.unreachable('expected a SandboxUsageError');
    };
    expect(refusal({ evalution: PROXY })).toMatch(/baseUrls\.policy\.evalution is not a policy API \(known: coordinator, evaluation, reporting\)/);
    expect(refusal({ evaluation: 'https://ace.api.chain.link/policy' })).toMatch(/baseUrls\.policy\.evaluation .*baseUrls\.policy\.evaluation: 'https:\/\/ace\.api\.chain\.link\/v1\/evaluation'/);
    expect(refusal({ coordinator: 'https://proxy.acme.example/v1/v1' })).toMatch(/baseUrls\.policy\.coordinator .*'\/v1' twice.*'https:\/\/proxy\.acme\.example\/v1'/);
    expect(refusal({ reporting: 'proxy.acme.example/reports' })).toMatch(/baseUrls\.policy\.reporting must be an absolute http\(s\) URL/);
    expect(refusal(['https://proxy.acme.example'])).toMatch(/baseUrls\.policy must be the policy host .* or an object of per-API base URLs/);
  });

  it("a policy host with a path in createSandbox names the per-API form for a proxy", () => {
    expect(() => createSandbox({ baseUrls: { policy: PROXY } })).toThrow(/Give the host only: baseUrls\.policy: 'https:\/\/proxy\.acme\.example'.*baseUrls\.policy: \{ coordinator: 'https:\/\/proxy\.acme\.example\/policy\/v1' \}/);
  });
});
