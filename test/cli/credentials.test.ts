// Credentials as users of gh and the AWS CLI expect them: `-` reads a
// secret from stdin (never argv), `profile set` refuses a value not of the
// API's documented form, `profile show` masks secrets and names each
// value's source, `profile delete`, atomic writes, a world-readable file
// ignored with a warning unless a profile must be read, an explicit
// --profile beating the environment (with a warning), and a --dry-run curl
// that runs as printed once the variable it names is exported.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const WALLET_ID = '2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d40';
const SEPOLIA = '16015286601757825753';

describe('credentials', () => {
  const live = useListeningSandbox({
    seed: { channels: { wallets: [{ wallet_id: WALLET_ID, name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' }] } },
  });
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cli-credentials-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));
  const file = () => join(home, '.config', 'service-sdk', 'profiles.json');
  const baseUrl = () => live.listener.baseUrls.channels;
  const apiKey = () => live.sandbox.credentials.channels.apiKey;

  it('--api-key - reads the key from stdin, for a command and for profile set', async () => {
    const run = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID, '--api-key', '-', '--base-url', baseUrl()], { stdin: `${apiKey()}\n`, homeDir: home });
    expect([run.code, run.json?.wallet_id]).toEqual([0, WALLET_ID]);
    const set = await cli(['profile', 'set', 'sandbox', '--api', 'channels', '--api-key', '-', '--base-url', baseUrl()], { stdin: `${apiKey()}\n`, homeDir: home });
    expect(set.code).toBe(0);
    expect(JSON.parse(await readFile(file(), 'utf8')).profiles.sandbox.channels.apiKey).toBe(apiKey());
  });

  it('profile set refuses a value not of the documented form, naming the flag, never echoing a secret', async () => {
    const key = await cli(['profile', 'set', 'p', '--api', 'streams', '--api-key', 'not-a-uuid', '--api-secret', 's'], { homeDir: home });
    expect([key.code, key.stderr]).toEqual([2, expect.stringMatching(/^service-sdk: --api-key: expected the key identifier, a UUID/)]);
    const url = await cli(['profile', 'set', 'p', '--api', 'channels', '--base-url', 'ftp://example.com'], { homeDir: home });
    expect([url.code, url.stderr]).toEqual([2, expect.stringMatching(/^service-sdk: --base-url: /)]);
    const network = await cli(['profile', 'set', 'p', '--api', 'streams', '--network', 'devnet'], { homeDir: home });
    expect([network.code, network.stderr]).toEqual([2, expect.stringContaining('--network: expected one of testnet|mainnet')]);
    const spaced = await cli(['profile', 'set', 'p', '--api', 'channels', '--api-key', 'has space'], { homeDir: home });
    expect([spaced.code, spaced.stderr]).toEqual([2, expect.stringContaining('--api-key: must be printable ASCII')]);
    expect(spaced.stderr).not.toContain('has space');
  });

  it('profile show masks secrets and names each source; profile delete removes it; writes leave no temporary file', async () => {
    const secret = 'streams-secret-value';
    const uuid = '8f7dd029-f755-432b-a838-87108e6f7f53';
    expect((await cli(['profile', 'set', 'prod', '--api', 'streams', '--api-key', uuid, '--api-secret', secret, '--network', 'testnet'], { homeDir: home })).code).toBe(0);
    expect((await cli(['profile', 'set', 'prod', '--api', 'channels', '--api-key', apiKey(), '--base-url', baseUrl()], { homeDir: home })).code).toBe(0);
    const show = await cli(['profile', 'show', 'prod'], { homeDir: home, env: { SERVICE_SDK_CHANNELS_BASE_URL: 'https://elsewhere.example/v1' } });
    expect(show.code).toBe(0);
    expect(show.stdout).not.toContain(secret);
    expect(show.stdout).not.toContain(apiKey());
    expect(show.stdout).toMatch(/streams\s+api-secret\s+\*{4}alue\s+profile prod/);
    expect(show.stdout).toMatch(/streams\s+network\s+testnet\s+profile prod/);
    expect(show.stdout).toMatch(new RegExp(`channels\\s+base-url\\s+${baseUrl().replace(/[.:/]/g, '\\$&')}\\s+profile prod \\(overrides SERVICE_SDK_CHANNELS_BASE_URL\\)`));
    expect(await readdir(join(home, '.config', 'service-sdk'))).toEqual(['profiles.json']);
    const deleted = await cli(['profile', 'delete', 'prod'], { homeDir: home });
    expect(deleted.code).toBe(0);
    expect(JSON.parse(await readFile(file(), 'utf8')).profiles).toEqual({});
    const again = await cli(['profile', 'delete', 'prod'], { homeDir: home });
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('no profile named "prod"')]);
  });

  it('a world-readable profile file is ignored with a warning when nothing needs it, refused when a profile must be read', async () => {
    expect((await cli(['profile', 'set', 'sandbox', '--api', 'channels', '--api-key', apiKey(), '--base-url', baseUrl()], { homeDir: home })).code).toBe(0);
    await chmod(file(), 0o644);
    const flags = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID, '--api-key', apiKey(), '--base-url', baseUrl()], { homeDir: home });
    expect([flags.code, flags.json?.wallet_id, flags.stderr]).toEqual([0, WALLET_ID, expect.stringMatching(/can be read by others \(mode 644\).*ignored/)]);
    const named = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID, '--profile', 'sandbox'], { homeDir: home });
    expect([named.code, named.stderr]).toEqual([2, expect.stringContaining('can be read by others (mode 644)')]);
    expect(named.stderr).not.toContain(apiKey());
  });

  it('an explicit --profile beats the environment, with a warning naming what it overrides', async () => {
    expect((await cli(['profile', 'set', 'sandbox', '--api', 'channels', '--api-key', apiKey(), '--base-url', baseUrl()], { homeDir: home })).code).toBe(0);
    const run = await cli(['channels', 'get-wallet', '--wallet-id', WALLET_ID, '--profile', 'sandbox'], {
      homeDir: home,
      env: { SERVICE_SDK_CHANNELS_API_KEY: 'wrong-key', SERVICE_SDK_CHANNELS_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect([run.code, run.json?.wallet_id]).toEqual([0, WALLET_ID]);
    expect(run.stderr).toContain('--profile sandbox overrides SERVICE_SDK_CHANNELS_API_KEY, SERVICE_SDK_CHANNELS_BASE_URL from the environment');
    expect(run.stderr).not.toContain('wrong-key');
  });

  it('--dry-run prints a curl that runs as printed once the key variable is exported; the key never appears', async () => {
    const env = sandboxEnv(live.sandbox, live.listener);
    const dry = await cli(['channels', 'create-channel', '--data', '{"name":"from-curl"}', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('-H "Authorization: Apikey $SERVICE_SDK_CHANNELS_API_KEY"');
    expect(dry.stdout + dry.stderr).not.toContain(apiKey());
    const curl = spawn('bash', ['-c', `${dry.stdout.trim()} --silent --show-error --write-out '\\n%{http_code}'`], {
      env: { PATH: process.env.PATH!, SERVICE_SDK_CHANNELS_API_KEY: apiKey() },
    });
    let out = '';
    curl.stdout.on('data', (chunk: Buffer) => (out += chunk));
    const code = await new Promise((resolve) => curl.once('close', resolve));
    expect([code, out.trim().split('\n').at(-1)]).toEqual([0, '201']);
    const listed = (await cli(['channels', 'list-channels'], { env })).json.data.map((channel: { name: string }) => channel.name);
    expect(listed).toContain('from-curl');
  });
});
