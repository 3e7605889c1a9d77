/**
 * Helpers of the report stream tests: a local multi-origin report service
 * (report-server.ts), a consumer running in the background,
 * the checks every case makes (each published report exactly once, in order
 * per stream) and the leak check (no socket left on the server, no timer
 * left in this process).
 */
import { expect } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { startReportServer, type ReportServer, type ReportServerOptions } from './report-server.js';
import {
  createStreamsClient,
  streamReports,
  type Report,
  type ReportStream,
  type ReportStreamEvent,
  type ReportStreamOptions,
  type StreamsClient,
} from '../../src/streams/index.js';

/**
 * Reconnects within milliseconds. Liveness stays lenient (a busy machine can
 * stall this event loop for tens of ms, which must not look like a dead
 * peer); the cases about silence use QUICK_LIVENESS.
 */
export const FAST = {
  pingIntervalMs: 500,
  pongTimeoutMs: 2_000,
  connectTimeoutMs: 2_000,
  reconnect: { baseDelayMs: 10, maxDelayMs: 40 },
  // The local service publishes a second of reports per call, far faster than the clock: the cases
  // about reports from the future set their own limit.
  maxFutureMs: 30 * 86_400_000,
} satisfies ReportStreamOptions;

/** A silent connection is dropped within about 150 ms. */
export const QUICK_LIVENESS = { pingIntervalMs: 40, pongTimeoutMs: 80 } satisfies ReportStreamOptions;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `condition` holds; fails with `what` after `timeoutMs` (generous: the suite must hold on a loaded machine). */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Timers that keep this process alive (vitest's own are unref'd or not running between awaits). */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

export interface Harness {
  server: ReportServer;
  client: StreamsClient;
  close(): Promise<void>;
}

export async function startHarness(options: ReportServerOptions = {}): Promise<Harness> {
  const server = await startReportServer(options);
  const client = createStreamsClient({ ...server.credentials, baseUrl: server.url, retry: false });
  return { server, client, close: () => server.close() };
}

/** A stream on the harness with fast timings, recording its status events. */
export function openStream<D extends boolean = false>(harness: Harness, options: ReportStreamOptions & { decode?: D } = {}) {
  const events: ReportStreamEvent[] = [];
  const stream = streamReports<D>(harness.client, harness.server.feeds, {
    wsUrl: harness.server.wsUrl,
    ...FAST,
    ...options,
    onStatus: (event: ReportStreamEvent) => events.push(event),
  });
  return { stream, events };
}

/** Consumes a stream in the background into `received`; `done` settles when the loop ends (with its error, if any). */
export function consume<R>(stream: ReportStream<R>) {
  const received: R[] = [];
  const done = (async () => {
    for await (const report of stream) received.push(report);
  })();
  // Observed by the test through `done`; kept from counting as unhandled meanwhile.
  done.catch(() => undefined);
  return { received, done };
}

/** Publishes one report per stream every `everyMs` until stopped. */
export function publishEvery(server: ReportServer, everyMs: number) {
  const timer = setInterval(() => server.publish(), everyMs);
  return () => clearInterval(timer);
}

/** Each report of the server's history exactly once, and nothing else, in time order per stream. */
export function expectExactlyHistory(server: ReportServer, received: readonly Report[]): void {
  for (const feedID of server.feeds) {
    const got = received.filter((r) => r.feedID.toLowerCase() === feedID.toLowerCase()).map((r) => r.observationsTimestamp);
    const published = server.history(feedID).map((r) => r.observationsTimestamp);
    expect(published.length).toBeGreaterThan(0);
    expect(got, `reports of ${feedID.slice(0, 10)}…: each once, in order, none missing`).toEqual(published);
  }
  expect(received.length).toBe(server.feeds.reduce((sum, feedID) => sum + server.history(feedID).length, 0));
}

/** Every report seen, each with the fields the server published. */
export function expectSameAsPublished(server: ReportServer, received: readonly Report[]): void {
  const byKey = new Map(server.feeds.flatMap((f) => server.history(f)).map((r) => [`${r.feedID.toLowerCase()}@${r.observationsTimestamp}`, r]));
  for (const report of received) {
    const published = byKey.get(`${report.feedID.toLowerCase()}@${report.observationsTimestamp}`);
    expect(published, 'a report the server published').toBeDefined();
    expect(report.fullReport).toBe(published?.fullReport);
  }
}

/** Nothing of the stream is left: no connection on the server, no timer in this process beyond `timersBefore`. */
export async function expectNothingOpen(server: ReportServer, timersBefore: number): Promise<void> {
  await waitFor(() => server.connectionCount() === 0, 'the server to see every connection closed');
  await waitFor(() => activeTimers() <= timersBefore, `timers to be cleared (${activeTimers()} active, ${timersBefore} before)`);
  expect(server.connectionCount()).toBe(0);
  expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
}

/**
 * A WebSocket with only the standard browser-style API (EventTarget, no
 * `on`, no ping), as Deno's and undici's are, but able to send headers:
 * runs the stream's WHATWG adapter against the local server. Built on `ws`.
 */
export class StandardWebSocket extends EventTarget {
  binaryType = 'blob';
  readonly #socket: WsWebSocket;

  constructor(url: string, options: { headers: Record<string, string> }) {
    super();
    const socket = new WsWebSocket(url, { headers: options.headers });
    this.#socket = socket;
    const event = (type: string, fields: Record<string, unknown> = {}) => this.dispatchEvent(Object.assign(new Event(type), fields));
    socket.on('open', () => event('open'));
    socket.on('message', (data: Buffer) => event('message', { data: data.toString() }));
    socket.on('unexpected-response', (_request, response) => {
      // Worded as Deno words it.
      event('error', { message: `NetworkError: failed to connect to WebSocket: Invalid status code: ${response.statusCode}` });
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => event('error', { message: error.message }));
    socket.on('close', (code) => event('close', { code }));
  }

  close(code?: number): void {
    this.#socket.close(code);
  }
}
