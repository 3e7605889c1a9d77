// Nothing from a server or a file reaches the terminal raw: every control
// character (all of C0, DEL, C1) and every escape sequence (CSI, OSC) in a
// value is printed as a visible escape (`\n`, `\t`, `\x1b`) in tables,
// messages and status lines, as gh and kubectl print them; JSON escapes
// them as JSON does. Run as the bin, in a pipe and on a real terminal.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';
import { finish, start } from './support/bin-process.js';
import { onTerminal } from './support/pty.js';
import { cli, sandboxEnv } from './support/run-cli.js';

/** Every C0 control character, DEL and the C1 CSI, then a colour (CSI), a window title (OSC) and a cursor move. */
const HOSTILE = `${Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('')}\x7f\x9b` + 'red:\x1b[31mRED\x1b[0m title:\x1b]0;pwned\x07 up:\x1b[2A';

/** What must never reach a terminal: a byte below 0x20 other than the line break between rows, DEL, ESC, or C1 (UTF-8 C2 80–9F). */
function rawControls(text: string): string[] {
  return [...text.matchAll(/[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/g)].map((match) => `U+${match[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${match.index}`);
}

describe('values holding control characters, printed by the bin', { timeout: 90_000 }, () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cli-terminal-text-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  const hostileChannel = async (): Promise<string> => {
    const created = await cli(['channels', 'create-channel', '--data', JSON.stringify({ name: `n${HOSTILE}`, description: `d${HOSTILE}` })], { env: env() });
    expect(created.code).toBe(0);
    return created.json.channel_id;
  };

  it(readmeClaim('in tables, messages and status lines every control character is shown as a visible escape'), async () => {
    const id = await hostileChannel();
    await cli(['channels', 'create-channel', '--data', '{"name":"plain"}'], { env: env() });
    const runs = await Promise.all([
      finish(start(['channels', 'list-channels', '--output', 'table'], env())),
      finish(start(['channels', 'list-channels', '--all', '--limit', '1', '--output', 'table'], env())),
      finish(start(['channels', 'get-channel', '--channel-id', id, '--output', 'table'], env())),
      finish(start(['channels', 'list-channels'], env())),
      finish(start(['channels', 'list-channels', '--all', '--output', 'ndjson'], env())),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(rawControls(run.stdout)).toEqual([]);
      expect(rawControls(run.stderr)).toEqual([]);
    }
    const [list, walked, single] = runs;
    // A header and one line per channel: the description's \n splits no row.
    expect(list!.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(walked!.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(list!.stdout).toContain('\\n\\x0b\\x0c\\r');
    expect(list!.stdout).toContain('\\t');
    expect(list!.stdout).toContain('red:\\x1b[31mRED\\x1b[0m title:\\x1b]0;pwned\\x07 up:\\x1b[2A');
    expect(single!.stdout).toMatch(/^description\s+d\\x00\\x01/m);
  });

  it('an error message quoting a value: escaped on stderr', async () => {
    await hostileChannel();
    const run = await finish(start(['channels', 'create-channel', '--data', JSON.stringify({ name: `n${HOSTILE}` })], env()));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^service-sdk: 409 .*\\x1b\[31mRED/);
    expect(rawControls(run.stderr)).toEqual([]);
    expect(rawControls(run.stdout)).toEqual([]);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('profile list and profile show print a hand-edited profile file escaped', async () => {
    const file = join(home, 'service-sdk', 'profiles.json');
    await mkdir(join(home, 'service-sdk'), { recursive: true });
    await writeFile(file, JSON.stringify({ profiles: { [`p${HOSTILE}`]: { channels: { baseUrl: `https://x.example/${HOSTILE}` } }, plain: { channels: { baseUrl: `https://x.example/${HOSTILE}` } } } }), { mode: 0o600 });
    const runs = await Promise.all([finish(start(['profile', 'list'], { XDG_CONFIG_HOME: home })), finish(start(['profile', 'show', 'plain'], { XDG_CONFIG_HOME: home }))]);
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(rawControls(run.stdout)).toEqual([]);
      expect(rawControls(run.stderr)).toEqual([]);
    }
    expect(runs[1]!.stdout).toContain('\\x1b]0;pwned\\x07');
  });

  it('on a terminal: the table and the error message escaped too', async () => {
    const id = await hostileChannel();
    const table = await onTerminal(['channels', 'get-channel', '--channel-id', id, '--output', 'table'], env());
    expect(table.code).toBe(0);
    expect(rawControls(table.output)).toEqual([]);
    expect(table.output).toMatch(/^name +n\\x00\\x01\\x02/m);
    const error = await onTerminal(['channels', 'create-channel', '--data', JSON.stringify({ name: `n${HOSTILE}` }), '--output', 'table'], env());
    expect(error.code).toBe(1);
    expect(rawControls(error.output)).toEqual([]);
  });
});
