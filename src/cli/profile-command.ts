/**
 * `service-sdk profile set <name> --api <group> [settings]`, `profile list`,
 * `profile path`: named settings in the user's config directory (0600).
 * `list` shows which settings each profile has, never their values.
 */
import { homedir } from 'node:os';
import type { CredentialGroup } from './apis.js';
import { isSet, lastValue, parseArgs, type FlagSpec } from './argv.js';
import { FLAG_OF } from './credentials.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { profilePath, readProfiles, saveProfile, SETTING_KEYS, type ApiSettings } from './profiles.js';

const FLAGS: ReadonlyMap<string, FlagSpec> = new Map<string, FlagSpec>([
  ['help', { boolean: true }],
  ['api', {}],
  ...SETTING_KEYS.map((key): [string, FlagSpec] => [FLAG_OF[key], {}]),
]);

const HELP = `usage: service-sdk profile set <name> --api channels|streams|policy [--api-key K] [--api-secret S] [--base-url U] [--network N] [--ws-url U]
       service-sdk profile list
       service-sdk profile path

Profiles live in one file in your config directory, readable by you only
(0600). Use one with --profile <name> or SERVICE_SDK_PROFILE; "default" is
used when neither is given.
`;

const GROUPS: readonly CredentialGroup[] = ['channels', 'streams', 'policy'];

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
    for (const [profile, groups] of Object.entries(await readProfiles(path))) {
      const parts = Object.entries(groups).map(([group, settings]) => `${group}(${Object.keys(settings ?? {}).join(',')})`);
      io.stdout.write(`${profile}  ${parts.join(' ')}\n`);
    }
    return 0;
  }
  if (action !== 'set') throw new CliUsageError(`profile: unknown action ${JSON.stringify(action)}: expected set, list or path`, HELP);
  if (name === undefined || extra.length > 0) throw new CliUsageError('profile set: expected one profile name', HELP);
  const group = lastValue(args, 'api') as CredentialGroup | undefined;
  if (group === undefined || !GROUPS.includes(group)) throw new CliUsageError(`--api: expected one of ${GROUPS.join('|')}`, HELP);
  const settings: ApiSettings = {};
  for (const key of SETTING_KEYS) {
    const value = lastValue(args, FLAG_OF[key]);
    if (value !== undefined) settings[key] = value;
  }
  if (Object.keys(settings).length === 0) throw new CliUsageError('profile set: give at least one of --api-key, --api-secret, --base-url, --network, --ws-url');
  await saveProfile(path, name, group, settings);
  io.stderr.write(`saved ${Object.keys(settings).join(', ')} for ${group} in profile ${name} (${path})\n`);
  return 0;
}
