// Tool calls over stdio, as an agent's client makes them: one read and one
// write per API against `service-sdk mcp --sandbox` (streams and reporting
// only read), a wait to its end, a draft left to its user, a verification,
// arguments refused with the field named; then the credentials: taken from
// the environment or a profile, and in no message either way.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findApi } from '../../src/cli/apis.js';
import { loadTable } from '../../src/cli/spec-table.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';
import { sharedMcp, startMcp } from './support/mcp-session.js';

const shared = sharedMcp();
const sandboxed = () => shared(['--sandbox']);

const SEPOLIA = '16015286601757825753';
const OWNER = '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const SIGNATURE = `0x${'ab'.repeat(65)}`;

async function bodyExample(apiName: string, operationName: string): Promise<unknown> {
  const operation = (await loadTable(findApi(apiName)!)).operations.find((candidate) => candidate.name === operationName)!;
  return operation.body!.example;
}

/** A new channel and wallet through the tools, and an operation of one transaction from that wallet. */
async function operationTools(session: Awaited<ReturnType<typeof sandboxed>>, name: string, signature?: string) {
  const channel = await session.call('channels_create_channel', { body: { name } });
  const wallet = await session.call('channels_create_wallet', { body: { name: `${name}-wallet`, wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } });
  const operation = await session.call('channels_create_operation', {
    channel_id: channel.channel_id,
    body: { chain_selector: SEPOLIA, address: wallet.address, wallet_operation_id: '1', deadline: 0, transactions: [{ to: OWNER, value: '0', data: '0x' }], ...(signature ? { signature } : {}) },
  });
  return { channel_id: channel.channel_id as string, operation_id: operation.operation_id as string };
}

describe('service-sdk mcp --sandbox: calls', () => {
  it('channels: a write (create_wallet) and a read that sees it (list_wallets)', async () => {
    const session = await sandboxed();
    const wallet = await session.call('channels_create_wallet', { body: { name: 'mcp-treasury', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } });
    expect(wallet).toMatchObject({ name: 'mcp-treasury', chain_selector: SEPOLIA });
    const listed = await session.call('channels_list_wallets', { name: 'mcp-treasury' });
    expect((listed.data as { wallet_id: string }[]).map((item) => item.wallet_id)).toEqual([wallet.wallet_id]);
  });

  it('streams: a read (get_latest_report); the API has no write', async () => {
    const session = await sandboxed();
    const latest = await session.call('streams_get_latest_report', { feedID: ETH_USD });
    expect(latest).toMatchObject({ report: { feedID: ETH_USD, fullReport: expect.stringMatching(/^0x[0-9a-f]+$/) } });
    expect((await loadTable(findApi('streams')!)).operations.filter((operation) => !['GET', 'HEAD'].includes(operation.method))).toEqual([]);
  });

  it('coordinator: a write (create_registry, the spec\'s example) and a read (get_registry)', async () => {
    const session = await sandboxed();
    const created = await session.call('coordinator_create_registry', { body: await bodyExample('coordinator', 'create-registry') });
    const read = await session.call('coordinator_get_registry', { registry_id: created.id });
    expect(read).toMatchObject({ id: created.id, name: (await bodyExample('coordinator', 'create-registry') as { name: string }).name });
  });

  it('evaluation: a write (request_evaluation), then wait_for_evaluation to its end, and a read (get_evaluation)', async () => {
    const session = await sandboxed();
    const requested = await session.call('evaluation_request_evaluation', { body: await bodyExample('evaluation', 'request-evaluation') });
    const waited = await session.call('wait_for_evaluation', { permit_id: requested.permit_id, timeout_seconds: 60 });
    expect(waited).toMatchObject({ permit_id: requested.permit_id, status: 'ready' });
    expect(await session.call('evaluation_get_evaluation_by_permit_id', { permitId: requested.permit_id })).toMatchObject({ status: 'ready' });
  });

  it('reporting: a read (list_policies as of now); the API has no write', async () => {
    const session = await sandboxed();
    expect(await session.call('reporting_list_policies', { as_of: new Date().toISOString() })).toHaveProperty('policies');
    expect((await loadTable(findApi('reporting')!)).operations.filter((operation) => operation.method !== 'GET')).toEqual([]);
  });

  it('wait_for_operation follows a signed operation to confirmed', async () => {
    const session = await sandboxed();
    const ref = await operationTools(session, 'mcp-wait', SIGNATURE);
    const waited = await session.call('wait_for_operation', { ...ref, timeout_seconds: 60 });
    expect(waited).toMatchObject({ operation_id: ref.operation_id, status: 'confirmed' });
  });

  it(readmeClaim('an operation drafted for signature waits for you to sign it, and `wait_for_operation` says so'), async () => {
    const session = await sandboxed();
    const ref = await operationTools(session, 'mcp-draft');
    const result = await session.client.callTool({ name: 'wait_for_operation', arguments: ref });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ operation_id: ref.operation_id, status: 'pending_signature' });
    expect(JSON.stringify(result.content)).toContain('never holds a signing key');
  });

  it('latest_reports decodes and verifies; verify_report says valid, and invalid for a report altered by one byte', async () => {
    const session = await sandboxed();
    const { reports } = (await session.call('latest_reports', { feed_ids: [ETH_USD], verify: true })) as { reports: { fullReport: string; decoded: Record<string, unknown>; verification: { valid: boolean } }[] };
    expect(reports[0]).toMatchObject({ feedID: ETH_USD, decoded: { feedID: ETH_USD, observationsTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }, verification: { valid: true } });
    expect(await session.call('verify_report', { full_report: reports[0]!.fullReport })).toMatchObject({ valid: true });
    const altered = reports[0]!.fullReport.replace(/.(.)$/, (_, last: string) => `0${last === '0' ? '1' : '0'}`);
    expect(await session.call('verify_report', { full_report: altered })).toMatchObject({ valid: false });
  });

  it(readmeClaim('arguments are checked against the spec before anything is sent, and a refusal names the argument (`body.wallet_owner_address is required`)'), async () => {
    const session = await sandboxed();
    expect(await session.refused('channels_create_wallet', { body: { name: 'x', wallet_owner_address: 'not-an-address', chain_selector: SEPOLIA, wallet_type: 'ecdsa' } })).toMatch(
      /^refused before sending: body\.wallet_owner_address: expected .*0x/,
    );
    expect(await session.refused('channels_create_wallet', { body: { name: 'x' } })).toContain('body.wallet_owner_address is required');
    expect(await session.refused('channels_create_channel', { body: { name: 'x', colour: 'red' } })).toContain('body.colour is not a field the spec allows');
    expect(await session.refused('channels_list_wallets', { limit: 0 })).toMatch(/limit: expected .*got 0/);
    expect(await session.refused('channels_get_wallet', {})).toContain('wallet_id is required');
    expect(await session.refused('channels_list_wallets', { body: {} })).toContain('body: not taken by channels_list_wallets');
    expect(await session.refused('wait_for_evaluation', { permit_id: 'p', timeout_seconds: 6000 })).toContain('timeout_seconds: expected');
  });
});

