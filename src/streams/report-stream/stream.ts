import { SDK_USER_AGENT } from '../../core/client.js';
import { ConfigurationError, SdkError } from '../../core/errors.js';
import { streamsClientSettings, type StreamsClientSettings } from '../client-settings.js';
import { STREAMS_BASE_URLS, type StreamsClient, type StreamsNetwork } from '../client.js';
import { withDecoded, type Report, type ReportWithDecoded } from '../reports.js';
import { GapFiller } from './backfill.js';
import { OriginConnection, type ConnectionEvents, type LostReason } from './connection.js';
import {
  ReportStreamAuthError,
  ReportStreamConnectionError,
  ReportStreamMessageError,
  ReportStreamOverflowError,
} from './errors.js';
import { FEED_ID, parseReportMessage } from './message.js';
import { sandboxStreamLink } from './sandbox-link.js';
import { envelopeMismatch } from './signed-fields.js';
import {
  feedIDsOption,
  resolveStreamOptions,
  STREAMS_WS_URLS,
  wsUrlOption,
  type ReportStreamEvent,
  type ReportStreamOptions,
  type ResolvedStreamOptions,
} from './options.js';
import { discoverOrigins, staticOrigins, type StreamOrigin } from './origins.js';
import { ReportQueue } from './queue.js';
import { FeedWatermarks, type FeedState } from './watermarks.js';
import { MESSAGE_TOO_BIG, resolveSocketFactory } from './websocket.js';

export interface ReportStreamStats {
  /** Messages received, over every connection. */
  received: number;
  /** Reports handed to the buffer: live and backfilled, each once. */
  accepted: number;
  /** Copies dropped by deduplication (one per extra origin, resends, overlaps with the backfill). */
  duplicates: number;
  /**
   * Reports not delivered because a newer one of their stream already was
   * (delivering them would break the order), and that were not delivered
   * themselves: each is also reported as a `late-report` event.
   */
  late: number;
  /** Reports read from the REST API to fill gaps (included in `accepted`). */
  backfilled: number;
  /** Reports discarded by `overflow: 'latest-per-feed'` because the consumer was behind. */
  dropped: number;
  /** Reports waiting for the consumer now (at most `bufferSize`): how far behind it is. */
  buffered: number;
  /**
   * Messages and backfilled reports skipped: malformed, of another stream,
   * disagreeing with their signed report, from the future, outside a gap, too
   * large; each is also reported as a `message-skipped` event.
   */
  skipped: number;
  /** Reports of a second already delivered, with other content: the first is kept; each is also a `conflicting-report` event. */
  conflicts: number;
  /** Open connections that were lost. */
  connectionsLost: number;
}

/**
 * Live reports, in time order per stream, each once: iterate it with
 * `for await`. Breaking out of the loop, `close()` or the `signal` closes
 * every socket and timer.
 */
export interface ReportStream<R> extends AsyncIterable<R> {
  next(): Promise<IteratorResult<R, undefined>>;
  return(): Promise<IteratorResult<R, undefined>>;
  [Symbol.asyncIterator](): ReportStream<R>;
  /** Ends the stream; a pending `next()` resolves as done. */
  close(): Promise<void>;
  /** Counters since the stream started (a copy). */
  readonly stats: ReportStreamStats;
}

/**
 * Opens a live stream of reports of `feedIDs` over WebSocket, signed with
 * the client's credentials: one connection per origin of the WebSocket host
 * (high availability), duplicates dropped, lost connections reopened, and,
 * after any reconnect, the reports missed meanwhile read from the REST API
 * (the client's `baseUrl`) before live ones go on. No socket opens until
 * the first `next()` (the first turn of `for await`).
 *
 *     for await (const report of streamReports(streams, [feedID], { decode: true })) {
 *       console.log(report.feedID, report.decoded.observationsTimestamp);
 *     }
 */
