// The command line as real processes (node with tsx, as the bin runs after
// the build): exit codes, Ctrl-C as a real SIGINT while `streams watch`
// streams from `service-sdk sandbox --json`, the old service-sdk-sandbox bin,
// and bash completion run through the script `completion bash` prints.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT as root, finish, firstLine, start, track } from './support/bin-process.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

describe('service-sdk as a process', () => {
  it('exits 0 on --help, 2 on bad usage, 3 when nothing answers', async () => {
    const [help, usage, unreachable] = await Promise.all([
      finish(start(['--help'])),
      finish(start(['channels', 'get-wallet', '--wallet-id', 'nope'])),
      finish(start(['channels', 'list-networks'], { SERVICE_SDK_CHANNELS_BASE_URL: 'http://127.0.0.1:9/v1', SERVICE_SDK_CHANNELS_API_KEY: 'k' })),
    ]);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('usage: service-sdk <api> <operation>')]);
    expect([usage.code, usage.stderr]).toEqual([2, 'service-sdk: --wallet-id: expected a UUID, got "nope"\n']);
    expect([unreachable.code, unreachable.stderr]).toEqual([3, expect.stringContaining('no answer')]);
  });

  it('sandbox --json, then watch until Ctrl-C: 130, whole lines; the sandbox stops on Ctrl-C with 0', async () => {
    const sandbox = start(['sandbox', '--json']);
    const sandboxDone = finish(sandbox);
    const summary = JSON.parse(await firstLine(sandbox));
    expect(Object.keys(summary)).toEqual(['baseUrls', 'wsUrl', 'credentials', 'reportTrust']);
    // The made-up oracle network the sandbox signs with: a 0x0006 config digest per stream, f = 1, 4 signers.
    const [digest, config] = Object.entries(summary.reportTrust as Record<string, { f: number; signers: string[] }>)[0]!;
    expect([digest.slice(0, 6), config.f, config.signers.length]).toEqual(['0x0006', 1, 4]);
    expect(Object.keys(summary.baseUrls)).toEqual(['channels', 'streams', 'policy']);
    expect(summary.credentials.streams).toEqual({ apiKey: expect.any(String), apiSecret: expect.any(String) });
    const env = {
      SERVICE_SDK_CHANNELS_BASE_URL: summary.baseUrls.channels,
      SERVICE_SDK_CHANNELS_API_KEY: summary.credentials.channels.apiKey,
      SERVICE_SDK_STREAMS_BASE_URL: summary.baseUrls.streams,
      SERVICE_SDK_STREAMS_WS_URL: summary.wsUrl,
      SERVICE_SDK_STREAMS_API_KEY: summary.credentials.streams.apiKey,
      SERVICE_SDK_STREAMS_API_SECRET: summary.credentials.streams.apiSecret,
    };

    const [ok, missing] = await Promise.all([
      finish(start(['channels', 'list-networks', '--filter', 'length(data)'], env)),
      finish(start(['channels', 'get-wallet', '--wallet-id', '3fa85f64-5717-4562-b3fc-2c963f66afa6'], env)),
    ]);
    expect([ok.code, Number(ok.stdout)]).toEqual([0, expect.any(Number)]);
    expect(Number(ok.stdout)).toBeGreaterThan(0);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('404 NOT_FOUND WALLET_NOT_FOUND')]);

    const watch = start(['streams', 'watch', ETH_USD], env);
    const watched = finish(watch);
    const first = JSON.parse(await firstLine(watch));
    expect(first).toMatchObject({ feedID: ETH_USD, version: 'V3' });
    watch.kill('SIGINT');
    const { code, stdout } = await watched;
    expect(code).toBe(130);
    expect(stdout === '' || stdout.endsWith('\n')).toBe(true);
    for (const line of stdout.split('\n').filter(Boolean)) expect(JSON.parse(line).feedID).toBe(ETH_USD);

    sandbox.kill('SIGINT');
    expect((await sandboxDone).code).toBe(0);
  });

  it('the old service-sdk-sandbox command still serves and prints its URLs and credentials', async () => {
    const old = start([], {}, join(root, 'src', 'sandbox', 'bin.ts'));
    let printed = '';
    old.stdout.on('data', (chunk: Buffer) => (printed += chunk));
    const done = finish(old);
    for (let waited = 0; !printed.includes('Ctrl-C') && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(printed).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+\n/);
    const baseUrl = /channels\s+(http\S+)/.exec(printed)![1]!;
    const apiKey = /channels apiKey\s+(\S+)/.exec(printed)![1]!;
    const answer = await fetch(`${baseUrl}/networks`, { headers: { Authorization: `Apikey ${apiKey}` } });
    expect(answer.status).toBe(200);
    old.kill('SIGINT');
    // Under tsx a `once` SIGINT handler races tsx's own relay, so the built bin's clean exit 0 may show as the signal here.
    const { code } = await done;
    expect(code === 0 || old.signalCode === 'SIGINT').toBe(true);
  });

  it('bash completion completes APIs, operations, flags and enum values', async () => {
    const script = `
      service-sdk() { "${process.execPath}" --import tsx "${BIN}" "$@"; }
      eval "$(service-sdk completion bash)"
      complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _service_sdk; echo "$*|\${COMPREPLY[*]}"; }
      complete_words service-sdk chan
      complete_words service-sdk channels list-wa
      complete_words service-sdk channels list-wallets --chain-env
      complete_words service-sdk channels list-wallets --chain-environment ""
      complete_words service-sdk coordinator list-policy-implementations --policy-kind o
    `;
    const bash = spawn('bash', ['-c', script], { cwd: root, env: { PATH: process.env.PATH!, HOME: '/nonexistent' } });
    track(bash as ChildProcessWithoutNullStreams);
    const { code, stdout, stderr } = await finish(bash as ChildProcessWithoutNullStreams);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout.trim().split('\n')).toEqual([
      'service-sdk chan|channels',
      'service-sdk channels list-wa|list-wallets list-watchers',
      'service-sdk channels list-wallets --chain-env|--chain-environment',
      'service-sdk channels list-wallets --chain-environment |mainnet testnet',
      'service-sdk coordinator list-policy-implementations --policy-kind o|onchain offchain',
    ]);
  }, 60_000);

  it('bash completion works for a project install (no service-sdk on PATH: the script calls the bin that printed it) and for the npx route', async () => {
    // As in a project: the bin is reached through npx, not on PATH; the script comes from that bin.
    const script = `
      eval "$("${process.execPath}" --import tsx "${BIN}" completion bash)"
      complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); "$(complete -p "$1" | sed -E 's/.*-F ([^ ]+).*/\\1/')"; echo "$*|\${COMPREPLY[*]}"; }
      complete_words service-sdk chan
      complete_words npx service-sdk channels list-wa
      complete_words npx other-tool chan
    `;
    const bash = spawn('bash', ['-c', script], { cwd: root, env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' } });
    track(bash as ChildProcessWithoutNullStreams);
    const { code, stdout, stderr } = await finish(bash as ChildProcessWithoutNullStreams);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout.trim().split('\n')).toEqual(['service-sdk chan|channels', 'npx service-sdk channels list-wa|list-wallets list-watchers', 'npx other-tool chan|']);
  }, 60_000);

  it('prints completion scripts for zsh and fish too', async () => {
    const [zsh, fish, other] = await Promise.all([finish(start(['completion', 'zsh'])), finish(start(['completion', 'fish'])), finish(start(['completion', 'tcsh']))]);
    expect([zsh.code, zsh.stdout]).toEqual([0, expect.stringContaining('compdef _service_sdk service-sdk')]);
    expect([fish.code, fish.stdout]).toEqual([0, expect.stringContaining("complete -c service-sdk -f -a '(__service_sdk_complete 1)'")]);
    expect([other.code, other.stderr]).toEqual([2, expect.stringContaining('expected bash, zsh or fish')]);
  });
});
