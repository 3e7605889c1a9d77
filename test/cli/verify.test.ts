// Report verification from the command line, as real processes against a
// listening sandbox (which signs its reports like an oracle network):
// `streams verify <fullReport|@file|@->`, and `--verify --trust …` on
// `streams latest` and `streams watch`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { finish, firstLine, lineOn, start } from './support/bin-process.js';
import { sandboxEnv } from './support/run-cli.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
/** Addresses no sandbox key signs with. */
const STRANGERS = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333', '0x4444444444444444444444444444444444444444'];

type Trust = Record<string, { f: number; signers: string[] }>;

describe('streams verify, latest --verify and watch --verify', () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'service-sdk-verify-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A trust written to a file, as `--trust @file` reads it. */
  async function trustFile(name: string, trust: Trust): Promise<string> {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(trust));
    return `@${file}`;
  }

  /** The trust's key for the report's config digest (reportContext[0], the report's first word). */
  function digestOf(fullReport: string, trust: Trust): string {
    const digest = `0x${fullReport.slice(2, 66).toLowerCase()}`;
    const key = Object.keys(trust).find((candidate) => candidate.toLowerCase() === digest);
    expect(key).toBeDefined();
    return key!;
  }

  /** The latest report of `feedID`, as `streams latest` prints it. */
  async function latestReport(feedID: string): Promise<{ fullReport: string }> {
    const latest = await finish(start(['streams', 'latest', feedID], env()));
    expect(latest.code).toBe(0);
    return JSON.parse(latest.stdout)[0];
  }

  it('a sandbox report verifies with the sandbox reportTrust: exit 0, the verification as JSON (inline, @file, @-)', async () => {
    const { fullReport } = await latestReport(ETH_USD);
    const trust = await trustFile('sandbox', live.sandbox.reportTrust as Trust);
    const reportFile = join(dir, 'report.hex');
    await writeFile(reportFile, `${fullReport}\n`);
    const piped = start(['streams', 'verify', '@-', '--trust', trust], env());
    piped.stdin.end(fullReport);
    const [inline, fromFile, fromStdin] = await Promise.all([
      finish(start(['streams', 'verify', fullReport, '--trust', JSON.stringify(live.sandbox.reportTrust)], env())),
      finish(start(['streams', 'verify', `@${reportFile}`, '--trust', trust], env())),
      finish(piped),
    ]);
    for (const run of [inline, fromFile, fromStdin]) {
      expect([run.code, run.stderr]).toEqual([0, '']);
      const result = JSON.parse(run.stdout);
      expect(result).toEqual({ valid: true, configDigest: expect.stringMatching(/^0x0006[0-9a-f]{60}$/), signers: expect.any(Array) });
      const config = (live.sandbox.reportTrust as Trust)[result.configDigest]!;
      expect(result.signers).toHaveLength(config.f + 1);
      for (const signer of result.signers) expect(config.signers.map((s) => s.toLowerCase())).toContain(signer);
    }
  });

  it('a trust missing the digest exits 1 unknown_config; a trust with other signers exits 1 not_a_signer', async () => {
    const { fullReport } = await latestReport(ETH_USD);
    const trust = live.sandbox.reportTrust as Trust;
    const digest = digestOf(fullReport, trust);
    const others = Object.fromEntries(Object.entries(trust).filter(([key]) => key !== digest));
    const strangers = { [digest]: { f: trust[digest]!.f, signers: STRANGERS } };
    const [unknown, notSigner] = await Promise.all([
      finish(start(['streams', 'verify', fullReport, '--trust', JSON.stringify(others)], env())),
      finish(start(['streams', 'verify', fullReport, '--trust', JSON.stringify(strangers)], env())),
    ]);
    expect([unknown.code, JSON.parse(unknown.stdout)]).toEqual([1, { valid: false, reason: 'unknown_config', message: expect.stringContaining(digest) }]);
    expect([notSigner.code, JSON.parse(notSigner.stdout)]).toEqual([1, { valid: false, reason: 'not_a_signer', message: expect.any(String) }]);
  });

  it('a malformed trust or report exits 2 naming what is wrong; a secret never shows', async () => {
    const { fullReport } = await latestReport(ETH_USD);
    const [notJson, badF, noTrust, badReport, missingFile] = await Promise.all([
      finish(start(['streams', 'verify', fullReport, '--trust', '{"0x01":'], env())),
      finish(start(['streams', 'verify', fullReport, '--trust', JSON.stringify({ [`0x${'00'.repeat(32)}`]: { f: -1, signers: [] } })], env())),
      finish(start(['streams', 'verify', fullReport], env())),
      finish(start(['streams', 'verify', 'nope', '--trust', JSON.stringify(live.sandbox.reportTrust)], env())),
      finish(start(['streams', 'verify', fullReport, '--trust', `@${join(dir, 'absent.json')}`], env())),
    ]);
    expect([notJson.code, notJson.stdout, notJson.stderr]).toEqual([2, '', expect.stringMatching(/^service-sdk: --trust: not valid JSON/)]);
    expect([badF.code, badF.stdout, badF.stderr]).toEqual([2, '', expect.stringMatching(/^service-sdk: --trust: .*\bf\b/)]);
    expect([noTrust.code, noTrust.stderr]).toEqual([2, expect.stringContaining('--trust')]);
    // A report that is not one is the verification's own answer: malformed, exit 1.
    expect([badReport.code, JSON.parse(badReport.stdout)]).toEqual([1, { valid: false, reason: 'malformed', message: expect.any(String) }]);
    expect([missingFile.code, missingFile.stderr]).toEqual([2, expect.stringMatching(/^service-sdk: --trust @.*absent\.json: cannot read the file/)]);
    for (const run of [notJson, badF, noTrust, badReport, missingFile]) expect(run.stderr).not.toContain(live.sandbox.credentials.streams.apiSecret);
  });

  it('latest --verify prints only verified reports: a wrong trust exits 1 with nothing on stdout for that feed', async () => {
    const { fullReport } = await latestReport(ETH_USD);
    const trust = live.sandbox.reportTrust as Trust;
    const digest = digestOf(fullReport, trust);
    const ethOnly = await trustFile('eth-only', { [digest]: trust[digest]! });
    const [good, wrong, partial, noTrust] = await Promise.all([
      finish(start(['streams', 'latest', ETH_USD, '--verify', '--trust', await trustFile('all', trust)], env())),
      finish(start(['streams', 'latest', ETH_USD, '--verify', '--trust', JSON.stringify({ [digest]: { f: trust[digest]!.f, signers: STRANGERS } })], env())),
      finish(start(['streams', 'latest', ETH_USD, BTC_USD, '--verify', '--trust', ethOnly, '--output', 'ndjson'], env())),
      finish(start(['streams', 'latest', ETH_USD, '--verify'], env())),
    ]);
    expect([good.code, JSON.parse(good.stdout)[0].feedID]).toEqual([0, ETH_USD]);
    expect([wrong.code, wrong.stdout, wrong.stderr]).toEqual([1, '[]\n', expect.stringContaining('not_a_signer')]);
    expect(partial.code).toBe(1);
    expect(partial.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line).feedID)).toEqual([ETH_USD]);
    expect(partial.stderr).toMatch(new RegExp(`${BTC_USD}: .*unknown_config`));
    expect([noTrust.code, noTrust.stderr]).toEqual([2, expect.stringContaining('--verify: give --trust')]);
  });

  it('watch --verify delivers verified reports, and tells each unverified one on stderr', async () => {
    const { fullReport } = await latestReport(ETH_USD);
    const trust = live.sandbox.reportTrust as Trust;
    const digest = digestOf(fullReport, trust);
    const watch = start(['streams', 'watch', ETH_USD, BTC_USD, '--verify', '--trust', await trustFile('eth-only-watch', { [digest]: trust[digest]! })], env());
    const watched = finish(watch);
    const [first, refused] = await Promise.all([firstLine(watch), lineOn(watch, 'stderr', /not verified/)]);
    expect(JSON.parse(first).feedID).toBe(ETH_USD);
    expect(refused).toMatch(/unknown_config/);
    watch.kill('SIGINT');
    const { code, stdout, stderr } = await watched;
    expect(code).toBe(130);
    for (const line of stdout.split('\n').filter(Boolean)) expect(JSON.parse(line).feedID).toBe(ETH_USD);
    expect(stderr).toMatch(/\d+ reports? not verified/);
  });

  it('help lists --verify and --trust only where they apply', async () => {
    const [latest, watch, verify, operation] = await Promise.all([
      finish(start(['streams', 'latest', '--help'])),
      finish(start(['streams', 'watch', '--help'])),
      finish(start(['streams', 'verify', '--help'])),
      finish(start(['streams', 'get-latest-report', '--help'])),
    ]);
    for (const run of [latest, watch]) expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/--verify[\s\S]*--trust </)]);
    expect([verify.code, verify.stdout]).toEqual([0, expect.stringMatching(/^usage: service-sdk streams verify <fullReport\|@file\|@->[\s\S]*--trust </)]);
    expect(verify.stdout).not.toContain('--verify');
    expect([operation.code, operation.stdout]).toEqual([0, expect.not.stringContaining('--trust')]);
    const refused = await finish(start(['streams', 'get-latest-report', '--feed-id', ETH_USD, '--trust', '{}'], env()));
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('unknown flag --trust')]);
  });
});
