import { checkReportTrust } from '../../reports/verify-config.js';
import type { ReportTrust } from '../../reports/verify-types.js';
import { ConfigurationError } from '../../core/errors.js';
import type { SdkError } from '../../core/errors.js';
import type { OtelMeter } from '../../core/telemetry/otel-api.js';
import type { ReportStreamMessageError } from './errors.js';
import type { WebSocketConstructor } from './websocket.js';

/** The WebSocket hosts of the two deployments (the REST hosts are `STREAMS_BASE_URLS`). */
export const STREAMS_WS_URLS = Object.freeze({
  testnet: 'wss://ws.testnet-dataengine.chain.link',
  mainnet: 'wss://ws.dataengine.chain.link',
});

/** What a slow consumer costs: the newest report of each stream is kept, or the stream fails. */
export type OverflowPolicy = 'latest-per-feed' | 'error';

/** What happens to the stream, as it happens. */
export type ReportStreamEvent =
  /**
   * The origins the stream connects to; `discovered` is false when they did
   * not come from `HEAD /`. `ignored`: origins listed beyond `maxOrigins`.
   */
  | { type: 'origins'; origins: string[]; discovered: boolean; ignored?: number; error?: SdkError }
  | { type: 'connected'; origin: string }
  /** A connection that was open closed; `pong-timeout` when it stopped answering pings. */
  | { type: 'origin-lost'; origin: string; reason: 'closed' | 'pong-timeout' | 'silent'; code?: number }
  | { type: 'reconnecting'; origin: string; attempt: number; delayMs: number }
  /** After a reconnect (of any origin), the reports missed meanwhile were read from the REST API, from `from` on. */
  | { type: 'gap-filled'; feedID: string; from: number; reports: number }
  /** The backfill of one stream failed (after the client's retries): reports from `from` on may be missing. */
  | { type: 'gap-unfilled'; feedID: string; from: number; error: SdkError }
  /** A message or backfilled report that was not delivered, and why (`error.problem`). */
  | { type: 'message-skipped'; error: ReportStreamMessageError }
  /**
   * A report of a second already delivered for its stream, with other
   * content (another origin's or a resend's): the first one delivered is
   * kept, this one is not delivered, and it is counted in `stats.conflicts`.
   */
  | { type: 'conflicting-report'; feedID: string; observationsTimestamp: number; source: string }
  /**
   * A report older than the newest one delivered for its stream
   * (`lastDelivered`), and not a copy of one delivered: not delivered, as
   * the order per stream comes first, and counted in `stats.late`.
   */
  | { type: 'late-report'; feedID: string; observationsTimestamp: number; lastDelivered: number }
  /** The stream ended: by `close()`, `break`, the signal, or `error`. */
  | { type: 'closed'; error?: SdkError };

/** How a lost connection is reopened: full-jitter backoff between attempts, per origin (`ReportStreamOptions.reconnect`). */
export interface ReconnectOptions {
  /** Cap of the first delay, in ms; the cap doubles each attempt (full jitter: the delay is random below it). Default 1,000. */
  baseDelayMs?: number;
  /** Largest delay, in ms. Default 10,000. */
  maxDelayMs?: number;
  /**
   * Failed attempts in a row after which an origin is given up. A connection
   * that opens but closes within `stableAfterMs` counts as failed too.
   * Default `Infinity`: an origin is retried for as long as the stream runs.
   */
  maxAttempts?: number;
  /** How long a connection must stay open before the back-off starts again from `baseDelayMs`, in ms. Default 30,000. */
  stableAfterMs?: number;
}

