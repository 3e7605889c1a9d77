/**
 * `service-sdk profile set|show|delete|list|path`: named settings in the
 * user's config directory (0600, written atomically). `set` checks each value
 * against the API's documented form before saving it, and reads a secret
 * given as `-` from stdin; `show` prints one profile's values, secrets
 * masked, each with where a command would take it from; `list` shows which
 * settings each profile has, never their values.
 */
import { homedir } from 'node:os';
import type { CredentialGroup } from './apis.js';
import { isSet, lastValue, parseArgs, type FlagSpec } from './argv.js';
import { checkSettings, FLAG_OF, resolveFrom } from './credentials.js';
import { SETTINGS_ORDER } from './settings-order.js';
import { CliProfileError, CliUsageError } from './errors.js';
import { writeMessage, type CliIo } from './io.js';
import { checkedProfileName, deleteProfile, profileNamed, profilePath, readProfiles, saveProfile, SETTING_KEYS, settingKeysOf, type ApiSettings } from './profiles.js';
import { settingFlags } from './setting-flags.js';
import { columnWidths, tableLine } from './output.js';
import { visible } from './terminal-text.js';

const FLAGS: ReadonlyMap<string, FlagSpec> = new Map<string, FlagSpec>([
  ['api', {}],
  ...SETTING_KEYS.map((key): [string, FlagSpec] => [FLAG_OF[key], {}]),
]);

const HELP = `usage: service-sdk profile set <name> --api channels|streams|policy [--api-key K|-] [--api-secret S|-] [--base-url U] [--network N] [--ws-url U]
       service-sdk profile show <name>
       service-sdk profile delete <name>
       service-sdk profile list
       service-sdk profile path

Profiles live in one file in your config directory, readable by you only
(0600). Use one with --profile <name> or SERVICE_SDK_PROFILE=<name>.
Settings are taken from ${SETTINGS_ORDER}.
Channels and policy profiles hold --api-key and --base-url; streams
profiles also --api-secret, --network and --ws-url. A key or
secret given as - is read from stdin, so it stays out of ps and your shell
history. show masks secrets and says where each value comes from.
`;

const GROUPS: readonly CredentialGroup[] = ['channels', 'streams', 'policy'];
const SECRETS: ReadonlySet<keyof ApiSettings> = new Set(['apiKey', 'apiSecret']);

/** A secret as its last four characters: enough to tell two keys apart. */
function masked(value: string): string {
  return `****${value.length > 8 ? value.slice(-4) : ''}`;
}

/** Runs `profile <action>`; its exit code. */
export async function runProfile(rest: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(rest, FLAGS);
  const [action, name, ...extra] = args.positionals;
  if (isSet(args, 'help') || action === undefined) {
    io.stdout.write(HELP);
    return action === undefined && !isSet(args, 'help') ? 2 : 0;
  }
  const path = profilePath(io.env, io.homeDir ?? homedir());
  if (action === 'path') {
    io.stdout.write(`${path}\n`);
    return 0;
  }
  if (action === 'list') {
    const rows = Object.entries(await readProfiles(path)).map(([profile, groups]) => [
      visible(profile),
      visible(Object.entries(groups ?? {}).map(([group, settings]) => `${group}(${Object.keys(settings ?? {}).join(',')})`).join(' ')),
    ]);
    printRows(rows, io);
    return 0;
  }
  if (!['set', 'show', 'delete'].includes(action)) throw new CliUsageError(`profile: unknown action ${JSON.stringify(action)}: expected set, show, delete, list or path`, HELP);
  if (name === undefined || extra.length > 0) throw new CliUsageError(`profile ${action}: expected one profile name`, HELP);
  checkedProfileName(name, `profile ${action}`);
  if (action === 'show') return showProfile(path, name, io);
  if (action === 'delete') {
    if (!(await deleteProfile(path, name))) throw new CliProfileError(`no profile named ${JSON.stringify(name)} in ${path}`);
    writeMessage(io.stderr, `deleted profile ${name} (${path})`);
    return 0;
  }
  const group = lastValue(args, 'api') as CredentialGroup | undefined;
  if (group === undefined || !GROUPS.includes(group)) throw new CliUsageError(`--api: expected one of ${GROUPS.join('|')}`, HELP);
  const settings: ApiSettings = await settingFlags(args, io);
  const foreign = SETTING_KEYS.filter((key) => settings[key] !== undefined && !settingKeysOf(group).includes(key));
  if (foreign.length > 0) throw new CliUsageError(`--${FLAG_OF[foreign[0]!]}: a ${group} profile has no ${FLAG_OF[foreign[0]!]} (only ${settingKeysOf(group).map((key) => `--${FLAG_OF[key]}`).join(', ')})`);
  if (Object.keys(settings).length === 0) throw new CliUsageError('profile set: give at least one of --api-key, --api-secret, --base-url, --network, --ws-url');
  await checkSettings(group, settings);
  await saveProfile(path, name, group, settings);
  writeMessage(io.stderr, `saved ${Object.keys(settings).join(', ')} for ${group} in profile ${name} (${path})`);
  return 0;
}

/** Rows of escaped cells as aligned columns on stdout (the last one unpadded). */
function printRows(rows: readonly string[][], io: CliIo): void {
  if (rows.length === 0) return;
  const widths = columnWidths(rows[0]!.map(() => ''), rows);
  for (const row of rows) io.stdout.write(`${tableLine(row, widths)}\n`);
}

/** `profile show <name>`: one line per setting, `group  flag  value  source`, secrets masked. */
async function showProfile(path: string, name: string, io: CliIo): Promise<number> {
  const profiles = await readProfiles(path);
  const profile = profileNamed(profiles, name);
  if (profile === undefined) throw new CliProfileError(`no profile named ${JSON.stringify(name)} in ${path}`);
  const rows: string[][] = [];
  for (const group of GROUPS) {
    // What a command would use with this profile named (--profile or SERVICE_SDK_PROFILE): the same resolution.
    const resolved = resolveFrom(group, {}, name, profiles, io.env);
    for (const key of settingKeysOf(group)) {
      if (profile[group]?.[key] === undefined) continue;
      const setting = resolved[key]!;
      const source = `${setting.source}${setting.overrides ? ` (overrides ${setting.overrides})` : ''}`;
      rows.push([group, FLAG_OF[key], SECRETS.has(key) ? masked(setting.value) : visible(setting.value), visible(source)]);
    }
  }
  printRows(rows, io);
  writeMessage(io.stderr, `(${path}; used with --profile ${name})`);
  return 0;
}
