/**
 * Where an API's credentials and base URL come from: the command's flags,
 * the environment (one set of variables per API) and the profiles
 * (`resolveSettings` says in which order).
 */
import { homedir } from 'node:os';
import type { CliApi, CredentialGroup } from './apis.js';
import { CliProfileError, CliUsageError } from './errors.js';
import { writeMessage, type CliIo } from './io.js';
import { checkedProfileName, emptyProfiles, profileNamed, profilePath, readProfiles, settingKeysOf, type ApiSettings, type ProfileSet } from './profiles.js';

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

/** One setting as resolved: its value and where it came from (`--api-key`, `profile prod`, `SERVICE_SDK_…`). */
export interface ResolvedSetting {
  value: string;
  source: string;
  /** The environment variable a named profile's value beats, if one is set. */
  overrides?: string;
}

/** The profile a command names: `--profile`, else `SERVICE_SDK_PROFILE`; checked against the names profiles may have. */
export function namedProfile(flag: string | undefined, env: CliIo['env']): { name: string; how: string } | undefined {
  if (flag !== undefined) return { name: checkedProfileName(flag, '--profile'), how: `--profile ${flag}` };
  const fromEnv = nonEmpty(env.SERVICE_SDK_PROFILE);
  return fromEnv === undefined ? undefined : { name: checkedProfileName(fromEnv, 'SERVICE_SDK_PROFILE'), how: `SERVICE_SDK_PROFILE=${fromEnv}` };
}

/**
 * Each setting of `group` in SETTINGS_ORDER (src/cli/settings-order.ts),
 * first found wins: `flags`; the `named` profile (by `--profile`, else by
 * `SERVICE_SDK_PROFILE`); the environment's variables; the `default`
 * profile (`profiles` as read).
 * Only the settings `group` has are read (channels has no secret).
 */
export function resolveFrom(
  group: CredentialGroup,
  flags: Partial<Record<keyof ApiSettings, string>>,
  named: string | undefined,
  profiles: ProfileSet,
  env: CliIo['env'],
): Partial<Record<keyof ApiSettings, ResolvedSetting>> {
  const fromNamed = named === undefined ? {} : (profileNamed(profiles, named)?.[group] ?? {});
  const fromDefault = named === undefined ? (profileNamed(profiles, 'default')?.[group] ?? {}) : {};
  const resolved: Partial<Record<keyof ApiSettings, ResolvedSetting>> = {};
  for (const key of settingKeysOf(group)) {
    const variable = envName(group, key);
    const candidates: [string | undefined, string][] = [
      [nonEmpty(flags[key]), `--${FLAG_OF[key]}`],
      [nonEmpty(fromNamed[key]), `profile ${named}`],
      [nonEmpty(env[variable]), variable],
      [nonEmpty(fromDefault[key]), 'profile default'],
    ];
    const found = candidates.find(([value]) => value !== undefined);
    if (found === undefined) continue;
    const overrides = found[1] === `profile ${named}` && nonEmpty(env[variable]) !== undefined ? variable : undefined;
    resolved[key] = { value: found[0]!, source: found[1], ...(overrides ? { overrides } : {}) };
  }
  return resolved;
}

/**
 * The settings a command uses, in SETTINGS_ORDER. The profile file is read
 * only for a profile: one that cannot be used (others can read it, it is not
 * valid JSON) is refused when a profile is named, and otherwise ignored with
 * a warning, so commands given flags or the environment still run.
 */
export async function resolveSettings(
  api: CliApi,
  flags: Partial<Record<keyof ApiSettings, string>>,
  profileName: string | undefined,
  io: CliIo,
): Promise<ApiSettings> {
  const group = api.credentials;
  const named = namedProfile(profileName, io.env);
  const path = profilePath(io.env, io.homeDir ?? homedir());
  let profiles: ProfileSet;
  try {
    profiles = await readProfiles(path);
  } catch (error) {
    if (!(error instanceof CliProfileError) || named !== undefined) throw error;
    writeMessage(io.stderr, `service-sdk: warning: ${error.message}; ignored, as no profile was named`);
    profiles = emptyProfiles();
  }
  if (named !== undefined && profileNamed(profiles, named.name) === undefined) throw new CliProfileError(`no profile named ${JSON.stringify(named.name)} in ${path}`);
  const resolved = resolveFrom(group, flags, named?.name, profiles, io.env);
  const settings: ApiSettings = {};
  for (const [key, setting] of Object.entries(resolved)) settings[key as keyof ApiSettings] = setting.value;
  const overridden = Object.values(resolved).flatMap((setting) => (setting.overrides ? [setting.overrides] : []));
  if (overridden.length > 0) writeMessage(io.stderr, `service-sdk: warning: ${named!.how} overrides ${overridden.join(', ')} from the environment`);
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