/** The options of `streamReports`: every one optional; the defaults are named on each. */
export interface ReportStreamOptions {
  /** Add `decoded` to each report, as the REST helpers do. A report that does not decode is skipped and reported. */
  decode?: boolean;
  /**
   * Deliver only reports whose signatures verify against these oracle
   * network configurations (`verifyReport`, as the on-chain verifier
   * checks them); others are skipped as `unverified` and counted in
   * `stats.unverified`. Without it, a report is checked against its own
   * envelope and the clock, never its signatures.
   */
  verify?: ReportTrust;
  /** Ends the stream: every socket and timer is closed and the loop ends. */
  signal?: AbortSignal;
  /** The WebSocket host, `wss://…`. Default: the host of the client's `network`. Set it when you set the client's `baseUrl`. */
  wsUrl?: string;
  /**
   * The origins to connect to, instead of those `HEAD /` lists: origin
   * identifiers (sent as `X-Cll-Origin` to `wsUrl`) or whole `ws(s)://`
   * URLs of separate hosts.
   */
  origins?: readonly string[];
  /** Called with every status change. An exception it throws is ignored. */
  onStatus?: (event: ReportStreamEvent) => void;
  /**
   * An OpenTelemetry `Meter` (`metrics.getMeter('my-service')` of
   * `@opentelemetry/api`): the stream then reports its health as metrics
   * named `service_sdk.stream.*` (reports delivered, skipped by reason,
   * unverified, gaps filled and unfilled, reconnects, and the lag from
   * observation to delivery). The SDK itself never imports OpenTelemetry.
   */
  meter?: OtelMeter;
  /** Reports held for a slow consumer before `overflow` applies. Default 1,000; at least the number of streams. */
  bufferSize?: number;
  /** Default `'latest-per-feed'`. */
  overflow?: OverflowPolicy;
  /** Read missed reports from the REST API after any reconnect. Default true. */
  backfill?: boolean | { pageSize?: number };
  reconnect?: ReconnectOptions;
  /** How often each connection is pinged, in ms. Default 10,000. */
  pingIntervalMs?: number;
  /** How long a ping may go unanswered before the connection is dropped and reopened, in ms. Default 5,000. */
  pongTimeoutMs?: number;
  /** Time limit of one connection attempt (the upgrade), in ms. Default 10,000. */
  connectTimeoutMs?: number;
  /** Time limit of the `HEAD /` that lists the origins, in ms; past it the stream opens one connection and lets the host pick. Default 5,000. */
  discoveryTimeoutMs?: number;
  /** Origins connected to at most, of those `HEAD /` lists (the rest are reported in the `origins` event). Default 4. */
  maxOrigins?: number;
  /**
   * Largest message accepted, in bytes (a report is about 1 kB). A larger one
   * drops the connection, which is reopened and its gap filled. Default 65,536.
   */
  maxMessageBytes?: number;
  /**
   * How far ahead of this machine's clock a report may be observed, in ms.
   * A later one is skipped: delivering it would make every genuine report
   * after it late. Default 60,000.
   */
  maxFutureMs?: number;
  /**
   * The WebSocket implementation. Default: the `ws` package in Node, the
   * built-in WebSocket in Bun and Deno. Any constructor called as
   * `new WebSocket(url, { headers })` that sends those headers works.
   */
  webSocket?: WebSocketConstructor;
}

export interface ResolvedStreamOptions {
  decode: boolean;
  verify: ReportTrust | undefined;
  signal: AbortSignal | undefined;
  wsUrl: string;
  origins: readonly string[] | undefined;
  onStatus: ((event: ReportStreamEvent) => void) | undefined;
  meter: OtelMeter | undefined;
  bufferSize: number;
  overflow: OverflowPolicy;
  backfill: { pageSize: number | undefined } | undefined;
  reconnect: Required<ReconnectOptions>;
  pingIntervalMs: number;
  pongTimeoutMs: number;
  connectTimeoutMs: number;
  discoveryTimeoutMs: number;
  maxOrigins: number;
  maxMessageBytes: number;
  maxFutureMs: number;
  webSocket: WebSocketConstructor | undefined;
}

const FEED_ID = /^0x[0-9a-fA-F]{64}$/;

/** The stream IDs, checked; duplicates (in any letter case) are kept once. */
export function feedIDsOption(feedIDs: unknown): string[] {
  if (!Array.isArray(feedIDs) || feedIDs.length === 0) {
    throw new ConfigurationError('feedIDs', 'expected a non-empty array of stream IDs');
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of feedIDs as unknown[]) {
    if (typeof id !== 'string' || !FEED_ID.test(id)) {
      throw new ConfigurationError('feedIDs', `${JSON.stringify(String(id).slice(0, 80))} is not a stream ID (0x and 64 hex digits)`);
    }
    const key = id.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(id);
    }
  }
  return out;
}

function positive(option: string, value: unknown, fallback: number, allowInfinity = false): number {
  if (value === undefined) return fallback;
  const ok = typeof value === 'number' && value > 0 && (Number.isFinite(value) || (allowInfinity && value === Number.POSITIVE_INFINITY));
  if (!ok) throw new ConfigurationError(option, `expected a number > 0${allowInfinity ? ' (or Infinity)' : ''}, got ${String(value)}`);
  return value;
}

