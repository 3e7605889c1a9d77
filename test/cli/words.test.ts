// The command line speaks the user's words: help where a user looks for it
// (the program or an API alone, `help <api> [<operation>]`, `completion
// --help`), errors that name the flags typed (never the SDK's option names),
// an unknown command answered with every top-level command, and each
// operation's help listing only the flags that apply to it. The exit codes
// and streams are checked through the real bin; the rest in process.
import { describe, expect, it } from 'vitest';
import { finish, start } from './support/bin-process.js';
import { cli } from './support/run-cli.js';

const TOP_COMMANDS = ['channels', 'streams', 'coordinator', 'evaluation', 'reporting', 'sandbox', 'profile', 'completion', 'help'];

describe('help where users look for it (through the bin)', () => {
  it('service-sdk alone, service-sdk <api> alone and completion --help print help on stdout and exit 0', async () => {
    const [program, api, completion] = await Promise.all([finish(start([])), finish(start(['channels'])), finish(start(['completion', '--help']))]);
    expect([program.code, program.stdout, program.stderr]).toEqual([0, expect.stringContaining('usage: service-sdk <api> <operation>'), '']);
    expect([api.code, api.stdout, api.stderr]).toEqual([0, expect.stringContaining('usage: service-sdk channels <operation>'), '']);
    expect([completion.code, completion.stdout, completion.stderr]).toEqual([0, expect.stringContaining('usage: service-sdk completion bash|zsh|fish'), '']);
  });
});

describe('help <api> [<operation>]', () => {
  it('shows the API help and the operation help, as --help does', async () => {
    const api = await cli(['help', 'channels']);
    expect([api.code, api.stdout]).toEqual([0, (await cli(['channels', '--help'])).stdout]);
    const operation = await cli(['help', 'channels', 'list-wallets']);
    expect([operation.code, operation.stdout]).toEqual([0, (await cli(['channels', 'list-wallets', '--help'])).stdout]);
    const unknown = await cli(['help', 'chanels']);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('did you mean channels?')]);
  });
});

describe('the unknown command', () => {
  it('lists every top-level command', async () => {
    const run = await cli(['frobnicate']);
    expect(run.code).toBe(2);
    for (const command of TOP_COMMANDS) expect(run.stderr).toContain(command);
  });
});

describe('errors name the flags typed', () => {
  it('a malformed --api-key names --api-key, never the option apiKey', async () => {
    const run = await cli(['channels', 'list-networks', '--api-key', 'has space', '--base-url', 'http://127.0.0.1:9/v1']);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining('--api-key')]);
    expect(run.stderr).not.toMatch(/apiKey|Invalid option/);
    expect(run.stderr).not.toContain('has space');
  });

  it('a malformed --base-url names --base-url', async () => {
    const run = await cli(['channels', 'list-networks', '--api-key', 'k', '--base-url', 'not a url']);
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/^service-sdk: --base-url: /)]);
    expect(run.stderr).not.toMatch(/baseUrl|Invalid option/);
  });

  it('a bad feed ID given as an argument is named as the argument, not as the spec parameter', async () => {
    const latest = await cli(['streams', 'latest', '0x12']);
    expect([latest.code, latest.stderr]).toEqual([2, expect.stringMatching(/^service-sdk: feed ID "0x12": expected /)]);
    expect(latest.stderr).not.toContain('--feedID');
    const stream = await cli(['streams', 'stream-reports', '--feed-ids', '0x12']);
    expect([stream.code, stream.stderr]).toEqual([2, expect.stringMatching(/^service-sdk: --feed-ids: expected /)]);
  });
});

describe('each operation lists only the flags that apply', () => {
  const flagsOf = (help: string) => new Set([...help.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((match) => match[1]!));

  it('--all on lists, --wait where a wait exists, --data with a body, --api-secret on streams', async () => {
    const getWallet = flagsOf((await cli(['channels', 'get-wallet', '--help'])).stdout);
    for (const flag of ['all', 'wait', 'wait-timeout', 'data', 'api-secret', 'network', 'ws-url']) expect([flag, getWallet.has(flag)]).toEqual([flag, false]);
    for (const flag of ['wallet-id', 'api-key', 'base-url', 'output', 'dry-run', 'profile']) expect([flag, getWallet.has(flag)]).toEqual([flag, true]);
    const listWallets = flagsOf((await cli(['channels', 'list-wallets', '--help'])).stdout);
    expect([listWallets.has('all'), listWallets.has('wait'), listWallets.has('data')]).toEqual([true, false, false]);
    const createOperation = flagsOf((await cli(['channels', 'create-operation', '--help'])).stdout);
    expect([createOperation.has('all'), createOperation.has('wait'), createOperation.has('wait-timeout'), createOperation.has('data')]).toEqual([false, true, true, true]);
    const latest = flagsOf((await cli(['streams', 'get-latest-report', '--help'])).stdout);
    expect([latest.has('api-secret'), latest.has('network'), latest.has('data'), latest.has('all')]).toEqual([true, true, false, false]);
  });

  it('a flag that does not apply is refused, saying why', async () => {
    const run = await cli(['channels', 'get-channel', '--channel-id', '7c9e6679-7425-40de-944b-e07fc1f90ae7', '--api-secret', 's']);
    expect([run.code, run.stderr]).toEqual([2, 'service-sdk: --api-secret: only the streams API takes it\n']);
  });
});
