// The request checks generated from the bundles, seen from a user's side:
// what the hand-written checks let through, the wording of each API's 400,
// and that the check runs before any handler.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

const POLICY = 'https://ace.api.chain.link/v1';
const CHANNELS = 'https://cre-connect.api.chain.link/v1';
const SEPOLIA = '16015286601757825753';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
});
afterEach(() => sandbox.close());

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const key = base === CHANNELS ? sandbox.credentials.channels.apiKey : sandbox.credentials.policy.apiKey;
  const response = await sandbox.fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Apikey ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** A registry with an identity and a credential type in it, through the coordinator. */
async function identityAndCredentialType(): Promise<{ identityId: string; credentialTypeId: string }> {
  const registry = await call(POLICY, 'POST', '/registries', {
    name: 'kyc',
    description: '',
    identity_registries: [{ name: 'ids', description: '', chain_selector: SEPOLIA }],
    credential_registries: [{ name: 'creds', description: '', chain_selector: SEPOLIA }],
  });
  expect(registry.status).toBe(200);
  sandbox.advance(60_000);
  const type = await call(POLICY, 'POST', '/credential-types', {
    registry_id: registry.body.id,
    title: 'KYC',
    credential_type: 'common.KYC',
    data_schema_id: SANDBOX_POLICY_IDS.kycDataSchema,
  });
  const identity = await call(POLICY, 'POST', '/identities', { title: 'Alice', entity_id: 'customer-1', registry_id: registry.body.id, onchain_identities: [] });
  expect([type.status, identity.status]).toEqual([200, 200]);
  return { identityId: identity.body.id, credentialTypeId: type.body.id };
}

describe('what the hand-written checks let through', () => {
  it('PATCH /identities/{id} with {} is 400 (the change set needs a field), not 202', async () => {
    const { identityId } = await identityAndCredentialType();
    const answer = await call(POLICY, 'PATCH', `/identities/${identityId}`, {});
    expect(answer).toMatchObject({ status: 400, body: { error: 'Bad request', message: expect.stringContaining('at least 1 field') } });
  });

  it('PATCH /credential-types/{id} with {} is 400, not 202', async () => {
    const { credentialTypeId } = await identityAndCredentialType();
    const answer = await call(POLICY, 'PATCH', `/credential-types/${credentialTypeId}`, {});
    expect(answer).toMatchObject({ status: 400, body: { error: 'Bad request', message: expect.stringContaining('at least 1 field') } });
  });
});

describe('each API words the refusal as before, naming the field and what was expected', () => {
  it('channels: `body.<field>: unknown field`, `: required`, `: expected …`, and query parameters by name', async () => {
    expect(await call(CHANNELS, 'POST', '/channels', { name: 'c', labels: {} })).toEqual({
      status: 400,
      body: { type: 'VALIDATION_ERROR', message: 'body.labels: unknown field' },
    });
    expect((await call(CHANNELS, 'POST', '/channels', {})).body.message).toBe('body.name: required');
    expect((await call(CHANNELS, 'POST', '/channels', { name: 7 })).body.message).toBe('body.name: expected a string');
    expect((await call(CHANNELS, 'GET', '/wallets?limit=0')).body.message).toBe('query parameter limit: expected a number >= 1');
  });

  it('policy: `body.<field> is required`, `body: unknown field "<name>"`, parameters with the value sent', async () => {
    expect((await call(POLICY, 'POST', '/policy-engines', { onchain_policy_engines: [] })).body.message).toBe('body.name is required');
    expect((await call(POLICY, 'POST', '/registries', { name: 'r', description: '', colour: 'red' })).body.message).toBe('body: unknown field "colour"');
    expect((await call(POLICY, 'GET', '/policy-engines?page_size=101')).body.message).toBe('page_size must be a number <= 100, got 101');
  });

  it('a malformed ID in the path is the lookup’s 404 with its code where the operation documents no 400', async () => {
    expect(await call(CHANNELS, 'GET', '/wallets/not-a-uuid')).toMatchObject({ status: 404, body: { type: 'NOT_FOUND', code: 'WALLET_NOT_FOUND', message: expect.stringContaining('wallet_id') } });
  });
});

it('checks the request before the handler: a malformed body to an unknown channel is 400, not 404', async () => {
  const unknown = crypto.randomUUID();
  const answer = await call(CHANNELS, 'POST', `/channels/${unknown}/watchers`, { name: 'w' });
  expect(answer.status).toBe(400);
  expect(answer.body.message).toContain('body');
});
