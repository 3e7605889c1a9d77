// A user's script, run unchanged in every runtime of test/runtimes against the
// installed package: every entry imported, signed report requests, every
// report version decoded, a typed error, a two-page walk, the in-process
// sandbox, and the live report stream (or, where it cannot run, its typed
// error).
//
// Plain JavaScript, so each runtime runs it as it is (workerd and
// edge-runtime after bundling). Everything it needs comes from the local
// server at `origin` (GET /fixtures) and, for the live stream, from the
// listening sandbox `live` names; everything it returns is JSON.
import * as channels from '@ourteam/service-sdk/channels';
import * as policy from '@ourteam/service-sdk/policy';
import * as reportDecoder from '@ourteam/service-sdk/report-decoder';
import * as sandboxEntry from '@ourteam/service-sdk/sandbox';
import * as streams from '@ourteam/service-sdk/streams';
import { canonical } from './canonical.mjs';

/** 'matches viem' when `decoded` is the expected decoding, else what was decoded (for the test's message). */
function compare(decoded, expected) {
  const got = canonical(decoded);
  return got === expected ? 'matches viem' : got;
}

/** What an error says of itself, for the test to check it is the typed one. */
function describeError(error) {
  return {
    name: error?.name,
    isApiError: channels.isApiError(error),
    isSdkError: error instanceof channels.SdkError,
    status: error?.status,
    type: error?.type,
    code: error?.code ?? null,
  };
}

const SEPOLIA = '16015286601757825753';

/**
 * The sandbox entry's core, in process (no `listen()`, which needs Node): a
 * wallet created and read back through `sandbox.fetch`, and the latest report
 * of the first stream discovery lists, decoded.
 */
async function sandboxChecks() {
  const sandbox = sandboxEntry.createSandbox();
  try {
    const wallets = channels.createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch });
    const created = await channels.unwrap(
      wallets.POST('/wallets', {
        body: { name: 'runtime-wallet', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
      }),
    );
    const read = await channels.unwrap(wallets.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: created.wallet_id } } }));
    const reports = streams.createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch, retry: false });
    const [stream] = await streams.listStreams(reports);
    const latest = await streams.getLatestReport(reports, stream.feedID, { decode: true });
    // The live stream on the same client: in process, with no URL given (nothing leaves the runtime).
    const origins = [];
    const live = streams.streamReports(reports, [stream.feedID], {
      decode: true,
      signal: AbortSignal.timeout(5_000),
      onStatus: (event) => event.type === 'connected' && origins.push(event.origin),
    });
    let streamed;
    for await (const report of live) {
      streamed = report;
      break;
    }
    return {
      wallet: { sameId: read.wallet_id === created.wallet_id, name: read.name, chain_selector: read.chain_selector },
      latest: {
        feedID: latest.feedID,
        observationsTimestamp: latest.observationsTimestamp,
        sameFeed: latest.decoded.feedId.toLowerCase() === stream.feedID.toLowerCase(),
        sameTime: latest.decoded.observationsTimestamp === latest.observationsTimestamp,
        fullReport: latest.fullReport,
        decoded: canonical(latest.decoded),
      },
      // Its signatures, checked here as the on-chain verifier would (libsecp256k1, or @noble/curves where no WebAssembly compiles).
      verification: (({ valid, reason, signers }) => ({ valid, reason, signers: signers?.length }))(
        reportDecoder.verifyReport(latest.fullReport, sandbox.reportTrust),
      ),
      streamed: streamed && {
        sameFeed: streamed.feedID.toLowerCase() === stream.feedID.toLowerCase(),
        decodes: streamed.decoded.observationsTimestamp === streamed.observationsTimestamp,
        notBeforeLatest: streamed.observationsTimestamp >= latest.observationsTimestamp,
        origins: [...new Set(origins)].sort(),
        skipped: live.stats.skipped,
      },
    };
  } finally {
    sandbox.close();
  }
}

/**
 * `live`: the listening sandbox's streams REST URL, WebSocket URL,
 * credentials and one stream. Two reports of it streamed with `decode: true`
 * (30 s at most, then the loop ends with what came), each with its decoding,
 * the origins `HEAD /` listed and those that connected; and a stream with a
 * wrong secret, refused at the upgrade.
 */
async function liveStreamChecks(live) {
  const client = streams.createStreamsClient({ apiKey: live.apiKey, apiSecret: live.apiSecret, baseUrl: live.streamsUrl, retry: false });
  let listed;
  const connected = new Set();
  const received = [];
  const stream = streams.streamReports(client, [live.feedID], {
    wsUrl: live.wsUrl,
    decode: true,
    // The sandbox runs ten times faster than the clock (live-sandbox.ts), so its reports are soon
    // dated ahead of this machine's time: allow an hour, or they would be skipped as from the future.
    maxFutureMs: 3_600_000,
    // A deadline, not a wait: the loop ends at the second report. Generous, for a runtime started on a busy machine.
    signal: AbortSignal.timeout(30_000),
    onStatus: (event) => {
      if (event.type === 'origins') listed = { origins: event.origins, discovered: event.discovered };
      if (event.type === 'connected') connected.add(event.origin);
    },
  });
  for await (const report of stream) {
    received.push({
      feedID: report.feedID,
      observationsTimestamp: report.observationsTimestamp,
      fullReport: report.fullReport,
      decoded: canonical(report.decoded),
    });
    if (received.length === 2) break;
  }
  return { listed, connected: [...connected].sort(), reports: received, skipped: stream.stats.skipped, refused: await refusedUpgradeCheck(live) };
}

