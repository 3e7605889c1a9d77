/**
 * Where an API's credentials and base URL come from, first found wins: the
 * command's flags, the environment (one set of variables per API), then the
 * named profile (`--profile`, `SERVICE_SDK_PROFILE`, else `default`).
 */
import { homedir } from 'node:os';
import type { CliApi, CredentialGroup } from './apis.js';
import { CliProfileError } from './errors.js';
import type { CliIo } from './io.js';
import { profilePath, readProfiles, SETTING_KEYS, type ApiSettings } from './profiles.js';

/** The environment variable of each setting, per credential group: `SERVICE_SDK_CHANNELS_API_KEY`… */
export function envName(group: CredentialGroup, key: keyof ApiSettings): string {
  return `SERVICE_SDK_${group.toUpperCase()}_${key.replace(/([A-Z])/g, '_$1').toUpperCase()}`;
}

export const FLAG_OF: Record<keyof ApiSettings, string> = {
  apiKey: 'api-key',
  apiSecret: 'api-secret',
  baseUrl: 'base-url',
  network: 'network',
  wsUrl: 'ws-url',
};

/**
 * A client's ConfigurationError in the command line's words: the flag that
 * sets the option (`--api-key: must be printable ASCII…`), never the SDK's
 * option name. The SDK's problems never quote a credential's value.
 */
export function inFlagWords(error: { option: string; message: string }): string {
  const flag = (FLAG_OF as Record<string, string | undefined>)[error.option];
  const problem = error.message.replace(/^Invalid option `[^`]*`: /, '');
  return flag === undefined ? error.message : `--${flag}: ${problem}`;
}

export async function resolveSettings(
  api: CliApi,
  flags: Partial<Record<keyof ApiSettings, string>>,
  profileName: string | undefined,
  io: CliIo,
): Promise<ApiSettings> {
  const group = api.credentials;
  const settings: ApiSettings = {};
  for (const key of SETTING_KEYS) {
    const value = flags[key] ?? io.env[envName(group, key)];
    if (value !== undefined && value !== '') settings[key] = value;
  }
  const chosen = profileName ?? io.env.SERVICE_SDK_PROFILE;
  const path = profilePath(io.env, io.homeDir ?? homedir());
  const profiles = await readProfiles(path);
  if (chosen !== undefined && chosen !== '' && profiles[chosen] === undefined) {
    throw new CliProfileError(`no profile named ${JSON.stringify(chosen)} in ${path}`);
  }
  const fromProfile = profiles[chosen || 'default']?.[group] ?? {};
  for (const key of SETTING_KEYS) {
    const value = fromProfile[key];
    if (settings[key] === undefined && typeof value === 'string' && value !== '') settings[key] = value;
  }
  return settings;
}
