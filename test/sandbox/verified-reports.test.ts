// The sandbox signs like an oracle network: its reports verify against
// sandbox.reportTrust (checked independently with viem's recoverAddress
// too), through the REST helpers and the live stream with { verify }.
import { concat, decodeAbiParameters, keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createStreamsClient, getLatestReport, getReportsPage, ReportVerificationError, streamReports, verifyReport, type Report } from '../../src/streams/index.js';
import { rejection } from '../support/rejection.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox({ pace: 10 });
});
afterEach(() => sandbox.close());

describe('the sandbox signs like a DON', () => {
  it('publishes its trust: a 0x0006 digest per stream, f = 1, 4 signers', () => {
    const entries = Object.entries(sandbox.reportTrust);
    expect(entries.length).toBeGreaterThan(1);
    for (const [digest, config] of entries) {
      expect(digest).toMatch(/^0x0006[0-9a-f]{60}$/);
      expect(config.f).toBe(1);
      expect(config.signers).toHaveLength(4);
    }
    // The signers are the addresses of the sandbox's made-up keys (derived by viem here).
    const keys = [0, 1, 2, 3].map((i) => keccak256(toHex(`service-sdk sandbox oracle ${i}`)));
    expect(entries[0]![1].signers).toEqual(keys.map((key) => privateKeyToAccount(key).address.toLowerCase()));
  });

  it('serves reports signed by f + 1 of its signers: verifyReport and viem agree', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const report = await getLatestReport(client, ETH_USD, { verify: sandbox.reportTrust });
    const result = verifyReport(report.fullReport, sandbox.reportTrust);
    if (!result.valid) throw new Error(result.message);
    expect(result.signers).toHaveLength(2);
    const [context, blob, rs, ss, vs] = decodeAbiParameters(
      [{ type: 'bytes32[3]' }, { type: 'bytes' }, { type: 'bytes32[]' }, { type: 'bytes32[]' }, { type: 'bytes32' }],
      report.fullReport as Hex,
    );
    expect(context[0]).toBe(result.configDigest);
    const hash = keccak256(concat([keccak256(blob), ...context]));
    for (let i = 0; i < 2; i++) {
      const v = Number.parseInt(vs.slice(2 + 2 * i, 4 + 2 * i), 16) + 27;
      const signer = await recoverAddress({ hash, signature: concat([rs[i]!, ss[i]!, toHex(v)]) });
      expect(sandbox.reportTrust[result.configDigest]!.signers).toContain(signer.toLowerCase());
    }
    const page = await getReportsPage(client, { feedID: BTC_USD, startTimestamp: report.observationsTimestamp - 5, limit: 5 }, { verify: sandbox.reportTrust });
    expect(page).toHaveLength(5);
  });

  it('streams reports that verify, from both origins, none skipped', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const stream = streamReports(client, [ETH_USD, BTC_USD], { verify: sandbox.reportTrust, reconnect: { baseDelayMs: 20, maxDelayMs: 50 } });
    const received: Report[] = [];
    for await (const report of stream) {
      received.push(report);
      if (received.length === 6) break;
    }
    expect(received.every((r) => verifyReport(r.fullReport, sandbox.reportTrust).valid)).toBe(true);
    expect(stream.stats).toMatchObject({ unverified: 0, skipped: 0 });
    expect(stream.stats.verified).toBeGreaterThanOrEqual(6);
  });
});

describe('report faults: a forged report on purpose', () => {
  it('serves the next report signed by a stranger, or with too few signatures; verify refuses each, then genuine ones come back', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const verify = { verify: sandbox.reportTrust };
    sandbox.inject({ route: 'getLatestReport', reports: 'stranger' });
    expect(((await rejection(getLatestReport(client, ETH_USD, verify))) as ReportVerificationError).reason).toBe('not_a_signer');
    sandbox.inject({ route: 'getReportsPage', reports: 'too_few_signatures' });
    const page = rejection(getReportsPage(client, { feedID: ETH_USD, startTimestamp: Math.floor(sandbox.clock.now() / 1000) - 3, limit: 2 }, verify));
    expect(((await page) as ReportVerificationError).reason).toBe('signature_count');
    // Used up: the next answers are genuine; without verify a forged report passes unnoticed.
    await expect(getLatestReport(client, ETH_USD, verify)).resolves.toMatchObject({ feedID: ETH_USD });
    sandbox.inject({ route: 'getLatestReport', reports: 'stranger' });
    const forged = await getLatestReport(client, ETH_USD);
    expect(verifyReport(forged.fullReport, sandbox.reportTrust)).toMatchObject({ valid: false, reason: 'not_a_signer' });
  });

  it('refuses a reports fault with a status (which would hide it) or an unknown kind', () => {
    expect(() => sandbox.inject({ route: 'getLatestReport', reports: 'stranger', status: 500 })).toThrow(/reports/);
    expect(() => sandbox.inject({ route: 'getLatestReport', reports: 'unsigned' as never })).toThrow(/stranger.*too_few_signatures/);
  });
});
