// No rule of the spec restated by hand: each edit of a copy of a bundle
// (a bound, an enum, a pattern, a default), regenerated into a temporary
// folder, reaches the sandbox's answers, because the handlers read the
// values the generated check coerced and completed, and check nothing again.
import { afterAll, describe, expect, it } from 'vitest';
import type { RequestChecks } from '../../src/sandbox/request-check.js';
import { createSandboxWith, type Sandbox } from '../../src/sandbox/sandbox.js';
import { GENERATED_REQUEST_CHECKS } from '../../src/sandbox/request-check.js';
import type { SandboxApi } from '../../src/sandbox/types.js';
import { checksFolder, committedBundle } from '../support/regenerated-checks.js';

const POLICY = 'https://ace.api.chain.link/v1';
const REPORTING = 'https://ace.api.chain.link/v1/reporting';
const CHANNELS = 'https://cre-connect.api.chain.link/v1';
const OWNER = `0x${'11'.repeat(20)}`;
const SEPOLIA = '16015286601757825753';

const folder = checksFolder();
afterAll(() => folder.remove());

async function call(sandbox: Sandbox, url: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const key = url.startsWith(CHANNELS) ? sandbox.credentials.channels.apiKey : sandbox.credentials.policy.apiKey;
  const response = await sandbox.fetch(url, {
    method,
    headers: { Authorization: `Apikey ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** A component parameter of a bundle, by its `name`. */
function parameterNamed(bundle: Record<string, any>, name: string): Record<string, any> {
  const found = Object.values(bundle.components.parameters as Record<string, any>).filter((parameter) => parameter.name === name);
  if (found.length !== 1) throw new Error(`${found.length} component parameters named ${name}`);
  return found[0];
}

/** Runs `steps` on a sandbox with the committed checks and on one with checks regenerated from the edited copy. */
async function beforeAndAfter<T>(api: SandboxApi, edit: (bundle: Record<string, any>) => void, name: string, steps: (sandbox: Sandbox) => Promise<T>): Promise<{ before: T; after: T }> {
  const bundle = committedBundle(api);
  edit(bundle);
  const edited: RequestChecks = await folder.regenerate(api, bundle, name);
  const committed = createSandboxWith(GENERATED_REQUEST_CHECKS, { pace: 0 });
  const bumped = createSandboxWith(edited, { pace: 0 });
  try {
    return { before: await steps(committed), after: await steps(bumped) };
  } finally {
    committed.close();
    bumped.close();
  }
}

describe('the committed spec, as written', () => {
  it('accepts any page from 1 up (GET /policy-engines?page=10000000000 is an empty page)', async () => {
    const sandbox = createSandboxWith(GENERATED_REQUEST_CHECKS, { pace: 0 });
    try {
      const answer = await call(sandbox, `${POLICY}/policy-engines?page=10000000000`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ page: 10_000_000_000, policy_engines: [] });
    } finally {
      sandbox.close();
    }
  });
});

describe('an edited copy of the spec, regenerated, reaches the sandbox', () => {
  it('a bound: page_size up to 200', async () => {
    const { before, after } = await beforeAndAfter(
      'policy-coordinator',
      (bundle) => void (parameterNamed(bundle, 'page_size').schema.maximum = 200),
      'page-size-200',
      async (sandbox) => (await call(sandbox, `${POLICY}/policy-engines?page_size=150`)).status,
    );
    expect({ before, after }).toEqual({ before: 400, after: 200 });
  });

  it("a default: page_size's default 1 instead of 10", async () => {
    const { before, after } = await beforeAndAfter(
      'policy-coordinator',
      (bundle) => void (parameterNamed(bundle, 'page_size').schema.default = 1),
      'page-size-default',
      async (sandbox) => {
        // The seeded sandbox has two policy engines.
        const { body } = await call(sandbox, `${POLICY}/policy-engines`);
        return { shown: body.policy_engines.length, total: body.total, total_pages: body.total_pages };
      },
    );
    expect(before.total).toBeGreaterThanOrEqual(2);
    expect(before).toEqual({ shown: before.total, total: before.total, total_pages: 1 });
    expect(after).toEqual({ shown: 1, total: before.total, total_pages: before.total });
  });

  it("a default of the channels API: listWallets' limit 1 instead of 50", async () => {
    const { before, after } = await beforeAndAfter(
      'channels',
      (bundle) => {
        const limits = Object.values(bundle.paths['/wallets'].get.parameters as Record<string, any>[]).map((parameter) =>
          parameter.$ref === undefined ? parameter : bundle.components.parameters[parameter.$ref.split('/').at(-1)],
        );
        limits.find((parameter) => parameter.name === 'limit').schema.default = 1;
      },
      'wallets-limit-default',
      async (sandbox) => {
        for (const name of ['w-1', 'w-2']) {
          const created = await call(sandbox, `${CHANNELS}/wallets`, 'POST', { name, wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' });
          expect(created.status, JSON.stringify(created.body)).toBe(201);
        }
        const { body } = await call(sandbox, `${CHANNELS}/wallets`);
        return { shown: body.data.length, has_more: body.has_more };
      },
    );
    expect(before.has_more).toBe(false);
    expect(after).toEqual({ shown: 1, has_more: true });
  });

  it('an enum: registries listed by type no longer take credential', async () => {
    const { before, after } = await beforeAndAfter(
      'policy-coordinator',
      (bundle) => {
        const schema = parameterNamed(bundle, 'type').schema;
        schema.enum = schema.enum.filter((value: string) => value !== 'credential');
      },
      'registry-type-enum',
      async (sandbox) => call(sandbox, `${POLICY}/registries?type=credential`),
    );
    expect(before.status).toBe(200);
    expect(after.status).toBe(400);
    expect(after.body.message).toBe('type must be one of pair, identity, got "credential"');
  });

  it('a pattern: reporting chain selectors of up to 30 digits are looked up, not refused', async () => {
    const chain = '1'.repeat(25);
    const { before, after } = await beforeAndAfter(
      'policy-reporting',
      (bundle) => {
        for (const parameter of bundle.paths['/policies/{chain_selector}/{address}'].parameters ?? bundle.paths['/policies/{chain_selector}/{address}'].get.parameters) {
          const resolved = parameter.$ref === undefined ? parameter : bundle.components.parameters[parameter.$ref.split('/').at(-1)];
          if (resolved.name === 'chain_selector') resolved.schema = { type: 'string', pattern: '^[0-9]{1,30}$' };
        }
      },
      'chain-selector-pattern',
      async (sandbox) => (await call(sandbox, `${REPORTING}/policies/${chain}/${OWNER}?as_of=2026-03-04T09:15:27Z`)).status,
    );
    expect({ before, after }).toEqual({ before: 400, after: 404 });
  });
});
