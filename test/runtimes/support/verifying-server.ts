// The local service the runtimes' user script talks to, on 127.0.0.1: the
// report API at the origin's root, verifying each request's HMAC signature as
// the service does, and a channels API under /v1 checking its API key. It
// also hands out the fixtures (GET /fixtures), so every runtime gets them the
// same way.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, startLocalServer, type LocalServer } from '../../support/local-server.js';
import type { ReportFixture } from './report-fixtures.js';

export const STREAMS_CREDENTIALS = { apiKey: 'a9e1c4d2-5b3f-4e6a-8c7d-0f1e2d3c4b5a', apiSecret: 'runtime-test-secret' };
export const CHANNELS_API_KEY = 'runtime-test-channels-key';
export const MISSING_WALLET_ID = '0d7c3b1e-9f2a-4c6d-8e5b-1a2b3c4d5e6f';
export const WALLET_NAMES = ['treasury', 'payroll', 'ops'];
export const BULK_TIMESTAMP = 1_760_000_000;

/** A signed request the server checked, and what it decided. */
export interface SignedRequest {
  method: string;
  /** The raw request target, as signed. */
  target: string;
  accepted: boolean;
}

export interface VerifyingServer {
  origin: string;
  signed: SignedRequest[];
  /** Channels requests: raw targets. */
  channels: string[];
  close(): Promise<void>;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The report API's signature: HMAC-SHA256 with the secret over
 * `METHOD path?query sha256(body) apiKey timestamp`, written out here rather
 * than taken from the SDK, so that the SDK cannot agree with itself. The path
 * and query are the raw request target: a re-serialised URL could differ from
 * the text that was signed.
 */
function signatureIsValid(request: IncomingMessage & { body: string }): boolean {
  const apiKey = request.headers['authorization'];
  const timestamp = request.headers['x-authorization-timestamp'];
  const signature = request.headers['x-authorization-signature-sha256'];
  if (apiKey !== STREAMS_CREDENTIALS.apiKey || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > 5 * 60_000) return false;
  const text = `${request.method} ${request.url} ${sha256Hex(request.body)} ${apiKey} ${timestamp}`;
  const expected = createHmac('sha256', STREAMS_CREDENTIALS.apiSecret).update(text).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const asReport = (fixture: ReportFixture) => ({
  feedID: fixture.feedID,
  validFromTimestamp: fixture.validFromTimestamp,
  observationsTimestamp: fixture.observationsTimestamp,
  fullReport: fixture.fullReport,
});

const wallet = (name: string, i: number) => ({
  wallet_id: `00000000-0000-4000-8000-00000000000${i}`,
  name,
  address: `0x${String(i).repeat(40)}`,
  wallet_owner_address: `0x${'a'.repeat(40)}`,
  chain_selector: '16015286601757825753',
  wallet_type: 'protected_ecdsa',
  status: 'deployed',
  allowed_rsa_signers: [],
  allowed_ecdsa_signers: [],
  configuration: {},
});

export async function startVerifyingServer(reports: ReportFixture[]): Promise<VerifyingServer> {
  const signed: SignedRequest[] = [];
  const channels: string[] = [];
  const byFeed = new Map(reports.map((r) => [r.feedID, r]));
  const fixtures = {
    streamsCredentials: STREAMS_CREDENTIALS,
    channelsApiKey: CHANNELS_API_KEY,
    missingWalletId: MISSING_WALLET_ID,
    bulkTimestamp: BULK_TIMESTAMP,
    reports,
  };

  const streams = (request: IncomingMessage & { body: string }, response: ServerResponse, url: URL) => {
    const accepted = signatureIsValid(request);
    signed.push({ method: request.method ?? '', target: request.url ?? '', accepted });
    if (!accepted) return sendJson(response, 401, { type: 'UNAUTHORIZED', message: 'the signature does not match the request' });
    if (url.pathname === '/api/v1/reports/latest') {
      const report = byFeed.get((url.searchParams.get('feedID') ?? '') as `0x${string}`);
      return report ? sendJson(response, 200, { report: asReport(report) }) : sendJson(response, 404, { type: 'NOT_FOUND', message: 'no such stream' });
    }
    if (url.pathname === '/api/v1/reports/bulk' && url.searchParams.get('timestamp') === String(BULK_TIMESTAMP)) {
      const ids = (url.searchParams.get('feedIDs') ?? '').split(',');
      return sendJson(response, 200, { reports: ids.flatMap((id) => (byFeed.has(id as `0x${string}`) ? [asReport(byFeed.get(id as `0x${string}`)!)] : [])) });
    }
    return sendJson(response, 400, { type: 'BAD_REQUEST', message: `unexpected request ${request.url}` });
  };

  const channelsApi = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    channels.push(request.url ?? '');
    if (request.headers['authorization'] !== `Apikey ${CHANNELS_API_KEY}`) {
      return sendJson(response, 401, { type: 'UNAUTHORIZED', message: 'missing or unknown API key' });
    }
    if (url.pathname === '/v1/wallets') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const all = WALLET_NAMES.map(wallet);
      return sendJson(response, 200, { data: all.slice(offset, offset + limit), has_more: offset + limit < all.length });
    }
    if (url.pathname === `/v1/wallets/${MISSING_WALLET_ID}`) {
      return sendJson(response, 404, { type: 'NOT_FOUND', code: 'WALLET_NOT_FOUND', message: 'no wallet with this ID in the organisation' });
    }
    return sendJson(response, 400, { type: 'VALIDATION_ERROR', message: `unexpected request ${request.url}` });
  };

  const server: LocalServer = await startLocalServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/fixtures') return sendJson(response, 200, fixtures);
    if (url.pathname.startsWith('/api/')) return streams(request, response, url);
    if (url.pathname.startsWith('/v1/')) return channelsApi(request, response, url);
    return sendJson(response, 404, { type: 'NOT_FOUND', message: 'nothing here' });
  });
  return { origin: server.origin, signed, channels, close: () => server.close() };
}
