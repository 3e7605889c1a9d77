// The verifier is a lazy chunk (verify-loaded.ts): where it does not load
// (an app's server no longer serves that chunk), a report is refused with
// the public reason `verifier_unavailable`, and the next report tries the
// load again, from the REST helpers and the live stream alike.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report, ReportVerificationError } from '../../src/streams/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';
import { rejection } from '../support/rejection.js';
import { makeV3Report } from '../support/report-server.js';
import { consume, openStream, startHarness, waitFor, type Harness } from '../support/report-stream.js';
import { resign, testDon } from '../support/signed-reports.js';

/** How many more imports of the verifier's module fail. */
const loads = vi.hoisted(() => ({ failing: 0, attempts: 0 }));
vi.mock('../../src/reports/verify-loaded.js', async (importOriginal) => flakyImport(importOriginal));

/** The verifier's module, or the error of a chunk that is no longer served while `loads.failing` says so. */
async function flakyImport(importOriginal: () => Promise<unknown>) {
  loads.attempts++;
  if (loads.failing > 0) {
    loads.failing--;
    throw new Error('Failed to fetch dynamically imported module: /assets/verify-loaded-1a2b3c.js');
  }
  return importOriginal();
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const don = testDon(1);
/** A V3 report of `feed` at `t` from the report server, signed by the DON, its envelope agreeing. */
async function genuine(feed: string, t: number): Promise<Report> {
  const unsigned = makeV3Report(feed, t);
  return { ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don) };
}

describe('a verifier that did not load', () => {
  it('stream: a report is skipped as unverified (verifier_unavailable), and a later one loads it again and is delivered', async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: 1_700_000_000 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    // The stream's own load fails, then the first report's retry: that report is refused, the next one's retry loads it.
    loads.failing = 2;
    const before = loads.attempts;
    const { stream, events } = openStream(harness, { verify: don.trust });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    await waitFor(() => loads.attempts === before + 1 && loads.failing === 1, 'the failed load');
    server.sendRaw('001', JSON.stringify({ report: await genuine(feed, 1_700_000_001) }));
    await waitFor(() => stream.stats.unverified === 1 || received.length === 1, 'the first report refused');
    expect(loads.attempts).toBe(before + 2);
    server.sendRaw('001', JSON.stringify({ report: await genuine(feed, 1_700_000_002) }));
    await waitFor(() => received.length === 1, 'the second report delivered');
    await stream.close();
    await done;

    const skippedErrors = events.flatMap((e) => (e.type === 'message-skipped' ? [e.error] : []));
    expect(skippedErrors.map((e) => e.problem)).toEqual(['unverified']);
    expect(skippedErrors[0]!.message).toContain('verifier_unavailable');
    expect(received.map((r) => r.observationsTimestamp)).toEqual([1_700_000_002]);
  });

  it('REST: refused with reason verifier_unavailable, and loaded at the next call', async () => {
    // A fresh copy of the SDK's modules and of the verifier's mock: the stream's test loaded the verifier in the copies above.
    vi.resetModules();
    vi.doMock('../../src/reports/verify-loaded.js', flakyImport);
    const sdk = await import('../../src/streams/index.js');
    const feed = `0x0003${'ab'.repeat(30)}`;
    const report = await genuine(feed, 1_700_000_001);
    const client = () => sdk.createStreamsClient({ apiKey: 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11', apiSecret: 'test-secret', fetch: fakeFetch(json(200, { report })).fetch });
    loads.failing = 1;
    const error = await rejection(sdk.getLatestReport(client(), feed, { verify: don.trust }));
    expect(error).toBeInstanceOf(sdk.ReportVerificationError);
    expect((error as ReportVerificationError).reason).toBe('verifier_unavailable');
    expect((error as Error).message).toContain('did not load');
    await expect(sdk.getLatestReport(client(), feed, { verify: don.trust })).resolves.toEqual(report);
  });
});
