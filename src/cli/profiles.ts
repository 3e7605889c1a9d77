/**
 * Named profiles: credentials and base URLs kept in the user's config
 * directory (`$XDG_CONFIG_HOME/service-sdk/profiles.json`, else
 * `~/.config/service-sdk/profiles.json`; `%APPDATA%\service-sdk` on Windows).
 * The file is created readable by its owner only (0600, in a 0700 folder), and
 * a file that others can read is refused rather than used: it holds secrets.
 */
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CredentialGroup } from './apis.js';
import { CliProfileError } from './errors.js';

export interface ApiSettings {
  apiKey?: string;
  apiSecret?: string;
  baseUrl?: string;
  network?: string;
  wsUrl?: string;
}

export type Profile = Partial<Record<CredentialGroup, ApiSettings>>;

interface ProfileFile {
  profiles: Record<string, Profile>;
}

export const SETTING_KEYS: readonly (keyof ApiSettings)[] = ['apiKey', 'apiSecret', 'baseUrl', 'network', 'wsUrl'];

export function profilePath(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(homeDir, '.config'));
  return join(base, 'service-sdk', 'profiles.json');
}

/** The file's profiles, or an empty set when there is no file. Refuses a file group or others may read. */
export async function readProfiles(path: string): Promise<Record<string, Profile>> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliProfileError(`cannot read the profile file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new CliProfileError(
      `the profile file ${path} can be read by others (mode ${(mode & 0o777).toString(8)}); it holds secrets, so it is not used. Run: chmod 600 ${path}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw new CliProfileError(`the profile file ${path} is not valid JSON`);
  }
  const profiles = (parsed as Partial<ProfileFile> | null)?.profiles;
  if (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles)) {
    throw new CliProfileError(`the profile file ${path} has no "profiles" object`);
  }
  return profiles;
}

/** Sets `settings` for one API group of profile `name`, creating the file 0600 (and its folder 0700) if needed. */
export async function saveProfile(path: string, name: string, group: CredentialGroup, settings: ApiSettings): Promise<void> {
  const profiles = await readProfiles(path);
  const profile = profiles[name] ?? {};
  profile[group] = { ...profile[group], ...settings };
  profiles[name] = profile;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; an existing one is tightened too.
  await chmod(path, 0o600);
}
