// One settings resolution for every command and for `profile show`: flags,
// then the profile named by --profile (else SERVICE_SDK_PROFILE), then the
// environment, then the "default" profile. A profile file that cannot be
// used is refused only when a profile is read; each API's profile holds only
// that API's settings; profile names follow a pattern and are own keys only.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';
import { cli } from './support/run-cli.js';

const WALLET_ID = '2c8e4a6b-1d3f-4b5a-9c7e-8f0a1b2c3d40';
const SEPOLIA = '16015286601757825753';

describe('settings', () => {
  const live = useListeningSandbox({
    seed: { channels: { wallets: [{ wallet_id: WALLET_ID, name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' }] } },
  });
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cli-settings-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));
  const apiKey = () => live.sandbox.credentials.channels.apiKey;
  const baseUrl = () => live.listener.baseUrls.channels;
  const getWallet = ['channels', 'get-wallet', '--wallet-id', WALLET_ID];
  const saveProfile = async (name: string, key: string) => expect((await cli(['profile', 'set', name, '--api', 'channels', '--api-key', key, '--base-url', baseUrl()], { homeDir: home })).code).toBe(0);

  it(readmeClaim('Settings are taken from the flags, then the profile named by `--profile` (else by `SERVICE_SDK_PROFILE`), then the environment variables, then the `default` profile'), async () => {
    await saveProfile('sbch', apiKey());
    await saveProfile('default', 'wrong-default-key');
    // A profile named by the environment beats the environment's key, as --profile does, and says so.
    const byEnv = await cli(getWallet, { homeDir: home, env: { SERVICE_SDK_PROFILE: 'sbch', SERVICE_SDK_CHANNELS_API_KEY: 'wrong-env-key' } });
    expect([byEnv.code, byEnv.json?.wallet_id]).toEqual([0, WALLET_ID]);
    expect(byEnv.stderr).toContain('SERVICE_SDK_PROFILE=sbch overrides SERVICE_SDK_CHANNELS_API_KEY');
    // profile show says the same.
    const show = await cli(['profile', 'show', 'sbch'], { homeDir: home, env: { SERVICE_SDK_CHANNELS_API_KEY: 'wrong-env-key' } });
    expect(show.stdout).toMatch(/channels\s+api-key\s+\S+\s+profile sbch \(overrides SERVICE_SDK_CHANNELS_API_KEY\)/);
    // With no profile named, the environment beats the default profile.
    const envKey = await cli(getWallet, { homeDir: home, env: { SERVICE_SDK_CHANNELS_API_KEY: apiKey() } });
    expect([envKey.code, envKey.json?.wallet_id]).toEqual([0, WALLET_ID]);
    // A flag beats everything.
    const flag = await cli([...getWallet, '--api-key', apiKey()], { homeDir: home, env: { SERVICE_SDK_PROFILE: 'default', SERVICE_SDK_CHANNELS_API_KEY: 'wrong-env-key' } });
    expect([flag.code, flag.json?.wallet_id]).toEqual([0, WALLET_ID]);
    // The order is stated in the help.
    expect((await cli(['--help'])).stdout.replace(/\s+/g, ' ')).toContain('Settings are taken from flags, then the profile named by --profile (else by SERVICE_SDK_PROFILE), then the environment variables, then the "default" profile');
  });

  it(readmeClaim('A profile file that cannot be used (others can read it, or it is not valid JSON) is refused when a profile is named, and otherwise ignored with a warning.'), async () => {
    await mkdir(join(home, '.config', 'service-sdk'), { recursive: true });
    await writeFile(join(home, '.config', 'service-sdk', 'profiles.json'), '{ not json', { mode: 0o600 });
    const env = { SERVICE_SDK_CHANNELS_API_KEY: apiKey(), SERVICE_SDK_CHANNELS_BASE_URL: baseUrl() };
    const fromEnv = await cli(getWallet, { homeDir: home, env });
    expect([fromEnv.code, fromEnv.json?.wallet_id, fromEnv.stderr]).toEqual([0, WALLET_ID, expect.stringMatching(/warning: .*not valid JSON.*ignored/)]);
    const named = await cli([...getWallet, '--profile', 'prod'], { homeDir: home, env });
    expect([named.code, named.stderr]).toEqual([2, expect.stringContaining('not valid JSON')]);
  });

  it(readmeClaim('Channels and policy profiles hold `--api-key` and `--base-url` only'), async () => {
    for (const flag of ['--api-secret', '--network', '--ws-url']) {
      const value = flag === '--network' ? 'testnet' : flag === '--ws-url' ? 'wss://example.com' : 'secret';
      const run = await cli(['profile', 'set', 'p', '--api', 'channels', flag, value], { homeDir: home });
      expect([run.code, run.stderr]).toEqual([2, expect.stringContaining(`${flag}: a channels profile has no`)]);
    }
    const policy = await cli(['profile', 'set', 'p', '--api', 'policy', '--network', 'testnet'], { homeDir: home });
    expect([policy.code, policy.stderr]).toEqual([2, expect.stringContaining('--network: a policy profile has no')]);
  });

  it(readmeClaim('A profile name is a letter or digit, then letters, digits, `.`, `_` or `-`'), async () => {
    await saveProfile('prod', apiKey());
    const proto = await cli(['profile', 'set', '__proto__', '--api', 'channels', '--api-key', apiKey()], { homeDir: home });
    expect([proto.code, proto.stderr]).toEqual([2, expect.stringContaining('a profile name is a letter or digit')]);
    const constructor = await cli([...getWallet, '--profile', 'constructor'], { homeDir: home, env: { SERVICE_SDK_CHANNELS_API_KEY: apiKey(), SERVICE_SDK_CHANNELS_BASE_URL: baseUrl() } });
    expect([constructor.code, constructor.stderr]).toEqual([2, expect.stringContaining('no profile named "constructor"')]);
    const show = await cli(['profile', 'show', 'toString'], { homeDir: home });
    expect([show.code, show.stderr]).toEqual([2, expect.stringContaining('no profile named "toString"')]);
    const byEnv = await cli(getWallet, { homeDir: home, env: { SERVICE_SDK_PROFILE: 'bad name' } });
    expect([byEnv.code, byEnv.stderr]).toEqual([2, expect.stringContaining('SERVICE_SDK_PROFILE: a profile name is')]);
  });
});
