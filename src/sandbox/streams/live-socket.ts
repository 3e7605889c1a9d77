/**
 * The streams API's live WebSocket, served by the sandbox's listener (Node
 * only: it uses the `ws` package, and is imported with the listener). A
 * signed `GET /api/v1/ws?feedIDs=…` upgrade is checked by the sandbox's own
 * dispatcher (HMAC, stream IDs: the same answers as over `fetch`), opens on
 * the origin named by `X-Cll-Origin` (default: the first one up), and then
 * gets each stream's report of every new sandbox second, `{"report": …}`,
 * exactly the report `GET /api/v1/reports/page` serves for that second. So a
 * client that backfills over REST after losing every origin finds exactly
 * what it missed. Origins can be dropped and restored by a test.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SandboxClock } from '../clock.js';
import type { UpgradeHandler } from '../listen.js';
import { findStream, hasReportAt, reportAt, type CatalogStream } from './index.js';
import type { StreamOrigins } from './origins.js';

/** How often open sockets are checked for reports that became due. */
const TICK_MS = 100;
/** At most this many seconds of reports are sent in one go to a socket that fell behind (a big `advance()`): the rest is for REST backfill. */
const MAX_CATCH_UP_SECONDS = 60;

export interface LiveSocketServer {
  upgrade: UpgradeHandler;
  close(): void;
}

interface Subscriber {
  socket: WebSocket;
  origin: string;
  streams: CatalogStream[];
  /** The last sandbox second whose reports were sent. */
  sentUpTo: number;
}

export interface LiveSocketOptions {
  clock: SandboxClock;
  /** The host's origins: a dropped one loses its sockets at once (no close frame) and refuses upgrades with 503 until restored. */
  origins: StreamOrigins;
  /** The sandbox's dispatcher: checks the upgrade request as the service would. */
  dispatch(request: Request, local: boolean): Promise<Response>;
}

export function createLiveSocketServer(options: LiveSocketOptions): LiveSocketServer {
  const { clock, origins } = options;
  const subscribers = new Set<Subscriber>();
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  let ticker: ReturnType<typeof setInterval> | undefined;

  const nowSeconds = () => Math.floor(clock.now() / 1000);

  function publishDue(): void {
    clock.runDue();
    const now = nowSeconds();
    for (const subscriber of subscribers) {
      const from = Math.max(subscriber.sentUpTo + 1, now - MAX_CATCH_UP_SECONDS + 1);
      for (let t = from; t <= now; t++) {
        for (const stream of subscriber.streams) {
          if (hasReportAt(stream, t, now)) subscriber.socket.send(JSON.stringify({ report: reportAt(stream, t) }));
        }
      }
      subscriber.sentUpTo = now;
    }
  }

  function startTicking(): void {
    if (ticker !== undefined) return;
    ticker = setInterval(publishDue, TICK_MS);
    ticker.unref();
  }

  function stopTickingIfIdle(): void {
    if (subscribers.size === 0 && ticker !== undefined) {
      clearInterval(ticker);
      ticker = undefined;
    }
  }

  /** Writes a plain HTTP answer on the socket of a refused upgrade. */
  async function refuse(socket: Duplex, response: Response): Promise<void> {
    const body = await response.text();
    const type = response.headers.get('content-type') ?? 'application/json';
    socket.end(
      `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\nContent-Type: ${type}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !/^(connection|upgrade|host|sec-websocket-.*)$/i.test(name)) headers.set(name, value);
    }
    const target = request.url ?? '/';
    const url = new URL(target, 'http://sandbox.local');
    if (url.pathname !== '/api/v1/ws') {
      return refuse(socket, Response.json({ type: 'NOT_FOUND', message: `no WebSocket at ${url.pathname}` }, { status: 404 }));
    }
    // The dispatcher answers a plain GET of the stream with 400 WEBSOCKET_UPGRADE_REQUIRED once the
    // signature and the stream IDs are good; any other answer is the refusal to send.
    const checked = await options.dispatch(new Request(`http://sandbox.local${target}`, { headers }), true);
    const verdict = checked.status === 400 ? ((await checked.clone().json()) as { code?: string }) : undefined;
    if (verdict?.code !== 'WEBSOCKET_UPGRADE_REQUIRED') return refuse(socket, checked);

    const wanted = request.headers['x-cll-origin'];
    const origin = typeof wanted === 'string' && wanted !== '' ? wanted : origins.up()[0];
    if (origin === undefined || !origins.isUp(origin)) {
      return refuse(socket, Response.json({ type: 'SERVICE_UNAVAILABLE', message: `origin ${String(origin)} is not available` }, { status: 503 }));
    }
    const feedIDs = (url.searchParams.get('feedIDs') ?? '').split(',').filter((id) => id !== '');
    const streams = feedIDs.map((id) => findStream(id)).filter((stream): stream is CatalogStream => stream !== undefined);
    wss.handleUpgrade(request, socket, head, (ws) => {
      const subscriber: Subscriber = { socket: ws, origin, streams, sentUpTo: nowSeconds() };
      subscribers.add(subscriber);
      ws.on('close', () => {
        subscribers.delete(subscriber);
        stopTickingIfIdle();
      });
      ws.on('error', () => undefined);
      startTicking();
    });
  }

  origins.onDrop((origin) => {
    for (const subscriber of subscribers) if (subscriber.origin === origin) subscriber.socket.terminate();
  });

  return {
    upgrade: (request, socket, head) => void upgrade(request as IncomingMessage, socket as Duplex, Buffer.from(head)),
    close() {
      for (const subscriber of subscribers) subscriber.socket.terminate();
      subscribers.clear();
      stopTickingIfIdle();
      wss.close();
    },
  };
}
