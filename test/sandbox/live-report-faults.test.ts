// Report faults reach the live stream too: `sandbox.inject({ reports })`
// forges the reports the WebSocket delivers (in process on `sandbox.fetch`,
// and through `sandbox.listen()`'s ws URL), not only the REST ones, so a user
// can test that `streamReports(..., { verify })` refuses a forged live report
// as the REST helpers do. A report fault applies to the requests and live
// reports that carry reports, and to nothing else (a stream's own signed
// HEAD / and upgrade do not use it up). Sandbox time is frozen (`pace: 0`)
// and moved by `advance()`; the test waits on the stream's own events.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap } from '../../src/channels/index.js';
import { createSandbox, SandboxUsageError, type Sandbox, type SandboxListener } from '../../src/sandbox/index.js';
import {
  createStreamsClient,
  getLatestReport,
  ReportStreamMessageError,
  ReportVerificationError,
  streamReports,
  verifyReport,
  type Report,
  type ReportStreamEvent,
  type StreamsClient,
} from '../../src/streams/index.js';
import { readmeClaim } from '../support/readme-claim.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { rejection } from '../support/rejection.js';
import { waitFor } from '../support/report-stream.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const FAST = { reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, pingIntervalMs: 500, pongTimeoutMs: 2_000 };

let sandbox: Sandbox;
let listener: SandboxListener | undefined;
let closeStream: (() => Promise<void>) | undefined;
let network: RefusedNetwork;

// The streams on sandbox.fetch stream in process: nothing may leave the machine.
beforeEach(() => {
  network = refuseNonLoopback();
});

afterEach(async () => {
  await closeStream?.();
  await listener?.close();
  sandbox.close();
  closeStream = listener = undefined;
  network.restore();
  expect(network.attempts).toEqual([]);
});

/** A verifying stream of ETH/USD on `client`, its deliveries and status events recorded. */
function verifiedStream(client: StreamsClient, wsUrl?: string) {
  const events: ReportStreamEvent[] = [];
  const stream = streamReports(client, [ETH_USD], { verify: sandbox.reportTrust, onStatus: (event) => events.push(event), ...FAST, ...(wsUrl === undefined ? {} : { wsUrl }) });
  const received: Report[] = [];
  const done = (async () => {
    for await (const report of stream) received.push(report);
  })();
  closeStream = async () => {
    await stream.close();
    await done;
  };
  /** The `unverified` skips so far: their errors. */
  const unverified = () =>
    events.flatMap((event) => (event.type === 'message-skipped' && event.error.problem === 'unverified' ? [event.error] : []));
  const connected = () => events.filter((event) => event.type === 'connected').length;
  return { stream, received, unverified, connected };
}

const nowSeconds = () => Math.floor(sandbox.clock.now() / 1000);

