/**
 * A local report service with a live WebSocket stream and several origins,
 * for the report stream's tests and benchmark (test only: it is not part of
 * the package): one `node:http` server on
 * 127.0.0.1 (a free port) that
 *
 * - answers a signed `HEAD /` with `X-Cll-Available-Origins: {001,002}` (the
 *   origins that are up);
 * - upgrades a signed `GET /api/v1/ws?feedIDs=…` to a WebSocket on the origin
 *   named by `X-Cll-Origin` (or the first one up), and sends each report
 *   published afterwards as `{"report": {…}}` on every connection of every
 *   origin that is up (so a client of two origins gets every report twice);
 * - serves the same history on `GET /api/v1/reports/page` for backfills.
 *
 * Every request is checked like the service checks it (the sandbox's own
 * verifier, src/sandbox/streams/hmac.ts), and a
 * test can break it on purpose: kill and restore an origin, publish a report
 * on some origins only, refuse upgrades with 401 or 403, resend reports,
 * send any text, and silence an origin's connections (no more reports, no
 * more pongs).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { createHmacVerifier } from '../../src/sandbox/streams/hmac.js';
import type { Report } from '../../src/streams/reports.js';
import { ReportHistory, v3FeedID } from './report-server-history.js';

/** The key and secret the service accepts. */
export interface HmacCredentials {
  apiKey: string;
  apiSecret: string;
}

export { makeV3Report, v3FeedID } from './report-server-history.js';

export interface ReportServerOptions {
  /** Stream IDs with reports (V3). Default: two, made by `v3FeedID('ETH/USD')` and `v3FeedID('BTC/USD')`. */
  feeds?: readonly string[];
  /** Origin identifiers. Default `['001', '002']`. */
  origins?: readonly string[];
  /** The credentials to accept. Default: a fresh key and secret. */
  credentials?: HmacCredentials;
  /** `observationsTimestamp` of the first report of each stream. Default: now, in Unix seconds. */
  firstTimestamp?: number;
  /** Reports kept per stream for `/api/v1/reports/page`. Default 10,000. */
  historyLimit?: number;
  /** Reports per page when the request has no `limit`. Default 100. */
  pageLimit?: number;
}

export interface ReportServer {
  /** `http://127.0.0.1:<port>`: the REST base URL (`/api/v1/reports/page`) and `HEAD /`. */
  readonly url: string;
  /** `ws://127.0.0.1:<port>`: the WebSocket host. */
  readonly wsUrl: string;
  readonly credentials: HmacCredentials;
  readonly feeds: readonly string[];
  readonly origins: readonly string[];
  /**
   * Publishes the next report of each stream (or of `feedIDs`): into the
   * history, and out on every live connection of every origin that is up, or
   * only of `options.origins` (`[]`: into the history only). Origins do not
   * all carry every report: one that was down, or that only some origins
   * sent, is then served by `/api/v1/reports/page` alone.
   */
  publish(feedIDs?: readonly string[], options?: { origins?: readonly string[] }): Report[];
  /** Encodes the next `count` reports of every stream ahead of time (benchmarks). */
  prepare(count: number): void;
  /** The published reports of a stream, oldest first. */
  history(feedID: string): readonly Report[];
  /** Drops the origin's connections (no close frame) and refuses its upgrades with 503 until `restoreOrigin`. */
  killOrigin(origin: string): void;
  restoreOrigin(origin: string): void;
  /** Refuses every upgrade with this status (signature checked or not) until called with `undefined`. */
  refuseUpgrades(status: 401 | 403 | undefined): void;
  /** The origin's open connections get no more reports and answer no more pings; new connections are normal. */
  silence(origin: string): void;
  /** Sends `text` as is on every open, unsilenced connection of the origin. */
  sendRaw(origin: string, text: string): void;
  /** Sends these reports again on every open connection of the origin (duplicates). */
  resend(origin: string, reports: readonly Report[]): void;
  /**
   * Answers `GET /api/v1/reports/page` with what `answer` returns instead of
   * the history (a hostile service), until called with `undefined`.
   */
  answerPages(answer: ((query: { feedID: string; startTimestamp: number; limit: number }) => Report[]) | undefined): void;
  /** Accepts every upgrade, then closes the connection at once (code 1011), until called with `false`. */
  closeOnOpen(on: boolean): void;
  /** Never answers `HEAD /` (the request hangs until the client gives up), until called with `false`. */
  hangHead(on: boolean): void;
  /** Open WebSocket connections, of one origin or of all. */
  connectionCount(origin?: string): number;
  /** Requests received so far, by kind (refused ones included). */
  readonly requests: { upgrade: number; head: number; page: number };
  close(): Promise<void>;
}