describe('service-sdk mcp: credentials', () => {
  const listening = useListeningSandbox({ credentials: { channels: { apiKey: 'chan-key-4b1d9e' }, streams: { apiKey: '8c0e5a7e-4d0c-4f43-9a0b-2f3c1b7d6e51', apiSecret: 'streams-secret-77f0c2' }, policy: { apiKey: 'policy-key-3a9f11' } } });
  const SECRETS = ['chan-key-4b1d9e', '8c0e5a7e-4d0c-4f43-9a0b-2f3c1b7d6e51', 'streams-secret-77f0c2', 'policy-key-3a9f11'];
  const envOf = () => ({
    SERVICE_SDK_CHANNELS_BASE_URL: listening.listener.baseUrls.channels,
    SERVICE_SDK_CHANNELS_API_KEY: 'chan-key-4b1d9e',
    SERVICE_SDK_STREAMS_BASE_URL: listening.listener.baseUrls.streams,
    SERVICE_SDK_STREAMS_API_KEY: '8c0e5a7e-4d0c-4f43-9a0b-2f3c1b7d6e51',
    SERVICE_SDK_STREAMS_API_SECRET: 'streams-secret-77f0c2',
    SERVICE_SDK_POLICY_BASE_URL: listening.listener.baseUrls.policy,
    SERVICE_SDK_POLICY_API_KEY: 'policy-key-3a9f11',
  });

  it('takes them from the environment, and no message or log line holds one, errors included', async () => {
    const session = await startMcp([], envOf());
    const wallet = await session.call('channels_create_wallet', { body: { name: 'env-wallet', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } });
    expect(listening.sandbox).toBeDefined();
    expect(await session.call('channels_get_wallet', { wallet_id: wallet.wallet_id })).toMatchObject({ name: 'env-wallet' });
    expect(await session.call('streams_get_latest_report', { feedID: ETH_USD })).toHaveProperty('report');
    expect(await session.call('reporting_list_policies', { as_of: new Date().toISOString() })).toHaveProperty('policies');
    // Errors: a refused body, the service's 404, a conflict.
    await session.refused('channels_create_wallet', { body: { name: '' } });
    expect(await session.refused('channels_get_wallet', { wallet_id: '00000000-0000-4000-8000-000000000000' })).toMatch(/answered 404/);
    expect(await session.refused('channels_create_wallet', { body: { name: 'env-wallet', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } })).toMatch(/answered 409/);
    await session.client.listTools();
    const said = [...session.messages, session.stderr()].join('\n');
    for (const secret of SECRETS) expect(said).not.toContain(secret);
  });

  it(readmeClaim('no tool takes or answers one, and any that the service echoes back is redacted'), async () => {
    const session = await startMcp(['--apis', 'channels'], envOf());
    // A wallet named after the key: the service answers it, the server keeps it out.
    const wallet = await session.call('channels_create_wallet', { body: { name: 'chan-key-4b1d9e', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } });
    expect(wallet.name).toBe('[redacted]');
    expect(session.messages.filter((message) => message.includes('"result"')).join('\n')).not.toContain('chan-key-4b1d9e');
  });

  it('takes them from a profile (--profile), and says which variable to set when there are none', async () => {
    const config = mkdtempSync(join(tmpdir(), 'mcp-profiles-'));
    mkdirSync(join(config, 'service-sdk'), { mode: 0o700 });
    const file = join(config, 'service-sdk', 'profiles.json');
    writeFileSync(file, JSON.stringify({ profiles: { work: { channels: { apiKey: 'chan-key-4b1d9e', baseUrl: listening.listener.baseUrls.channels } } } }), { mode: 0o600 });
    chmodSync(file, 0o600);
    const session = await startMcp(['--apis', 'channels', '--profile', 'work'], { XDG_CONFIG_HOME: config });
    expect(await session.call('channels_list_wallets', {})).toHaveProperty('data');
    const bare = await startMcp(['--apis', 'channels'], { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'mcp-empty-')) });
    expect(await bare.refused('channels_list_wallets', {})).toContain('SERVICE_SDK_CHANNELS_API_KEY');
    expect([...session.messages, session.stderr()].join('\n')).not.toContain('chan-key-4b1d9e');
  });
});
