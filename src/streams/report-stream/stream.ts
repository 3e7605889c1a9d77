import { SDK_USER_AGENT } from '../../core/client.js';
import { ConfigurationError, SdkError } from '../../core/errors.js';
import { streamsClientSettings } from '../client-settings.js';
import type { StreamsClient } from '../client.js';
import type { Report, ReportWithDecoded } from '../reports.js';
import { ReportAdmission } from './admission.js';
import { GapFiller } from './backfill.js';
import { OriginConnection, type ConnectionEvents, type LostReason } from './connection.js';
import { ReportDelivery } from './delivery.js';
import { ReportStreamAuthError, ReportStreamConnectionError, ReportStreamMessageError } from './errors.js';
import { feedIDsOption, resolveStreamOptions, type ReportStreamEvent, type ReportStreamOptions, type ResolvedStreamOptions } from './options.js';
import { discoverOrigins, staticOrigins, type StreamOrigin } from './origins.js';
import { StreamMetrics } from './metrics.js';
import { ReportQueue } from './queue.js';
import { StreamStatus, type ReportStreamStats } from './stats.js';
import { StreamVerification } from './verification.js';
import { ReportTrust } from './trust.js';
import { MESSAGE_TOO_BIG, resolveSocketFactory } from './websocket.js';
import { whereToStream, type SettleDestination } from './where-to-stream.js';

export type { ReportStreamStats } from './stats.js';

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
  const { defaultWsUrl, webSocket, now, settle } = whereToStream(settings, options ?? {});
  const resolved = resolveStreamOptions(options ?? {}, defaultWsUrl, ids.length);
  if (webSocket !== undefined) resolved.webSocket = webSocket;
  const authorize = settings.authorize;
  const userAgent = settings.userAgent ? `${SDK_USER_AGENT} ${settings.userAgent}` : SDK_USER_AGENT;
  const headersFor = (url: string): Record<string, string> => {
    const headers = new Headers({ 'User-Agent': userAgent });
    authorize(headers, 'GET', url, undefined);
    return Object.fromEntries(headers);
  };
  return new LiveReportStream<D extends true ? ReportWithDecoded : Report>(client, ids, resolved, headersFor, now, settle);
}

/**
 * The stream's life and its connections: it opens one connection per
 * origin, hands their messages to admission and delivery, starts a
 * backfill after any reconnect, and ends everything once.
 */
class LiveReportStream<R extends Report> implements ReportStream<R>, ConnectionEvents {
  private readonly queue: ReportQueue<R>;
  private readonly status: StreamStatus;
  private readonly admission: ReportAdmission<R>;
  private readonly delivery: ReportDelivery<R>;
  private readonly feedIDs: Map<string, string>;
  private readonly connections: OriginConnection[] = [];
  private readonly internal = new AbortController();
  private readonly gapFiller: GapFiller | undefined;
  /** Connections that opened at least once: their next open is a reconnect. */
  private readonly everOpened = new Set<OriginConnection>();
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
    /** Where the stream goes, settled before the first connection when the client's `fetch` may wrap a sandbox's. */
    private readonly settle?: SettleDestination,
  ) {
    this.feedIDs = new Map(ids.map((id) => [id.toLowerCase(), id]));
    this.status = new StreamStatus(options.onStatus, options.meter === undefined ? undefined : new StreamMetrics(options.meter));
    const trust = new ReportTrust(options.maxFutureMs, now);
    this.admission = new ReportAdmission<R>(ids, trust, options.decode, this.status);
    this.queue = new ReportQueue<R>(options.bufferSize, options.overflow, (error) => this.finish(error));
    const verification = options.verify === undefined ? undefined : new StreamVerification(options.verify, this.status, 4 * options.bufferSize);
    this.delivery = new ReportDelivery<R>(
      this.admission,
      this.queue,
      options,
      this.status,
      { isFilling: (key) => this.gapFiller?.isFilling(key) === true, fail: (error) => this.finish(error) },
      verification,
    );
    if (options.backfill !== undefined) {
      const stream = this;
      const { admission, delivery, status } = this;
      this.gapFiller = new GapFiller(
        {
          client,
          pageSize: options.backfill.pageSize,
          signal: this.internal.signal,
          lastDelivered: (key) => admission.lastDelivered(key),
          startSecond: () => Math.floor((stream.firstOpenAt ?? stream.now()) / 1000),
          latestSecond: () => trust.latestSecond(),
          liveEdge: (key) => delivery.liveEdge(key),
          deliverBackfilled: (key, report) => delivery.backfilled(key, report),
          skip: (error) => status.skip(error),
          release: (key) => delivery.release(key),
          emit: (event) => status.emit(event),
        },
        this.feedIDs,
      );
    }
  }

  get stats(): ReportStreamStats {
    return { ...this.status.counts, dropped: this.queue.dropped + this.delivery.dropped, buffered: this.queue.size };
  }

  [Symbol.asyncIterator](): ReportStream<R> {
    return this;
  }

  next(): Promise<IteratorResult<R, undefined>> {
    if (!this.started) this.start();
    const { metrics } = this.status;
    // Without a meter, no extra promise per report.
    if (metrics === undefined) return this.queue.next();
    return this.queue.next().then((result) => {
      if (result.done !== true) metrics.deliveredAt(result.value.observationsTimestamp, this.now());
      return result;
    });
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
    await this.settle?.(this.client, this.options, this.internal.signal);
    if (this.finished) return;
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
    this.status.counts.received++;
    const source = connection.origin.label;
    const received = this.admission.receive(text, source);
    if (received !== undefined) this.delivery.live(received.feed, received.report, source);
  }

  lost(connection: OriginConnection, reason: LostReason, code: number | undefined): void {
    this.openCount--;
    this.status.counts.connectionsLost++;
    if (code === MESSAGE_TOO_BIG) {
      const limit = this.options.maxMessageBytes;
      this.status.skip(new ReportStreamMessageError('too_large', connection.origin.label, `a message over maxMessageBytes (${limit}); the connection is reopened`));
    }
    this.emit({ type: 'origin-lost', origin: connection.origin.label, reason, ...(code === undefined ? {} : { code }) });
    if (this.openCount === 0) {
      this.uncovered = true;
      this.delivery.dropHeld();
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

  private emit(event: ReportStreamEvent): void {
    this.status.emit(event);
  }

  /** Stops everything once. `discard`: the consumer stopped, so waiting reports are dropped. */
  private finish(error: SdkError | undefined, discard = false): void {
    if (this.finished) return;
    this.finished = true;
    this.started = true;
    this.delivery.stop();
    this.internal.abort();
    for (const connection of this.connections) connection.close();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (discard) this.queue.clear();
    else this.queue.end(error);
    this.emit(error === undefined ? { type: 'closed' } : { type: 'closed', error });
  }
}

function asSdkError(error: unknown): SdkError {
  return error instanceof SdkError ? error : new SdkError(`the report stream failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}
