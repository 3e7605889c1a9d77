/**
 * Where an API's credentials and base URL come from: the command's flags,
 * the environment (one set of variables per API) and the profiles
 * (`resolveSettings` says in which order).
 */
import { homedir } from 'node:os';
import type { CliApi, CredentialGroup } from './apis.js';
import { CliProfileError, CliUsageError } from './errors.js';
import { writeMessage, type CliIo } from './io.js';
import { InsecureProfileFileError, profilePath, readProfiles, SETTING_KEYS, type ApiSettings, type Profile } from './profiles.js';

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

/**
 * The settings a command uses, first found wins: its flags; then, with an
 * explicit `--profile`, that profile before the environment (a warning names
 * each variable it overrides); else the environment before the profile that
 * `SERVICE_SDK_PROFILE` names, or `default`. A profile file others can read
 * is refused when a profile is named, and otherwise ignored with a warning.
 */
export async function resolveSettings(
  api: CliApi,
  flags: Partial<Record<keyof ApiSettings, string>>,
  profileName: string | undefined,
  io: CliIo,
): Promise<ApiSettings> {
  const group = api.credentials;
  const named = profileName ?? (io.env.SERVICE_SDK_PROFILE || undefined);
  const path = profilePath(io.env, io.homeDir ?? homedir());
  let profiles: Record<string, Profile>;
  try {
    profiles = await readProfiles(path);
  } catch (error) {
    if (!(error instanceof InsecureProfileFileError) || named !== undefined) throw error;
    writeMessage(
      io.stderr,
      `service-sdk: warning: the profile file ${error.path} can be read by others (mode ${error.mode}); ignored, as no profile was named (it holds secrets). Run: chmod 600 ${error.path}`,
    );
    profiles = {};
  }
  if (named !== undefined && profiles[named] === undefined) throw new CliProfileError(`no profile named ${JSON.stringify(named)} in ${path}`);
  const fromProfile = profiles[named ?? 'default']?.[group] ?? {};
  const fromEnv = (key: keyof ApiSettings) => nonEmpty(io.env[envName(group, key)]);
  const settings: ApiSettings = {};
  const overridden: string[] = [];
  for (const key of SETTING_KEYS) {
    const flag = nonEmpty(flags[key]);
    const env = fromEnv(key);
    const profile = nonEmpty(fromProfile[key]);
    if (profileName !== undefined && flag === undefined && profile !== undefined && env !== undefined) overridden.push(envName(group, key));
    const value = flag ?? (profileName !== undefined ? (profile ?? env) : (env ?? profile));
    if (value !== undefined) settings[key] = value;
  }
  if (overridden.length > 0) writeMessage(io.stderr, `service-sdk: warning: --profile ${profileName} overrides ${overridden.join(', ')} from the environment`);
  return settings;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Refuses a setting that is not of the API's documented form, with the
 * clients' own checks (an API key as a header takes it, a streams key is a
 * UUID, a base URL is http(s)…): a ConfigurationError the entry words as
 * the flag. For `profile set`, so a bad value is caught when saved.
 */
export async function checkSettings(group: CredentialGroup, settings: ApiSettings): Promise<void> {
  const { baseUrlOption } = await import('../core/options.js');
  const { apiKeyHeader, hmacAuthorizer } = await import('../core/auth.js');
  if (settings.apiKey !== undefined || settings.apiSecret !== undefined) {
    if (group === 'streams') hmacAuthorizer({ apiKey: settings.apiKey ?? '00000000-0000-4000-8000-000000000000', apiSecret: settings.apiSecret ?? 'unchanged' });
    else if (settings.apiKey !== undefined) apiKeyHeader(settings.apiKey);
  }
  if (settings.baseUrl !== undefined) baseUrlOption(settings.baseUrl);
  if (settings.wsUrl !== undefined) {
    const { wsUrlOption } = await import('../streams/report-stream/options.js');
    wsUrlOption(settings.wsUrl);
  }
  if (settings.network !== undefined && settings.network !== 'testnet' && settings.network !== 'mainnet') {
    throw new CliUsageError(`--network: expected one of testnet|mainnet, got ${JSON.stringify(settings.network)}`);
  }
}