interface Connection {
  socket: WebSocket;
  feeds: ReadonlySet<string>;
  silent: boolean;
}

interface OriginState {
  up: boolean;
  connections: Set<Connection>;
}

const FEED_ID = /^0x[0-9a-fA-F]{64}$/;

export async function startReportServer(options: ReportServerOptions = {}): Promise<ReportServer> {
  const feeds = [...(options.feeds ?? [v3FeedID('ETH/USD'), v3FeedID('BTC/USD')])];
  const originIds = [...(options.origins ?? ['001', '002'])];
  const credentials = options.credentials ?? { apiKey: randomUUID(), apiSecret: randomBytes(24).toString('base64url') };
  const verify = createHmacVerifier(credentials);
  /** The service's check of a signed request, on the raw request target (what the client signed). */
  const refusalOf = (req: IncomingMessage, operationId: string) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const verdict = verify({ operationId, method: req.method ?? 'GET', target: req.url ?? '/', headers, bodyText: '' });
    return verdict.ok ? undefined : verdict;
  };
  const pageLimit = options.pageLimit ?? 100;
  const history = new ReportHistory(feeds, options.firstTimestamp ?? Math.floor(Date.now() / 1000), options.historyLimit ?? 10_000);
  const origins = new Map<string, OriginState>(originIds.map((id) => [id, { up: true, connections: new Set() }]));
  const requests = { upgrade: 0, head: 0, page: 0 };
  let refusal: 401 | 403 | undefined;
  let pageAnswer: Parameters<ReportServer['answerPages']>[0];
  let closeAtOnce = false;
  let headHangs = false;
  const rawSockets = new Set<Duplex>();

  // Pongs are sent by hand, so a silenced connection can stop answering.
  const wss = new WebSocketServer({ noServer: true, autoPong: false, clientTracking: false, perMessageDeflate: false });

  const server = createServer((req, res) => {
    try {
      answerHttp(req, res);
    } catch (error) {
      json(res, 500, { type: 'INTERNAL_ERROR', message: (error as Error).message });
    }
  });

  function json(res: ServerResponse, status: number, body: unknown, headOnly = false): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(headOnly ? undefined : text);
  }

  function answerHttp(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '/';
    const url = new URL(target, 'http://localhost');
    const method = req.method ?? 'GET';
    if (method === 'HEAD' && url.pathname === '/') {
      requests.head++;
      if (headHangs) return;
      const refused = refusalOf(req, 'getStreamOrigins');
      if (refused) return json(res, refused.status, {}, true);
      const up = [...origins].filter(([, state]) => state.up).map(([id]) => id);
      res.writeHead(200, { 'X-Cll-Available-Origins': `{${up.join(',')}}`, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (method === 'GET' && url.pathname === '/api/v1/reports/page') {
      requests.page++;
      const refused = refusalOf(req, 'getReportsPage');
      if (refused) return json(res, refused.status, { type: refused.status === 400 ? 'BAD_REQUEST' : 'UNAUTHORIZED', code: refused.code, message: refused.message });
      const feedID = url.searchParams.get('feedID') ?? '';
      const start = Number(url.searchParams.get('startTimestamp'));
      const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : pageLimit;
      if (!FEED_ID.test(feedID) || !Number.isInteger(start) || start < 0 || !Number.isInteger(limit) || limit < 1) {
        return json(res, 400, { type: 'BAD_REQUEST', code: 'INVALID_QUERY_ARGUMENT', message: 'feedID, startTimestamp and limit must be valid' });
      }
      if (!history.has(feedID)) return json(res, 401, { type: 'UNAUTHORIZED', code: 'UNKNOWN_STREAM', message: 'authentication failed' });
      const reports = pageAnswer === undefined ? history.page(feedID, start, limit) : pageAnswer({ feedID, startTimestamp: start, limit });
      return json(res, 200, { reports });
    }
    json(res, 404, { type: 'NOT_FOUND', message: `no route for ${method} ${url.pathname}` }, method === 'HEAD');
  }

  /** Answers an upgrade request with a plain HTTP error and closes the socket. */
  function refuse(socket: Duplex, status: number, body: Record<string, string>): void {
    const text = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    rawSockets.add(socket);
    socket.on('close', () => rawSockets.delete(socket));
    socket.on('error', () => undefined);
    requests.upgrade++;
    const target = req.url ?? '/';
    const url = new URL(target, 'http://localhost');
    if (url.pathname !== '/api/v1/ws') return refuse(socket, 404, { type: 'NOT_FOUND', message: `no WebSocket at ${url.pathname}` });
    const auth = refusalOf(req, 'streamReports');
    if (auth) return refuse(socket, auth.status, { type: auth.status === 400 ? 'BAD_REQUEST' : 'UNAUTHORIZED', code: auth.code, message: auth.message });
    if (refusal !== undefined) {
      return refuse(socket, refusal, { type: 'UNAUTHORIZED', code: refusal === 403 ? 'STREAMING_NOT_ALLOWED' : 'SIGNATURE_MISMATCH', message: 'refused' });
    }
    const requested = (url.searchParams.get('feedIDs') ?? '').split(',').filter((id) => id !== '');
    if (requested.length === 0 || !requested.every((id) => FEED_ID.test(id))) {
      return refuse(socket, 400, { type: 'BAD_REQUEST', code: 'INVALID_QUERY_ARGUMENT', message: 'feedIDs must be stream IDs, comma-separated' });
    }
    if (!requested.every((id) => history.has(id))) return refuse(socket, 401, { type: 'UNAUTHORIZED', code: 'UNKNOWN_STREAM', message: 'authentication failed' });
    const named = req.headers['x-cll-origin'];
    const originId = typeof named === 'string' ? named : [...origins].find(([, state]) => state.up)?.[0];
    const origin = originId === undefined ? undefined : origins.get(originId);
    if (originId !== undefined && origin === undefined) return refuse(socket, 400, { type: 'BAD_REQUEST', code: 'UNKNOWN_ORIGIN', message: `no origin ${originId}` });
    if (origin === undefined || !origin.up) return refuse(socket, 503, { type: 'UPSTREAM_UNAVAILABLE', code: 'ORIGIN_DOWN', message: 'origin unavailable' });
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { socket: ws, feeds: new Set(requested.map((id) => id.toLowerCase())), silent: false };
      origin.connections.add(connection);
      ws.on('ping', (data: Buffer) => {
        if (!connection.silent) ws.pong(data);
      });
      ws.on('close', () => origin.connections.delete(connection));
      ws.on('error', () => undefined);
      if (closeAtOnce) ws.close(1011, 'going away at once');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  function originState(id: string): OriginState {
    const state = origins.get(id);
    if (state === undefined) throw new Error(`no origin ${id}; the origins are ${originIds.join(', ')}`);
    return state;
  }

  function send(state: OriginState, report: Report, text: string): void {
    const key = report.feedID.toLowerCase();
    for (const connection of state.connections) {
      if (!connection.silent && connection.feeds.has(key) && connection.socket.readyState === 1) connection.socket.send(text);
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    credentials,
    feeds,
    origins: originIds,
    requests,
    publish(feedIDs = feeds, options = {}) {
      const targets = options.origins === undefined ? [...origins.values()] : options.origins.map(originState);
      const reports = feedIDs.map((feedID) => history.publish(feedID));
      for (const report of reports) {
        const text = JSON.stringify({ report });
        for (const state of targets) if (state.up) send(state, report, text);
      }
      return reports;
    },
    prepare: (count) => history.prepare(count),
    history: (feedID) => history.of(feedID),
    killOrigin(id) {
      const state = originState(id);
      state.up = false;
      for (const connection of state.connections) connection.socket.terminate();
    },
    restoreOrigin(id) {
      originState(id).up = true;
    },
    refuseUpgrades(status) {
      refusal = status;
    },
    silence(id) {
      for (const connection of originState(id).connections) connection.silent = true;
    },
    sendRaw(id, text) {
      for (const connection of originState(id).connections) {
        if (!connection.silent && connection.socket.readyState === 1) connection.socket.send(text);
      }
    },
    resend(id, reports) {
      const state = originState(id);
      for (const report of reports) send(state, report, JSON.stringify({ report }));
    },
    answerPages(answer) {
      pageAnswer = answer;
    },
    closeOnOpen(on) {
      closeAtOnce = on;
    },
    hangHead(on) {
      headHangs = on;
    },
    connectionCount(id) {
      const states = id === undefined ? [...origins.values()] : [originState(id)];
      return states.reduce((sum, state) => sum + state.connections.size, 0);
    },
    async close() {
      for (const state of origins.values()) for (const connection of state.connections) connection.socket.terminate();
      for (const socket of rawSockets) socket.destroy();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
