// A user's script, run unchanged in every runtime of test/runtimes against the
// installed package: every entry imported, signed report requests, every
// report version decoded, a typed error, a two-page walk.
//
// Plain JavaScript, so each runtime runs it as it is (workerd and
// edge-runtime after bundling). Everything it needs comes from the local
// server at `origin` (GET /fixtures), and everything it returns is JSON.
import * as channels from '@ourteam/service-sdk/channels';
import * as policy from '@ourteam/service-sdk/policy';
import * as reportDecoder from '@ourteam/service-sdk/report-decoder';
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

export async function runChecks(origin) {
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

  return out;
}