export function streamReports<D extends boolean = false>(
  client: StreamsClient,
  feedIDs: readonly string[],
  options?: ReportStreamOptions & { decode?: D },
): ReportStream<D extends true ? ReportWithDecoded : Report> {
  const settings = streamsClientSettings(client);
  if (settings === undefined) throw new ConfigurationError('client', 'expected a client made by createStreamsClient');
  if (settings.authorize === undefined) {
    throw new ConfigurationError('apiKey', 'the report stream is signed: create the client with apiKey and apiSecret');
  }
  const ids = feedIDsOption(feedIDs);
  const { defaultWsUrl, webSocket, now } = whereToStream(settings, options ?? {});
  const resolved = resolveStreamOptions(options ?? {}, defaultWsUrl, ids.length);
  if (webSocket !== undefined) resolved.webSocket = webSocket;
  const authorize = settings.authorize;
  const userAgent = settings.userAgent ? `${SDK_USER_AGENT} ${settings.userAgent}` : SDK_USER_AGENT;
  const headersFor = (url: string): Record<string, string> => {
    const headers = new Headers({ 'User-Agent': userAgent });
    authorize(headers, 'GET', url, undefined);
    return Object.fromEntries(headers);
  };
  return new LiveReportStream<D extends true ? ReportWithDecoded : Report>(client, ids, resolved, headersFor, now);
}

/** True for a URL on this machine. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Where a client's stream goes when the options do not say. The REST backfill
 * goes where the client's requests go, so the live host must be that same
 * service:
 * - a client on a sandbox's `fetch` streams from that sandbox, in process (or
 *   from its listener, given its `wsUrl`), and never from another host;
 * - a client with a `baseUrl` of its own (a proxy, a local service) needs
 *   the `wsUrl` that goes with it: guessing the public host would stream
 *   from one service and backfill from another;
 * - otherwise, the WebSocket host of the client's deployment.
 */
function whereToStream(settings: StreamsClientSettings, options: ReportStreamOptions) {
  const link = sandboxStreamLink(settings.fetch);
  if (link !== undefined) {
    if (options.wsUrl === undefined) {
      if (options.webSocket !== undefined) {
        throw new ConfigurationError(
          'webSocket',
          "this client's fetch is a sandbox's: leave webSocket and wsUrl unset to stream from the sandbox in process, or give wsUrl of sandbox.listen()",
        );
      }
      return { defaultWsUrl: STREAMS_WS_URLS[settings.network], webSocket: link.webSocket, now: () => link.now() };
    }
    if (!isLoopback(wsUrlOption(options.wsUrl))) {
      throw new ConfigurationError('wsUrl', "this client's fetch is a sandbox's, so the stream must come from the sandbox too: give the ws:// URL of sandbox.listen(), or no wsUrl");
    }
    return { defaultWsUrl: STREAMS_WS_URLS[settings.network], webSocket: undefined, now: () => link.now() };
  }
  const base = settings.baseUrl?.replace(/\/+$/, '');
  const network = base === undefined ? settings.network : (Object.keys(STREAMS_BASE_URLS) as StreamsNetwork[]).find((n) => STREAMS_BASE_URLS[n] === base);
  if (network === undefined && options.wsUrl === undefined) {
    throw new ConfigurationError(
      'wsUrl',
      `the client's baseUrl is ${base}, not a deployment's: give the WebSocket host of that service as wsUrl (without it the stream would connect to ${STREAMS_WS_URLS[settings.network]})`,
    );
  }
  return { defaultWsUrl: STREAMS_WS_URLS[network ?? settings.network], webSocket: undefined, now: Date.now };
}

class LiveReportStream<R extends Report> implements ReportStream<R>, ConnectionEvents {
  private readonly queue: ReportQueue<R>;
  private readonly watermarks: FeedWatermarks;
  private readonly feedIDs: Map<string, string>;
  private readonly held = new Map<string, Report[]>();
  private readonly connections: OriginConnection[] = [];
  private readonly internal = new AbortController();
  private readonly gapFiller: GapFiller | undefined;
  private readonly counts = { received: 0, accepted: 0, duplicates: 0, late: 0, backfilled: 0, skipped: 0, conflicts: 0, connectionsLost: 0 };
  /** Connections that opened at least once: their next open is a reconnect. */
  private readonly everOpened = new Set<OriginConnection>();
  private heldDropped = 0;
  /** A bound `latestSecond()` gave earlier (see `notInTheFuture`). */
  private knownLatestSecond = -1;
  private started = false;
  private finished = false;
  private openCount = 0;
  private givenUp = 0;
  private firstOpenAt: number | undefined;
  /** True after every connection was lost, until one opens again (then the gap is filled, whichever origin it is). */
  private uncovered = false;
  private readonly onAbort = () => this.finish(undefined, true);

