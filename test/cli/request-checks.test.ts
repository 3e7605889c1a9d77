// Bodies and parameters checked before sending with the sandbox's own
// generated request checks (src/sandbox/request-check.ts): exit 2 naming
// the JSON path and what the spec expects, nothing sent, --dry-run
// included; and help listing each body field with its type, required mark
// and enum, from generated/cli/. A local server counts what is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { cli } from './support/run-cli.js';

let server: LocalServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startLocalServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  env = { SERVICE_SDK_CHANNELS_BASE_URL: server.origin, SERVICE_SDK_CHANNELS_API_KEY: 'checks-test-key' };
});
afterAll(() => server.close());

const WALLET = { name: 'w', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: '16015286601757825753', wallet_type: 'ecdsa' };

describe('request bodies checked from the spec: exit 2, nothing sent', () => {
  it.each([
    ['a missing required field', ['channels', 'create-channel', '--data', '{"nam":"x"}'], /^service-sdk: --data: body\.name is required\n/],
    ['an enum', ['channels', 'create-wallet', '--data', JSON.stringify({ ...WALLET, wallet_type: 'dsa' })], /^service-sdk: --data: body\.wallet_type: expected one of ecdsa, rsa, protected_ecdsa, protected_rsa\n/],
    ['a pattern', ['channels', 'create-wallet', '--data', JSON.stringify({ ...WALLET, wallet_owner_address: '0x12' })], /^service-sdk: --data: body\.wallet_owner_address: expected a string matching /],
    ['a field the spec does not allow', ['channels', 'create-wallet', '--data', JSON.stringify({ ...WALLET, colour: 'red' })], /^service-sdk: --data: body\.colour is not a field the spec allows\n/],
  ])('%s', async (_kind, argv, stderr) => {
    const before = server.requests.length;
    for (const dryRun of [[], ['--dry-run']]) {
      const run = await cli([...argv, ...dryRun], { env });
      expect([run.code, run.stdout, run.stderr]).toEqual([2, '', expect.stringMatching(stderr)]);
    }
    expect(server.requests.length).toBe(before);
  });

  it('a valid body is sent', async () => {
    const before = server.requests.length;
    const run = await cli(['channels', 'create-wallet', '--data', JSON.stringify(WALLET)], { env });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(server.requests.length).toBe(before + 1);
  });
});

describe('help lists the body fields', () => {
  it('with types, required marks and enums', async () => {
    const help = (await cli(['channels', 'create-wallet', '--help'])).stdout;
    expect(help).toMatch(/^ {2}name\s+string\s+\(required\)/m);
    expect(help).toMatch(/^ {2}description\s+string\s*$/m);
    expect(help).toMatch(/^ {2}wallet_type\s+one of ecdsa\|rsa\|protected_ecdsa\|protected_rsa\s+\(required\)/m);
  });
});