/**
 * A wrong secret, with the origin given (no `HEAD /` first): the WebSocket
 * upgrade itself is refused, and the stream fails with the typed error that
 * names the status and the origin.
 */
async function refusedUpgradeCheck(live) {
  const client = streams.createStreamsClient({ apiKey: live.apiKey, apiSecret: 'not-the-secret', baseUrl: live.streamsUrl, retry: false });
  const stream = streams.streamReports(client, [live.feedID], { wsUrl: live.wsUrl, origins: ['001'], signal: AbortSignal.timeout(5_000) });
  try {
    const next = await stream.next();
    return next.done ? 'ended without an error' : 'streamed';
  } catch (error) {
    return { name: error?.name, isSdkError: error instanceof streams.SdkError, status: error?.status, origin: error?.origin };
  } finally {
    await stream.close();
  }
}

/** Where no WebSocket can send the signed headers: the stream fails, typed, before it connects anywhere. */
async function unsupportedStreamCheck(origin, credentials, feedID) {
  const client = streams.createStreamsClient({ ...credentials, baseUrl: origin, retry: false });
  const stream = streams.streamReports(client, [feedID], { wsUrl: origin.replace(/^http/, 'ws') });
  try {
    await stream.next();
    return 'streamed';
  } catch (error) {
    return {
      name: error?.name,
      isSdkError: error instanceof streams.SdkError,
      unsupported: error instanceof streams.ReportStreamUnsupportedError,
      message: error?.message,
    };
  } finally {
    await stream.close();
  }
}

/** `live`, where the runtime can stream: see liveStreamChecks; without it, the typed error is expected. */
export async function runChecks(origin, live) {
  const fixtures = await (await fetch(`${origin}/fixtures`)).json();
  const { streamsCredentials, channelsApiKey, reports, missingWalletId } = fixtures;
  const expectedOf = Object.fromEntries(reports.map((r) => [r.feedID, r.expected]));
  const out = {};

  out.entries = {
    channels: channels.CHANNELS_API_VERSION,
    streams: streams.STREAMS_API_VERSION,
    policy: [policy.POLICY_COORDINATOR_API_VERSION, policy.POLICY_EVALUATION_API_VERSION, policy.POLICY_REPORTING_API_VERSION],
    policyClients: Object.keys(policy.createPolicyClient({ apiKey: channelsApiKey, baseUrl: origin })).sort(),
    sameDecoder: streams.decodeReport === reportDecoder.decodeReport,
  };

  // Every schema version, decoded from the blob alone.
  out.decoded = Object.fromEntries(reports.map((r) => [r.version, compare(reportDecoder.decodeReport(r.fullReport, r.feedID), r.expected)]));

  // Signed requests: one GET, one bulk of every version's stream.
  const client = streams.createStreamsClient({ ...streamsCredentials, baseUrl: origin, retry: false });
  const v3 = reports.find((r) => r.version === 'V3');
  const latest = await streams.getLatestReport(client, v3.feedID, { decode: true });
  out.latest = { feedID: latest.feedID, decoded: compare(latest.decoded, expectedOf[latest.feedID]) };
  const bulk = await streams.getBulkReports(
    client,
    reports.map((r) => r.feedID),
    fixtures.bulkTimestamp,
    { decode: true },
  );
  out.bulk = {
    complete: bulk.complete,
    missingFeedIDs: bulk.missingFeedIDs,
    decoded: Object.fromEntries(bulk.reports.map((r) => [r.decoded.version, compare(r.decoded, expectedOf[r.feedID])])),
  };

  // A wrong secret: the server refuses the signature.
  const wrongSecret = streams.createStreamsClient({ ...streamsCredentials, apiSecret: 'not-the-secret', baseUrl: origin, retry: false });
  try {
    await streams.getLatestReport(wrongSecret, v3.feedID);
    out.wrongSecret = 'accepted';
  } catch (error) {
    out.wrongSecret = describeError(error);
  }

  // A typed error from an error answer, and a walk across two pages.
  const wallets = channels.createChannelsClient({ apiKey: channelsApiKey, baseUrl: `${origin}/v1`, retry: false });
  try {
    await channels.unwrap(wallets.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: missingWalletId } } }));
    out.notFound = 'no error';
  } catch (error) {
    out.notFound = { ...describeError(error), narrowed: channels.isApiError(error, 'NOT_FOUND', 'WALLET_NOT_FOUND') };
  }
  const names = [];
  for await (const wallet of channels.paginate(wallets, '/wallets', { pageSize: 2 })) names.push(wallet.name);
  out.paginated = names;

  out.sandbox = await sandboxChecks();
  out.liveStream = live === undefined ? await unsupportedStreamCheck(origin, streamsCredentials, v3.feedID) : await liveStreamChecks(live);

  return out;
}
