// The live stream with { verify: trust }, against a local report service
// (test/support/report-server.ts) whose origin 001 is hostile: it serves
// reports signed by a stranger's key. They are never delivered, each is
// reported as unverified, and origin 002's genuine reports still are.
import { afterEach, describe, expect, it } from 'vitest';
import type { Report, ReportStreamEvent } from '../../src/streams/index.js';
import { makeV3Report } from '../support/report-server.js';
import { consume, openStream, startHarness, waitFor, type Harness } from '../support/report-stream.js';
import { resign, testDon, testSigner } from '../support/signed-reports.js';
import { readmeClaim } from '../support/readme-claim.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const skipped = (events: ReportStreamEvent[]) => events.flatMap((e) => (e.type === 'message-skipped' ? [e.error] : []));
const message = (report: Report) => JSON.stringify({ report });

describe(readmeClaim('`live.stats` counts the reports checked (`checked`), those that passed (`verified`) and those refused (`unverified`).'), () => {
  const don = testDon(1);
  const stranger = testSigner(777);

  /** A report server of two origins, and a stream verifying against `don` connected to both. */
  async function verifyingStreamOfTwoOrigins() {
    harness = await startHarness({ origins: ['001', '002'], firstTimestamp: 1_700_000_000 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream, events } = openStream(harness, { verify: don.trust });
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 2, 'both origins to connect');
    return { server, feed, stream, events, received, done };
  }

  it(readmeClaim('With `verify: trust` the stream also delivers only reports whose signatures verify (as `verifyReport`); the others are skipped as `unverified`'), async () => {
    const { server, feed, stream, events, received, done } = await verifyingStreamOfTwoOrigins();
    const genuine: Report[] = [];
    for (let t = 1_700_000_001; t <= 1_700_000_004; t++) {
      const unsigned = makeV3Report(feed, t);
      const good = { ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don) };
      const forged = { ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don, [don.signers[0]!, stranger]) };
      genuine.push(good);
      server.sendRaw('001', message(forged)); // first, so a stream that trusts it would deliver it
      server.sendRaw('002', message(good));
      server.sendRaw('001', message(good)); // a copy of a genuine one: a duplicate, not verified again
    }
    // Every message, from both origins: either origin's genuine copy may come first, the other is the duplicate.
    await waitFor(() => received.length === 4 && stream.stats.unverified === 4 && stream.stats.received === 12, 'the genuine reports and the forged ones refused');
    await stream.close();
    await done;

    expect(received.map((r) => r.fullReport)).toEqual(genuine.map((r) => r.fullReport));
    expect(skipped(events).map((e) => e.problem)).toEqual(['unverified', 'unverified', 'unverified', 'unverified']);
    expect(skipped(events)[0]!.message).toContain('not_a_signer');
    expect(skipped(events)[0]!.message).toContain(stranger.address.toLowerCase());
    // 4 forged + 4 genuine distinct reports, each checked once: 4 passed, 4 refused; 4 copies dropped as duplicates.
    expect(stream.stats).toMatchObject({ accepted: 4, checked: 8, verified: 4, unverified: 4, duplicates: 4 });
  });

  it('a forged copy of a delivered report is skipped as unverified, and a genuine different copy is still a conflict', async () => {
    const { server, feed, stream, events, received, done } = await verifyingStreamOfTwoOrigins();
    const unsigned = makeV3Report(feed, 1_700_000_001);
    const good = { ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don) };
    server.sendRaw('002', message(good));
    await waitFor(() => received.length === 1, 'the genuine report');
    // The same report signed by a stranger with one signer, then by two other signers of the DON (genuine too).
    server.sendRaw('001', message({ ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don, [don.signers[0]!, stranger]) }));
    await waitFor(() => stream.stats.unverified === 1, 'the forged copy refused');
    server.sendRaw('001', message({ ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don, [don.signers[2]!, don.signers[3]!]) }));
    await waitFor(() => stream.stats.conflicts === 1, 'the genuine copy seen as a conflict');
    await stream.close();
    await done;

    expect(skipped(events).map((e) => [e.problem, e.message.includes('not_a_signer')])).toEqual([['unverified', true]]);
    expect(events.filter((e) => e.type === 'conflicting-report')).toHaveLength(1);
    expect(stream.stats).toMatchObject({ accepted: 1, unverified: 1, conflicts: 1 });
  });

  it(readmeClaim("Those checks do not prove the report genuine: a service that signs nothing, or a stranger's signatures, passes them."), async () => {
    harness = await startHarness({ origins: ['001'], firstTimestamp: 1_700_000_000 });
    const { server } = harness;
    const [feed] = server.feeds as [string];
    const { stream } = openStream(harness);
    const { received, done } = consume(stream);
    await waitFor(() => server.connectionCount() === 1, 'the origin to connect');
    const unsigned = makeV3Report(feed, 1_700_000_001);
    server.sendRaw('001', message({ ...unsigned, fullReport: await resign(unsigned.fullReport as `0x${string}`, don, [stranger, don.signers[1]!]) }));
    await waitFor(() => received.length === 1, 'the forged report');
    await stream.close();
    await done;
    expect(stream.stats).toMatchObject({ accepted: 1, checked: 0, verified: 0, unverified: 0 });
  });
});
