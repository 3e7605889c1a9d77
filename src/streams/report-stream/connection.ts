import type { StreamOrigin } from './origins.js';
import type { SocketEnd, SocketFactory, SocketLimits, StreamSocket } from './websocket.js';

export interface ConnectionTiming {
  pingIntervalMs: number;
  pongTimeoutMs: number;
  connectTimeoutMs: number;
  reconnect: { baseDelayMs: number; maxDelayMs: number; maxAttempts: number; stableAfterMs: number };
}

export type LostReason = 'closed' | 'pong-timeout' | 'silent';

/** What a connection tells the stream. */
export interface ConnectionEvents {
  opened(connection: OriginConnection): void;
  message(connection: OriginConnection, text: string): void;
  /** An open connection closed; a reconnect is scheduled unless the stream is closing. */
  lost(connection: OriginConnection, reason: LostReason, code: number | undefined): void;
  reconnecting(connection: OriginConnection, attempt: number, delayMs: number): void;
  /** The upgrade was refused with 401 or 403: not retried. */
  refused(connection: OriginConnection, status: 401 | 403): void;
  /** `maxAttempts` attempts in a row failed; this origin is given up. */
  gaveUp(connection: OriginConnection, lastError: unknown): void;
}

export interface ConnectionSetup {
  origin: StreamOrigin;
  /** The stream's path and query, e.g. `/api/v1/ws?feedIDs=…`. */
  pathAndQuery: string;
  /** Headers of one attempt, signed afresh (new timestamp) each time. */
  headersFor(url: string): Record<string, string>;
  factory: SocketFactory;
  limits: SocketLimits;
  timing: ConnectionTiming;
  random: () => number;
}

/**
 * One origin's connection, kept open for as long as the stream runs: it
 * reconnects with full-jitter backoff (a random delay below a cap that
 * doubles from `baseDelayMs` to `maxDelayMs`, so many clients dropped at once
 * do not come back at once), and pings every `pingIntervalMs`, dropping a
 * connection whose pong is `pongTimeoutMs` late (a dead peer or a broken
 * path sends no close). Every timer it starts is cleared by `close()`.
 *
 * The back-off starts again from the bottom only after a connection stayed
 * open for `stableAfterMs`: a host that accepts and closes at once is
 * retried ever more slowly, and counts towards `maxAttempts`, instead of
 * being reconnected to (and backfilled from) every second forever.
 */
export class OriginConnection {
  readonly origin: StreamOrigin;
  private readonly setup: ConnectionSetup;
  private readonly events: ConnectionEvents;
  private socket: StreamSocket | undefined;
  private isOpen = false;
  private closed = false;
  private failures = 0;
  private openedAt = 0;
  private lastTraffic = 0;
  private lostReason: LostReason = 'closed';
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(setup: ConnectionSetup, events: ConnectionEvents) {
    this.origin = setup.origin;
    this.setup = setup;
    this.events = events;
  }

  get open(): boolean {
    return this.isOpen;
  }

  start(): void {
    if (this.closed || this.socket !== undefined) return;
    const url = new URL(this.setup.pathAndQuery, `${this.origin.wsUrl}/`).href;
    const headers = this.setup.headersFor(url);
    if (this.origin.originId !== undefined) headers['X-Cll-Origin'] = this.origin.originId;
    this.lostReason = 'closed';
    try {
      const handlers = {
        open: () => this.onOpen(),
        message: (text: string) => {
          this.lastTraffic = Date.now();
          this.events.message(this, text);
        },
        pong: () => this.onPong(),
        end: (end: SocketEnd) => this.onEnd(end),
      };
      this.socket = this.setup.factory(url, headers, handlers, this.setup.limits);
    } catch (error) {
      // A constructor that throws (a bad URL for this runtime): count it as a failed attempt.
      this.onEnd({ code: 1006, refusedStatus: undefined, error });
      return;
    }
    this.connectTimer = setTimeout(() => {
      this.connectTimer = undefined;
      this.dropSocket();
      this.onEnd({ code: 1006, refusedStatus: undefined, error: new Error(`no answer within ${this.setup.timing.connectTimeoutMs} ms`) });
    }, this.setup.timing.connectTimeoutMs);
  }

  /** Closes the socket and clears every timer. No event is sent afterwards. */
  close(): void {
    this.closed = true;
    this.clearTimers();
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.dropSocket();
    this.isOpen = false;
  }

  private onOpen(): void {
    clearTimeout(this.connectTimer);
    this.connectTimer = undefined;
    this.isOpen = true;
    this.openedAt = Date.now();
    this.lastTraffic = this.openedAt;
    this.pingTimer = setInterval(() => this.checkLiveness(), this.setup.timing.pingIntervalMs);
    this.events.opened(this);
  }

  private checkLiveness(): void {
    const socket = this.socket;
    if (socket === undefined) return;
    const { pingIntervalMs, pongTimeoutMs } = this.setup.timing;
    if (socket.canPing) {
      if (this.pongTimer !== undefined) return; // a ping is still waiting for its pong
      socket.ping();
      this.pongTimer = setTimeout(() => this.drop('pong-timeout'), pongTimeoutMs);
    } else if (Date.now() - this.lastTraffic > pingIntervalMs + pongTimeoutMs) {
      // No ping in this implementation: a connection with no traffic for that long is taken as dead.
      this.drop('silent');
    }
  }

  private onPong(): void {
    this.lastTraffic = Date.now();
    clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
  }

  private drop(reason: LostReason): void {
    this.pongTimer = undefined;
    this.lostReason = reason;
    this.dropSocket();
    this.onEnd({ code: 1006, refusedStatus: undefined, error: undefined });
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.dispose();
  }

  private clearTimers(): void {
    clearTimeout(this.connectTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.connectTimer = undefined;
    this.pingTimer = undefined;
    this.pongTimer = undefined;
  }

  private onEnd(end: SocketEnd): void {
    this.socket = undefined;
    this.clearTimers();
    if (this.closed) return;
    const wasOpen = this.isOpen;
    this.isOpen = false;
    if (wasOpen) this.events.lost(this, this.lostReason, this.lostReason === 'closed' ? end.code : undefined);
    if (end.refusedStatus === 401 || end.refusedStatus === 403) {
      this.closed = true;
      this.events.refused(this, end.refusedStatus);
      return;
    }
    const { baseDelayMs, maxDelayMs, maxAttempts, stableAfterMs } = this.setup.timing.reconnect;
    if (wasOpen && Date.now() - this.openedAt >= stableAfterMs) this.failures = 0;
    else this.failures++;
    if (this.failures >= maxAttempts) {
      this.closed = true;
      this.events.gaveUp(this, end.error);
      return;
    }
    const attempt = this.failures + 1;
    // A stable connection's loss is retried within `baseDelayMs`; each failure in a row doubles the cap.
    const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(this.failures, 30));
    const delayMs = Math.floor(this.setup.random() * cap);
    this.events.reconnecting(this, attempt, delayMs);
    if (this.closed) return; // the listener closed the stream
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.start();
    }, delayMs);
  }
}