describe(readmeClaim("It forges the live stream's reports too, in process and over the listener's WebSocket (each stream's report of a second counts once in `times`; every origin sends the same forged copy), which `streamReports(..., { verify })` skips as `unverified`"), () => {
  it('on sandbox.fetch: a stranger-signed live report is skipped as unverified (not_a_signer), as REST refuses it; after remove(), reports verify again', async () => {
    sandbox = createSandbox({ pace: 0 });
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch, retry: false });
    const live = verifiedStream(client);
    await waitFor(() => live.connected() === 2, 'both origins to connect');
    const start = nowSeconds();

    const fault = sandbox.inject({ reports: 'stranger', times: Infinity });
    // The REST path refuses it with the verification's reason...
    const rest = await rejection(getLatestReport(client, ETH_USD, { verify: sandbox.reportTrust }));
    expect(rest).toBeInstanceOf(ReportVerificationError);
    expect((rest as ReportVerificationError).reason).toBe('not_a_signer');
    // ...and the live stream skips the forged report with the same reason, delivering nothing of that second.
    sandbox.advance(1_000);
    // A backfill that reads the report of `start` again while the fault is on gets a forged copy of it, skipped as unverified too.
    const ofLaterSeconds = () => live.unverified().filter((error) => !error.message.includes(`at ${start}:`));
    await waitFor(() => ofLaterSeconds().length > 0, 'the forged live report to be refused');
    expect(ofLaterSeconds()[0]).toBeInstanceOf(ReportStreamMessageError);
    expect(ofLaterSeconds()[0]!.message).toContain(`at ${start + 1}: not_a_signer`);

    fault.remove();
    sandbox.advance(1_000);
    await waitFor(() => live.received.some((report) => report.observationsTimestamp === start + 2), 'the genuine report after remove()');
    expect(live.received.map((report) => report.observationsTimestamp)).toEqual([start + 2]);
    expect(verifyReport(live.received[0]!.fullReport, sandbox.reportTrust)).toMatchObject({ valid: true });
    expect(ofLaterSeconds()).toHaveLength(1);
  });

  it("through the listener's WebSocket: too_few_signatures on the streamReports route is refused as signature_count; after remove(), reports verify again", async () => {
    sandbox = createSandbox({ pace: 0 });
    listener = await sandbox.listen();
    const client = createStreamsClient({ ...sandbox.credentials.streams, baseUrl: listener.baseUrls.streams, retry: false });
    const live = verifiedStream(client, listener.url.replace(/^http/, 'ws'));
    await waitFor(() => live.connected() === 2, 'both origins to connect');
    const start = nowSeconds();

    const fault = sandbox.inject({ route: 'streamReports', reports: 'too_few_signatures', times: Infinity });
    sandbox.advance(2_000);
    await waitFor(() => live.unverified().length >= 2, 'both forged live reports to be refused');
    expect(live.unverified().map((error) => error.message)).toEqual([
      expect.stringContaining(`at ${start + 1}: signature_count`),
      expect.stringContaining(`at ${start + 2}: signature_count`),
    ]);
    // The route names the live stream alone: REST reports stay genuine.
    await expect(getLatestReport(client, ETH_USD, { verify: sandbox.reportTrust })).resolves.toMatchObject({ feedID: ETH_USD });

    fault.remove();
    sandbox.advance(1_000);
    await waitFor(() => live.received.some((report) => report.observationsTimestamp === start + 3), 'the genuine report after remove()');
    expect(live.received.map((report) => report.observationsTimestamp)).toEqual([start + 3]);
  });

  it('times counts live reports: a fault injected before the stream opens forges its next report, not its HEAD / or upgrade', async () => {
    sandbox = createSandbox({ pace: 0 });
    sandbox.inject({ reports: 'stranger' });
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch, retry: false });
    const live = verifiedStream(client);
    await waitFor(() => live.connected() === 2, 'both origins to connect');
    const start = nowSeconds();
    sandbox.advance(1_000);
    await waitFor(() => live.unverified().length > 0, 'the forged live report to be refused');
    expect(live.unverified()[0]!.message).toContain(`at ${start + 1}: not_a_signer`);
    // Used up by that one report (both origins sent the same forged copy): the next is genuine.
    sandbox.advance(1_000);
    await waitFor(() => live.received.length > 0, 'the next report');
    expect(live.received.map((report) => report.observationsTimestamp)).toEqual([start + 2]);
    expect(live.stream.stats.unverified).toBe(1);
  });
});

describe(readmeClaim('requests that carry no report do not use it up'), () => {
  it('a request that carries no report does not use one up', async () => {
    sandbox = createSandbox({ pace: 0 });
    sandbox.inject({ reports: 'stranger' });
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch });
    await unwrap(channels.GET('/networks'));
    const streams = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const error = await rejection(getLatestReport(streams, ETH_USD, { verify: sandbox.reportTrust }));
    expect((error as ReportVerificationError).reason).toBe('not_a_signer');
  });

  it('a reports fault on a route that serves no report is refused, naming the routes that do', () => {
    sandbox = createSandbox({ pace: 0 });
    const refused = (() => {
      try {
        sandbox.inject({ route: 'getWallet', reports: 'stranger' });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(SandboxUsageError);
    expect((refused as Error).message).toMatch(/reports.*getWallet.*getLatestReport.*streamReports/);
  });
});