  constructor(
    private readonly client: StreamsClient,
    ids: readonly string[],
    private readonly options: ResolvedStreamOptions,
    private readonly headersFor: (url: string) => Record<string, string>,
    /** The clock reports are dated by, in Unix ms: this machine's, or a sandbox's. */
    private readonly now: () => number,
  ) {
    this.feedIDs = new Map(ids.map((id) => [id.toLowerCase(), id]));
    this.watermarks = new FeedWatermarks(ids);
    this.queue = new ReportQueue<R>(options.bufferSize, options.overflow, (error) => this.finish(error));
    if (options.backfill !== undefined) {
      const stream = this;
      this.gapFiller = new GapFiller(
        {
          client,
          pageSize: options.backfill.pageSize,
          signal: this.internal.signal,
          lastDelivered: (key) => stream.watermarks.last(key),
          startSecond: () => Math.floor((stream.firstOpenAt ?? stream.now()) / 1000),
          latestSecond: () => stream.latestSecond(),
          liveEdge: (key) => stream.held.get(key)?.[0]?.observationsTimestamp,
          deliverBackfilled: (key, report) => stream.deliverBackfilled(key, report),
          skip: (error) => stream.skip(error),
          release: (key) => stream.release(key),
          emit: (event) => stream.emit(event),
        },
        this.feedIDs,
      );
    }
  }

  get stats(): ReportStreamStats {
    return { ...this.counts, dropped: this.queue.dropped + this.heldDropped, buffered: this.queue.size };
  }

  [Symbol.asyncIterator](): ReportStream<R> {
    return this;
  }

  next(): Promise<IteratorResult<R, undefined>> {
    if (!this.started) this.start();
    return this.queue.next();
  }

  return(): Promise<IteratorResult<R, undefined>> {
    this.finish(undefined, true);
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): Promise<void> {
    this.finish(undefined, true);
    return Promise.resolve();
  }

