/**
 * Named profiles: credentials and base URLs kept in the user's config
 * directory (`$XDG_CONFIG_HOME/service-sdk/profiles.json`, else
 * `~/.config/service-sdk/profiles.json`; `%APPDATA%\service-sdk` on Windows).
 * The file is created readable by its owner only (0600, in a 0700 folder), and
 * a file that others can read is refused rather than used: it holds secrets.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CredentialGroup } from './apis.js';
import { CliProfileError, CliUsageError } from './errors.js';

/** The profile file can be read by group or others: it holds secrets. */
export class InsecureProfileFileError extends CliProfileError {
  override name = 'InsecureProfileFileError';
  /** The file and its permission bits in octal (`644`). */
  readonly path: string;
  readonly mode: string;
  constructor(path: string, mode: string) {
    super(`the profile file ${path} can be read by others (mode ${mode}); it holds secrets, so it is not used. Run: chmod 600 ${path}`);
    this.path = path;
    this.mode = mode;
  }
}

export interface ApiSettings {
  apiKey?: string;
  apiSecret?: string;
  baseUrl?: string;
  network?: string;
  wsUrl?: string;
}

export type Profile = Partial<Record<CredentialGroup, ApiSettings>>;

/** Profiles by name, in an object with no prototype: a name is looked up as an own key only (`constructor` is no profile). */
export type ProfileSet = Record<string, Profile>;

interface ProfileFile {
  profiles: ProfileSet;
}

export const SETTING_KEYS: readonly (keyof ApiSettings)[] = ['apiKey', 'apiSecret', 'baseUrl', 'network', 'wsUrl'];

/** The settings each API's profile holds: only streams has a secret, a network and a WebSocket host. */
const KEYS_OF: Readonly<Record<CredentialGroup, readonly (keyof ApiSettings)[]>> = {
  channels: ['apiKey', 'baseUrl'],
  streams: SETTING_KEYS,
  policy: ['apiKey', 'baseUrl'],
};

export function settingKeysOf(group: CredentialGroup): readonly (keyof ApiSettings)[] {
  return KEYS_OF[group];
}

/** What a profile may be called: a letter or digit, then letters, digits, `.`, `_` or `-`; 64 at most. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `name` if profiles may be called so; else a usage error naming `where` it came from (`--profile`, `SERVICE_SDK_PROFILE`). */
export function checkedProfileName(name: string, where: string): string {
  if (!PROFILE_NAME.test(name)) throw new CliUsageError(`${where}: a profile name is a letter or digit, then letters, digits, ".", "_" or "-" (64 at most), got ${JSON.stringify(name)}`);
  return name;
}

export function emptyProfiles(): ProfileSet {
  return Object.create(null) as ProfileSet;
}

/** The profile called `name`, as an own key of the set only. */
export function profileNamed(profiles: ProfileSet, name: string): Profile | undefined {
  return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

export function profilePath(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(homeDir, '.config'));
  return join(base, 'service-sdk', 'profiles.json');
}

/** The file's profiles, or an empty set when there is no file. Refuses a file group or others may read. */
export async function readProfiles(path: string): Promise<ProfileSet> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyProfiles();
    throw new CliProfileError(`cannot read the profile file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new InsecureProfileFileError(path, (mode & 0o777).toString(8));
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
  return Object.assign(emptyProfiles(), profiles);
}

/** Sets `settings` for one API group of profile `name`, creating the file 0600 (and its folder 0700) if needed. */
export async function saveProfile(path: string, name: string, group: CredentialGroup, settings: ApiSettings): Promise<void> {
  const profiles = await readProfiles(path);
  const profile = profileNamed(profiles, name) ?? {};
  profile[group] = { ...profile[group], ...settings };
  profiles[name] = profile;
  await writeProfiles(path, profiles);
}

/** Removes profile `name`; false when there is none. */
export async function deleteProfile(path: string, name: string): Promise<boolean> {
  const profiles = await readProfiles(path);
  if (profileNamed(profiles, name) === undefined) return false;
  delete profiles[name];
  await writeProfiles(path, profiles);
  return true;
}

/**
 * Writes the file atomically: a temporary file beside it, created 0600, then
 * renamed over it. A crash or a full disk leaves the old file whole, and the
 * new one is never readable by others, not even for a moment.
 */
async function writeProfiles(path: string, profiles: ProfileSet): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