function integer(option: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigurationError(option, `expected an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** A `ws://` or `wss://` URL without query, fragment or credentials; trailing slashes removed. */
export function wsUrlOption(value: unknown): string {
  if (typeof value !== 'string') throw new ConfigurationError('wsUrl', 'expected a ws:// or wss:// URL string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError('wsUrl', 'is not a valid absolute URL');
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new ConfigurationError('wsUrl', `expected a ws:// or wss:// URL, got the scheme ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') throw new ConfigurationError('wsUrl', 'must not contain credentials');
  if (url.search !== '' || url.hash !== '') throw new ConfigurationError('wsUrl', 'must not have a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

export function resolveStreamOptions(options: ReportStreamOptions, defaultWsUrl: string, feedCount: number): ResolvedStreamOptions {
  if (options === null || typeof options !== 'object') throw new ConfigurationError('options', 'expected an object');
  const overflow = options.overflow ?? 'latest-per-feed';
  if (overflow !== 'latest-per-feed' && overflow !== 'error') {
    throw new ConfigurationError('overflow', `expected 'latest-per-feed' or 'error', got ${JSON.stringify(overflow)}`);
  }
  const bufferSize = integer('bufferSize', options.bufferSize, Math.max(1000, feedCount), feedCount);
  if (options.onStatus !== undefined && typeof options.onStatus !== 'function') throw new ConfigurationError('onStatus', 'expected a function');
  const { meter } = options;
  if (meter !== undefined && (typeof meter?.createCounter !== 'function' || typeof meter.createHistogram !== 'function')) {
    throw new ConfigurationError('meter', "expected an OpenTelemetry Meter (metrics.getMeter(…) of '@opentelemetry/api')");
  }
  if (options.webSocket !== undefined && typeof options.webSocket !== 'function') {
    throw new ConfigurationError('webSocket', 'expected a WebSocket constructor');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new ConfigurationError('signal', 'expected an AbortSignal');
  let origins: string[] | undefined;
  if (options.origins !== undefined) {
    if (!Array.isArray(options.origins) || options.origins.length === 0) {
      throw new ConfigurationError('origins', 'expected a non-empty array of origin identifiers or ws(s):// URLs');
    }
    origins = options.origins.map((origin: unknown) => {
      if (typeof origin !== 'string' || origin.trim() === '' || /[\r\n]/.test(origin)) {
        throw new ConfigurationError('origins', 'each origin must be a non-empty string on one line');
      }
      return /^wss?:\/\//i.test(origin) ? wsUrlOption(origin) : origin.trim();
    });
  }
  let backfill: ResolvedStreamOptions['backfill'] = { pageSize: undefined };
  if (options.backfill === false) backfill = undefined;
  else if (typeof options.backfill === 'object' && options.backfill !== null) {
    backfill = { pageSize: options.backfill.pageSize === undefined ? undefined : integer('backfill.pageSize', options.backfill.pageSize, 0, 1) };
  } else if (options.backfill !== undefined && options.backfill !== true) {
    throw new ConfigurationError('backfill', 'expected a boolean or { pageSize }');
  }
  const reconnect = options.reconnect ?? {};
  return {
    decode: options.decode === true,
    verify: options.verify === undefined ? undefined : checkReportTrust(options.verify, 'verify'),
    signal: options.signal,
    wsUrl: options.wsUrl === undefined ? defaultWsUrl : wsUrlOption(options.wsUrl),
    origins,
    onStatus: options.onStatus,
    meter,
    bufferSize,
    overflow,
    backfill,
    reconnect: {
      baseDelayMs: positive('reconnect.baseDelayMs', reconnect.baseDelayMs, 1_000),
      maxDelayMs: positive('reconnect.maxDelayMs', reconnect.maxDelayMs, 10_000),
      maxAttempts: positive('reconnect.maxAttempts', reconnect.maxAttempts, Number.POSITIVE_INFINITY, true),
      stableAfterMs: positive('reconnect.stableAfterMs', reconnect.stableAfterMs, 30_000),
    },
    pingIntervalMs: positive('pingIntervalMs', options.pingIntervalMs, 10_000),
    pongTimeoutMs: positive('pongTimeoutMs', options.pongTimeoutMs, 5_000),
    connectTimeoutMs: positive('connectTimeoutMs', options.connectTimeoutMs, 10_000),
    discoveryTimeoutMs: positive('discoveryTimeoutMs', options.discoveryTimeoutMs, 5_000),
    maxOrigins: integer('maxOrigins', options.maxOrigins, 4, 1),
    maxMessageBytes: integer('maxMessageBytes', options.maxMessageBytes, 65_536, 1_024),
    maxFutureMs: integer('maxFutureMs', options.maxFutureMs, 60_000, 0),
    webSocket: options.webSocket,
  };
}
