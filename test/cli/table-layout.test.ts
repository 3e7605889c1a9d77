// Tables laid out by terminal columns: CJK characters take two, so columns
// stay aligned; on a terminal a table fits the window (the widest cells cut
// with …, identifiers whole) and a streamed `--all` table keeps the columns
// of its first page; in a pipe no cell is ever cut.
import { describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { readmeClaim } from '../support/readme-claim.js';
import { finish, start } from './support/bin-process.js';
import { onTerminal } from './support/pty.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const CJK = '東京チャンネル';
const LONG = `long ${'x'.repeat(230)} end`;
/** Terminal columns of the test's own texts: the CJK and kana above take two each. */
const columns = (text: string) => [...text].reduce((sum, char) => sum + (/[\u3000-\u9fff]/.test(char) ? 2 : 1), 0);
/** Where `word` starts in `line`, in terminal columns. */
const columnOf = (line: string, word: string | RegExp) => columns(line.slice(0, line.search(word)));
/** The lines a terminal shows: what follows a line's last carriage return overwrote what preceded it. */
const rowsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1))
    .filter((line) => line.trim() !== '');

describe('table layout', { timeout: 90_000 }, () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);
  const create = async (body: object) => expect((await cli(['channels', 'create-channel', '--data', JSON.stringify(body)], { env: env() })).code).toBe(0);

  it(readmeClaim('In a pipe no cell is ever cut: a longer one widens its own row only.'), async () => {
    await create({ name: 'plain' });
    await create({ name: CJK, description: LONG });
    const run = await finish(start(['channels', 'list-channels', '--output', 'table'], env()));
    expect(run.code).toBe(0);
    const [header, ...rows] = rowsOf(run.stdout);
    expect(rows).toHaveLength(2);
    const status = columnOf(header!, 'STATUS');
    for (const row of rows) expect(columnOf(row, /active/)).toBe(status);
    expect(run.stdout).toContain(LONG);
    const walked = await finish(start(['channels', 'list-channels', '--all', '--limit', '1', '--output', 'table'], env()));
    expect(walked.stdout).toContain(LONG);
  });

  it(readmeClaim('On a terminal a table fits the window: the widest cells are cut with `…`, identifiers last, and a streamed `--all` table keeps the columns of its first page.'), async () => {
    await create({ name: 'plain' });
    await create({ name: 'second' });
    await create({ name: CJK, description: LONG });
    const ids = (await cli(['channels', 'list-channels', '--filter', 'data[].channel_id'], { env: env() })).json as string[];
    for (const args of [
      ['channels', 'list-channels', '--output', 'table'],
      ['channels', 'list-channels', '--all', '--limit', '2', '--output', 'table'],
    ]) {
      const run = await onTerminal(args, env(), 100);
      expect(run.code).toBe(0);
      const lines = rowsOf(run.output).filter((line) => !/^\d+ items$/.test(line));
      const [header, ...rows] = lines;
      expect(rows, run.output).toHaveLength(3);
      for (const line of lines) expect(columns(line)).toBeLessThanOrEqual(100);
      for (const id of ids) expect(run.output).toContain(id);
      expect(run.output).toContain('…');
      const status = columnOf(header!, 'STATUS');
      for (const row of rows) expect(columnOf(row, /active/)).toBe(status);
    }
  });
});