  private start(): void {
    this.started = true;
    const { signal } = this.options;
    if (signal?.aborted) {
      this.finish(undefined, true);
      return;
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.connect().catch((error: unknown) => this.finish(asSdkError(error)));
  }

  private async connect(): Promise<void> {
    const factory = await resolveSocketFactory(this.options.webSocket);
    if (this.finished) return;
    const { wsUrl } = this.options;
    let origins: StreamOrigin[];
    if (this.options.origins !== undefined) {
      origins = staticOrigins(wsUrl, this.options.origins);
      this.emit({ type: 'origins', origins: origins.map((o) => o.label), discovered: false });
    } else {
      const limits = { timeoutMs: this.options.discoveryTimeoutMs, maxOrigins: this.options.maxOrigins };
      const found = await discoverOrigins(this.client, wsUrl, this.internal.signal, limits);
      if (this.finished) return;
      origins = found.origins;
      this.emit({
        type: 'origins',
        origins: origins.map((o) => o.label),
        discovered: found.discovered,
        ...(found.ignored === 0 ? {} : { ignored: found.ignored }),
        ...(found.error === undefined ? {} : { error: found.error }),
      });
    }
    const pathAndQuery = `api/v1/ws?feedIDs=${[...this.feedIDs.values()].join(',')}`;
    const { pingIntervalMs, pongTimeoutMs, connectTimeoutMs, reconnect, maxMessageBytes } = this.options;
    const timing = { pingIntervalMs, pongTimeoutMs, connectTimeoutMs, reconnect };
    const limits = { maxMessageBytes };
    for (const origin of origins) {
      this.connections.push(
        new OriginConnection({ origin, pathAndQuery, headersFor: this.headersFor, factory, limits, timing, random: Math.random }, this),
      );
    }
    for (const connection of this.connections) connection.start();
  }

  // ConnectionEvents

  opened(connection: OriginConnection): void {
    this.openCount++;
    this.firstOpenAt ??= this.now();
    const reconnect = this.everOpened.has(connection);
    this.everOpened.add(connection);
    this.emit({ type: 'connected', origin: connection.origin.label });
    // Another connection open all along does not show that nothing was missed:
    // an origin may send reports the others do not, and what this one sent
    // while it was down reached no one. So every reconnect reads the REST API
    // from the last report delivered (one fill per stream at a time, see GapFiller).
    if (this.uncovered || reconnect) {
      this.uncovered = false;
      this.gapFiller?.fillAll();
    }
  }

  message(connection: OriginConnection, text: string): void {
    this.counts.received++;
    const source = connection.origin.label;
    let report: Report;
    try {
      report = parseReportMessage(text, source);
    } catch (error) {
      this.skip(error as ReportStreamMessageError);
      return;
    }
    const feed = this.watermarks.find(report.feedID);
    if (feed === undefined) {
      this.skip(
        FEED_ID.test(report.feedID)
          ? new ReportStreamMessageError('unexpected_feed', source, `a report of ${report.feedID}, which this stream did not ask for`)
          : new ReportStreamMessageError('not_a_report', source, '`report.feedID` is not a stream ID'),
      );
      return;
    }
    if (!this.isNew(feed, report, source)) return;
    if (this.gapFiller?.isFilling(feed.key)) {
      this.hold(feed.key, report);
      return;
    }
    const item = this.admit(feed, report, source);
    if (item !== undefined) this.queue.push(item);
  }

  lost(connection: OriginConnection, reason: LostReason, code: number | undefined): void {
    this.openCount--;
    this.counts.connectionsLost++;
    if (code === MESSAGE_TOO_BIG) {
      const limit = this.options.maxMessageBytes;
      this.skip(new ReportStreamMessageError('too_large', connection.origin.label, `a message over maxMessageBytes (${limit}); the connection is reopened`));
    }
    this.emit({ type: 'origin-lost', origin: connection.origin.label, reason, ...(code === undefined ? {} : { code }) });
    if (this.openCount === 0) {
      this.uncovered = true;
      // Reports held for a stream being filled no longer join up with what comes
      // after this gap; the backfill reads them again from the REST API.
      this.held.clear();
    }
  }

  reconnecting(connection: OriginConnection, attempt: number, delayMs: number): void {
    this.emit({ type: 'reconnecting', origin: connection.origin.label, attempt, delayMs });
  }

  refused(connection: OriginConnection, status: 401 | 403): void {
    this.finish(new ReportStreamAuthError(status, connection.origin.label));
  }

  gaveUp(_connection: OriginConnection, lastError: unknown): void {
    this.givenUp++;
    if (this.givenUp === this.connections.length) {
      this.finish(new ReportStreamConnectionError(this.options.reconnect.maxAttempts, { cause: lastError }));
    }
  }

  // Reports

  /** The latest second a report may be observed at now (see `maxFutureMs`). */
  private latestSecond(): number {
    return Math.floor((this.now() + this.options.maxFutureMs) / 1000);
  }

  /**
   * Whether second `t` is not in the future. The bound only grows, so one
   * seen earlier still holds: the clock is read only for reports beyond it.
   */
  private notInTheFuture(t: number): boolean {
    if (t <= this.knownLatestSecond) return true;
    this.knownLatestSecond = this.latestSecond();
    return t <= this.knownLatestSecond;
  }

  /**
   * True when the envelope agrees with the signed report and the report is
   * not from the future; otherwise it is skipped and reported. Only such a
   * report may move its stream's watermark, so neither a message that lies
   * nor a clock that runs ahead can push genuine reports out as late.
   */
  private trustworthy(feed: FeedState, report: Report, source: string): boolean {
    const mismatch = envelopeMismatch(report, feed.signedHead);
    if (mismatch !== undefined) {
      this.skip(new ReportStreamMessageError('envelope_mismatch', source, mismatch));
      return false;
    }
    if (!this.notInTheFuture(report.observationsTimestamp)) {
      const ahead = report.observationsTimestamp - Math.floor(this.now() / 1000);
      this.skip(
        new ReportStreamMessageError(
          'from_the_future',
          source,
          `a report of ${report.feedID} observed at ${report.observationsTimestamp}, ${ahead} s ahead of this clock (maxFutureMs: ${this.options.maxFutureMs})`,
        ),
      );
      return false;
    }
    return true;
  }

  /**
   * True when `report` is newer than every report delivered for its stream
   * and trustworthy (its envelope agrees with the signed report, and it is
   * not from the future). Otherwise it is counted: as a duplicate (or a
   * conflict, when its content differs from the copy delivered), or, when it
   * was never delivered, as late, and reported, since it is not delivered
   * (the order per stream comes first) and must not vanish unnoticed.
   * A copy of a delivered report needs no check of its own: it is compared
   * whole with what was delivered.
   */
  private isNew(feed: FeedState, report: Report, source: string): boolean {
    const arrival = feed.classify(report.observationsTimestamp);
    if (arrival === 'new') return this.trustworthy(feed, report, source);
    if (arrival === 'duplicate') {
      const delivered = feed.contentAt(report.observationsTimestamp);
      if (delivered !== undefined && delivered !== report.fullReport) {
        this.counts.conflicts++;
        this.emit({ type: 'conflicting-report', feedID: feed.feedID, observationsTimestamp: report.observationsTimestamp, source });
      } else {
        this.counts.duplicates++;
      }
    } else if (this.trustworthy(feed, report, source)) {
      this.counts.late++;
      this.emit({ type: 'late-report', feedID: feed.feedID, observationsTimestamp: report.observationsTimestamp, lastDelivered: feed.newest });
    }
    return false;
  }

  /** Dedup check done by the caller; decodes if asked, then records the report as delivered. */
  private admit(feed: FeedState, report: Report, source: string): R | undefined {
    let item: R;
    if (this.options.decode) {
      try {
        item = withDecoded(report) as unknown as R;
      } catch (error) {
        this.skip(new ReportStreamMessageError('undecodable', source, (error as Error).message, { cause: error }));
        return undefined;
      }
    } else {
      item = report as R;
    }
    feed.delivered(report.observationsTimestamp, report.fullReport);
    this.counts.accepted++;
    return item;
  }

  private async deliverBackfilled(key: string, report: Report): Promise<boolean> {
    const feed = this.watermarks.find(key);
    if (this.finished || feed === undefined) return false;
    if (!this.isNew(feed, report, 'rest')) return false;
    const item = this.admit(feed, report, 'rest');
    if (item === undefined) return false;
    this.counts.backfilled++;
    await this.queue.pushWhenRoom(item);
    return true;
  }

  /** A live report that arrived while its stream is being backfilled: kept (bounded) until the backfill ends. */
  private hold(key: string, report: Report): void {
    let list = this.held.get(key);
    if (list === undefined) this.held.set(key, (list = []));
    if (list.length >= this.options.bufferSize) {
      if (this.options.overflow === 'error') {
        this.finish(new ReportStreamOverflowError(this.options.bufferSize));
        return;
      }
      list.shift();
      this.heldDropped++;
    }
    list.push(report);
  }

  private release(key: string): void {
    const list = this.held.get(key);
    const feed = this.watermarks.find(key);
    this.held.delete(key);
    if (feed === undefined || list === undefined) return;
    // Held in arrival order, which two origins can interleave (one behind the
    // other); in time order, none of them is late only because of that.
    list.sort((a, b) => a.observationsTimestamp - b.observationsTimestamp);
    for (const report of list) {
      if (this.finished) return;
      if (!this.isNew(feed, report, 'held')) continue;
      const item = this.admit(feed, report, 'held');
      if (item !== undefined) this.queue.push(item);
    }
  }

  private skip(error: ReportStreamMessageError): void {
    this.counts.skipped++;
    this.emit({ type: 'message-skipped', error });
  }

  private emit(event: ReportStreamEvent): void {
    try {
      this.options.onStatus?.(event);
    } catch {
      // A status listener's failure must not break the stream.
    }
  }

  /** Stops everything once. `discard`: the consumer stopped, so waiting reports are dropped. */
  private finish(error: SdkError | undefined, discard = false): void {
    if (this.finished) return;
    this.finished = true;
    this.started = true;
    this.internal.abort();
    for (const connection of this.connections) connection.close();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.held.clear();
    if (discard) this.queue.clear();
    else this.queue.end(error);
    this.emit(error === undefined ? { type: 'closed' } : { type: 'closed', error });
  }
}

function asSdkError(error: unknown): SdkError {
  return error instanceof SdkError ? error : new SdkError(`the report stream failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}
