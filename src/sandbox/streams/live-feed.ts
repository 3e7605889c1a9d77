/**
 * The streams API's live feed, whatever carries it: the listener's WebSocket
 * server (live-socket.ts, Node) or a socket in the same process
 * (in-process-socket.ts, every runtime). A subscription is admitted as the
 * service admits a signed `GET /api/v1/ws?feedIDs=…` upgrade (checked by the
 * sandbox's own dispatcher: HMAC, stream IDs, the same answers as over
 * `fetch`), opens on the origin named by `X-Cll-Origin` (default: the first
 * one up), and then gets each stream's report of every new sandbox second,
 * `{"report": …}`, exactly the report `GET /api/v1/reports/page` serves for
 * that second. So a client that backfills over REST after losing every
 * origin finds exactly what it missed. Dropping an origin ends its
 * subscriptions at once. A `reports` fault forges a second's report for
 * every origin alike (one forged report, as the service would publish it),
 * and counts once per stream and second.
 */
import type { SandboxClock } from '../clock.js';
import { loadDonSigner, type ReportSigning } from './don.js';
import { findStream, hasReportAt, reportAt, type CatalogStream } from './index.js';
import type { StreamOrigins } from './origins.js';

/** How often subscriptions are checked for reports that became due. */
const TICK_MS = 100;
/** At most this many seconds of reports are sent in one go to a subscriber that fell behind (a big `advance()`): the rest is for REST backfill. */
const MAX_CATCH_UP_SECONDS = 60;

/** One end of a live connection, as the feed sees it. */
export interface LiveSubscriber {
  send(text: string): void;
  /** Ends the connection at once, with no close frame (a dropped origin). */
  terminate(): void;
}

export interface LiveFeedOptions {
  clock: SandboxClock;
  /** The host's origins: a dropped one loses its subscriptions at once and refuses new ones with 503 until restored. */
  origins: StreamOrigins;
  /** The sandbox's dispatcher: checks the upgrade request as the service would. */
  dispatch(request: Request, local: boolean): Promise<Response>;
  /** How the next report published is signed: `'don'`, or forged by a `reports` fault (which this uses up once). */
  reportSigning(): ReportSigning;
}

export type Admission = { ok: true; origin: string; streams: CatalogStream[] } | { ok: false; refusal: Response };

export interface LiveFeed {
  /**
   * Checks an upgrade request (`target`: its path and query; `headers`: the
   * signed ones, without the upgrade's own) as the service does: the
   * subscription it may open, or the answer that refuses it.
   */
  admit(target: string, headers: Headers): Promise<Admission>;
  /** Starts sending reports to `subscriber`; the returned function stops it. */
  subscribe(subscriber: LiveSubscriber, origin: string, streams: CatalogStream[]): () => void;
  /** Ends every subscription and the ticker. */
  close(): void;
  /** True once `close()` ran (the sandbox is closed): a stream must not take this feed for an open sandbox's. */
  readonly closed: boolean;
}

interface Subscription {
  subscriber: LiveSubscriber;
  origin: string;
  streams: CatalogStream[];
  /** The last sandbox second whose reports were sent. */
  sentUpTo: number;
}

export function createLiveFeed(options: LiveFeedOptions): LiveFeed {
  const { clock, origins } = options;
  const subscriptions = new Set<Subscription>();
  let ticker: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  const nowSeconds = () => Math.floor(clock.now() / 1000);

  function publishDue(): void {
    clock.runDue();
    const now = nowSeconds();
    // Each stream's report of a second is made once for every subscriber, so every origin sends the same one.
    const published = new Map<string, string>();
    const messageOf = (stream: CatalogStream, t: number): string => {
      const key = `${stream.record.feedID}:${t}`;
      let message = published.get(key);
      if (message === undefined) {
        message = JSON.stringify({ report: reportAt(stream, t, options.reportSigning()) });
        published.set(key, message);
      }
      return message;
    };
    for (const subscription of subscriptions) {
      const from = Math.max(subscription.sentUpTo + 1, now - MAX_CATCH_UP_SECONDS + 1);
      for (let t = from; t <= now; t++) {
        for (const stream of subscription.streams) {
          if (hasReportAt(stream, t, now)) subscription.subscriber.send(messageOf(stream, t));
        }
      }
      subscription.sentUpTo = now;
    }
  }

  function startTicking(): void {
    if (ticker !== undefined) return;
    ticker = setInterval(publishDue, TICK_MS);
    // The client's own timers keep a process alive while it streams; the sandbox's must not.
    (ticker as { unref?: () => void }).unref?.();
  }

  function stopTickingIfIdle(): void {
    if (subscriptions.size === 0 && ticker !== undefined) {
      clearInterval(ticker);
      ticker = undefined;
    }
  }

  origins.onDrop((origin) => {
    for (const subscription of subscriptions) {
      if (subscription.origin !== origin) continue;
      subscriptions.delete(subscription);
      subscription.subscriber.terminate();
    }
    stopTickingIfIdle();
  });

  return {
    async admit(target, headers) {
      const url = new URL(target, 'http://sandbox.local');
      if (url.pathname !== '/api/v1/ws') {
        return { ok: false, refusal: Response.json({ type: 'NOT_FOUND', message: `no WebSocket at ${url.pathname}` }, { status: 404 }) };
      }
      // The dispatcher answers a plain GET of the stream with 400 WEBSOCKET_UPGRADE_REQUIRED once the
      // signature and the stream IDs are good; any other answer is the refusal to send.
      const checked = await options.dispatch(new Request(`http://sandbox.local${url.pathname}${url.search}`, { headers }), true);
      const verdict = checked.status === 400 ? ((await checked.clone().json()) as { code?: string }) : undefined;
      if (verdict?.code !== 'WEBSOCKET_UPGRADE_REQUIRED') return { ok: false, refusal: checked };
      const wanted = headers.get('x-cll-origin');
      const origin = wanted !== null && wanted !== '' ? wanted : origins.up()[0];
      if (origin === undefined || !origins.isUp(origin)) {
        const refusal = Response.json({ type: 'SERVICE_UNAVAILABLE', message: `origin ${String(origin)} is not available` }, { status: 503 });
        return { ok: false, refusal };
      }
      // The ticker signs reports synchronously: the DON's signer is loaded before the subscription opens.
      await loadDonSigner();
      const feedIDs = (url.searchParams.get('feedIDs') ?? '').split(',').filter((id) => id !== '');
      const streams = feedIDs.map((id) => findStream(id)).filter((stream): stream is CatalogStream => stream !== undefined);
      return { ok: true, origin, streams };
    },

    subscribe(subscriber, origin, streams) {
      const subscription: Subscription = { subscriber, origin, streams, sentUpTo: nowSeconds() };
      subscriptions.add(subscription);
      startTicking();
      return () => {
        subscriptions.delete(subscription);
        stopTickingIfIdle();
      };
    },

    get closed() {
      return closed;
    },

    close() {
      closed = true;
      for (const subscription of subscriptions) subscription.subscriber.terminate();
      subscriptions.clear();
      stopTickingIfIdle();
    },
  };
}
