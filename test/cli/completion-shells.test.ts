// zsh and fish completion run in the real shells, as bash's is in
// process.test.ts: the script `service-sdk completion zsh|fish` prints is
// loaded as a user's shell configuration would load it, then the shell is
// asked what it offers for a command line: the APIs, an API's operations,
// an operation's flags (only those that apply to it) and a flag's enum
// values. Twice, as for bash: with `service-sdk` on hand (a global install),
// and for a project install, where only `npx service-sdk` reaches the bin
// and the script calls the bin that printed it. zsh is driven through a
// pseudo-terminal (test/cli/support/zsh-complete.zsh: an interactive zsh,
// a line and TAB); fish answers `complete -C '<line>'`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BIN, ROOT } from './support/bin-process.js';
import { candidatesByLine, describeWithShell, runShell } from './support/real-shells.js';

/** How the shell calls the bin: node with tsx, as the tests run it (the built package runs dist/ the same way). */
const RUN_BIN = `'${process.execPath}' --import tsx '${BIN}'`;

/** The lines every shell must complete as bash does, with what it must offer. */
const GLOBAL_CASES: [string, string[]][] = [
  ['service-sdk chan', ['channels']],
  ['service-sdk channels list-wa', ['list-wallets', 'list-watchers']],
  ['service-sdk channels list-wallets --chain-env', ['--chain-environment']],
  ['service-sdk channels list-wallets --chain-environment ', ['mainnet', 'testnet']],
  ['service-sdk coordinator list-policy-implementations --policy-kind o', ['offchain', 'onchain']],
];
/** An operation's flags: its parameters and the command line's flags that apply to it, never the others. */
const FLAGS_LINE = 'service-sdk channels get-wallet --';
const GET_WALLET_FLAGS = ['--wallet-id', '--api-key', '--base-url', '--output', '--dry-run', '--profile'];
const NOT_GET_WALLET_FLAGS = ['--all', '--wait', '--data', '--api-secret'];

/** A value with nothing to offer (a number): files, as bash's `complete -o default` gives (`--data @file` needs them). */
const FILES_LINE = 'service-sdk channels list-wallets --limit ';

const PROJECT_CASES: [string, string[]][] = [
  ['service-sdk chan', ['channels']],
  ['npx service-sdk channels list-wa', ['list-wallets', 'list-watchers']],
  ['npx service-sdk channels list-wallets --chain-environment ', ['mainnet', 'testnet']],
];
const OTHER_TOOL_LINE = 'npx other-tool chan';

const homes: string[] = [];
/** A home of its own for each run: the shells write their caches and histories there. */
function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'service-sdk-completion-'));
  homes.push(home);
  return home;
}
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** Checks what the shell offered for the global-install lines. */
function expectGlobalCompletion(stdout: string): void {
  const offered = new Map(candidatesByLine(stdout));
  for (const [line, expected] of GLOBAL_CASES) expect([line, offered.get(line)]).toEqual([line, [...expected].sort()]);
  const flags = offered.get(FLAGS_LINE) ?? [];
  for (const flag of GET_WALLET_FLAGS) expect([flag, flags.includes(flag)]).toEqual([flag, true]);
  for (const flag of NOT_GET_WALLET_FLAGS) expect([flag, flags.includes(flag)]).toEqual([flag, false]);
}

/** Checks what the shell offered for the project-install lines. */
function expectProjectCompletion(stdout: string): void {
  const offered = new Map(candidatesByLine(stdout));
  for (const [line, expected] of PROJECT_CASES) expect([line, offered.get(line)]).toEqual([line, [...expected].sort()]);
  // Another tool run through npx is left to the shell's own completion: nothing of ours.
  expect(offered.get(OTHER_TOOL_LINE) ?? []).not.toContain('channels');
}

describeWithShell('zsh', 'zsh completion, in a real interactive zsh', (zsh) => {
  const complete = (setup: string, lines: readonly string[], env: Record<string, string>) =>
    runShell(zsh, ['-f', join(ROOT, 'test', 'cli', 'support', 'zsh-complete.zsh'), setup, ...lines], { ...env, HOME: freshHome() });

  it('completes APIs, operations, an operation\'s flags and enum values (global install: compinit, then eval in .zshrc)', async () => {
    const setup = `autoload -Uz compinit && compinit; service-sdk() { ${RUN_BIN} "$@"; }; eval "$(service-sdk completion zsh)"`;
    const run = await complete(setup, [...GLOBAL_CASES.map(([line]) => line), FLAGS_LINE, FILES_LINE], { PATH: process.env.PATH! });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expectGlobalCompletion(run.stdout);
    expect(new Map(candidatesByLine(run.stdout)).get(FILES_LINE)).toContain('package.json');
  }, 60_000);

  it('works for a project install and the npx route, even in a .zshrc that has not run compinit', async () => {
    const run = await complete(`eval "$(${RUN_BIN} completion zsh)"`, [...PROJECT_CASES.map(([line]) => line), OTHER_TOOL_LINE], { PATH: '/usr/bin:/bin' });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expectProjectCompletion(run.stdout);
  }, 60_000);
});

describeWithShell('fish', 'fish completion, in a real fish', (fish) => {
  /** A fish script that loads `load`, then prints `<line>|<candidates>` for each line (`complete -C`). */
  const complete = (load: string, lines: readonly string[], env: Record<string, string>) => {
    const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    const script = [
      load,
      ...lines.map((line) => `echo ${quoted(line)}'|'(complete -C ${quoted(line)} | string split -f1 \\t | string join ' ')`),
    ].join('\n');
    return runShell(fish, ['--no-config', '-c', script], { ...env, HOME: freshHome() });
  };

  it('completes APIs, operations, an operation\'s flags and enum values (global install: sourced in config.fish)', async () => {
    const load = `function service-sdk; ${RUN_BIN} $argv; end\nservice-sdk completion fish | source`;
    const run = await complete(load, [...GLOBAL_CASES.map(([line]) => line), FLAGS_LINE, FILES_LINE], { PATH: process.env.PATH! });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expectGlobalCompletion(run.stdout);
    expect(new Map(candidatesByLine(run.stdout)).get(FILES_LINE)).toContain('package.json');
  }, 60_000);

  it('works for a project install and the npx route', async () => {
    const run = await complete(`${RUN_BIN} completion fish | source`, [...PROJECT_CASES.map(([line]) => line), OTHER_TOOL_LINE], { PATH: '/usr/bin:/bin' });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expectProjectCompletion(run.stdout);
  }, 60_000);
});
