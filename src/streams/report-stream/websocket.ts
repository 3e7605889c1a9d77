import { runtimeSocket, type RuntimeSocket } from '#stream-socket';
import { ReportStreamUnsupportedError } from './errors.js';
import { FetchUpgradeWebSocket } from './fetch-upgrade-socket.js';

/**
 * The WebSocket layer, behind one small interface so the stream does not care
 * which implementation runs:
 *
 * - Node: the `ws` package. Node 20 has no WebSocket without a flag, and
 *   undici's (Node 22's global) takes `headers` too but cannot send pings, so
 *   a dead peer is only noticed by silence; `ws` sends pings, reports the
 *   status of a refused upgrade, and is the de-facto standard (it is also
 *   what the vendor's SDK uses). Measured raw by the SDK's stream benchmark,
 *   `ws` took 1.1–1.2× the reports/s of undici's.
 * - Bun 1.4 and Deno 2.9: their built-in WebSocket takes
 *   `new WebSocket(url, { headers })` and sends those headers (checked:
 *   streamReports run in Bun 1.4.5 and Deno 2.9.5 against the local service
 *   of the SDK's tests, two origins, decoding, and a refused
 *   upgrade read as 401). Bun's can also ping (`ping()` and a `pong` event);
 *   Deno's cannot, so there liveness is watched through traffic.
 * - Cloudflare Workers (workerd): `fetch` with `Upgrade: websocket` carries
 *   the headers (fetch-upgrade-socket.ts); no pings there either.
 * - Browsers, web workers and Vercel's Edge Runtime: no WebSocket there can
 *   send headers, and the service requires the signed ones, so the stream
 *   fails with ReportStreamUnsupportedError, saying why.
 *
 * Which one runs is chosen when the package is resolved, not at run time:
 * `#stream-socket` (package.json `imports`) maps each runtime's condition
 * (bun, deno, workerd, edge-light, worker, browser, node) to a small module
 * in src/platform/, so no build holds an `import()` of a variable (which
 * miniflare refuses) and only Node builds see the `ws` package.
 */

/** A constructor called as `new WebSocket(url, { headers })`. */
export type WebSocketConstructor = new (url: string, options: { headers: Record<string, string> }) => unknown;

/** The end of a socket, reported once. */
export interface SocketEnd {
  /** The close code (1006 when the connection just dropped). */
  code: number;
  /** The HTTP status of a refused upgrade, when the implementation tells it. */
  refusedStatus: number | undefined;
  error: unknown;
}

export interface SocketHandlers {
  open(): void;
  message(text: string): void;
  pong(): void;
  end(end: SocketEnd): void;
}

/** What the stream needs of one WebSocket. */
export interface StreamSocket {
  /** True when this socket can send pings (and reports pongs). */
  readonly canPing: boolean;
  ping(): void;
  /** Closes the socket at once; no handler is called afterwards. */
  dispose(): void;
}

/** What one socket may take. */
export interface SocketLimits {
  /** A larger message ends the socket with code 1009 (MESSAGE_TOO_BIG) instead of being read whole. */
  maxMessageBytes: number;
}

/** The close code of a socket ended for a message over `maxMessageBytes`. */
export const MESSAGE_TOO_BIG = 1009;

export type SocketFactory = (url: string, headers: Record<string, string>, handlers: SocketHandlers, limits: SocketLimits) => StreamSocket;

const decoder = new TextDecoder();

function textOf(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return decoder.decode(data);
  if (ArrayBuffer.isView(data)) return decoder.decode(data);
  if (Array.isArray(data)) return data.map(textOf).join('');
  return String(data);
}

function isNodeBuffer(data: unknown): data is { toString(): string } {
  return ArrayBuffer.isView(data) && typeof (data as { utf8Slice?: unknown }).utf8Slice === 'function';
}

/** The subset of the `ws` package's WebSocket the adapter uses. */
interface WsLike {
  on(event: string, listener: (...args: any[]) => void): unknown;
  removeAllListeners(): unknown;
  ping(): void;
  terminate(): void;
  readonly readyState: number;
}

/** The `ws` package (or anything with its EventEmitter API). */
function wsFactory(WebSocket: WebSocketConstructor): SocketFactory {
  return (url, headers, handlers, limits) => {
    // `maxPayload` makes ws refuse a frame from its length header, before reading it (its default is 100 MiB).
    const options = { headers, maxPayload: limits.maxMessageBytes };
    const socket = new (WebSocket as unknown as new (url: string, options: object) => WsLike)(url, options);
    let disposed = false;
    let refusedStatus: number | undefined;
    let tooBig = false;
    let lastError: unknown;
    socket.on('open', () => disposed || handlers.open());
    // A Buffer (ws's default binaryType); its toString() is Node's fast UTF-8 path.
    socket.on('message', (data: unknown) => disposed || handlers.message(isNodeBuffer(data) ? data.toString() : textOf(data)));
    socket.on('pong', () => disposed || handlers.pong());
    // With this listener ws leaves the refused request to us: note the status and abort it.
    socket.on('unexpected-response', (_request: unknown, response: { statusCode?: number; resume?: () => void }) => {
      refusedStatus = response.statusCode;
      response.resume?.();
      socket.terminate();
    });
    socket.on('error', (error: unknown) => {
      lastError = error;
      if ((error as { code?: unknown } | null)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        // ws would wait up to 30 s for the peer's close frame; a peer that sent this may never send one.
        tooBig = true;
        socket.terminate();
      }
    });
    socket.on('close', (code: number) => {
      if (disposed) return;
      disposed = true;
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      handlers.end({ code: tooBig ? MESSAGE_TOO_BIG : code, refusedStatus, error: lastError });
    });
    return {
      canPing: true,
      ping: () => {
        if (socket.readyState === 1) socket.ping();
      },
      dispose: () => {
        if (disposed) return;
        disposed = true;
        socket.removeAllListeners();
        // terminate() may still emit an error on a socket that was connecting.
        socket.on('error', () => undefined);
        socket.terminate();
      },
    };
  };
}

/** The subset of a WHATWG WebSocket the adapter uses (Bun, Deno, undici). */
interface WhatwgLike {
  binaryType: string;
  addEventListener(type: string, listener: (event: any) => void): void;
  close(code?: number): void;
  ping?: () => void;
  terminate?: () => void;
}

/** A refused upgrade, as the runtimes word it: Bun "Expected 101 status code: 401", Deno "Invalid status code: 401". */
const STATUS_IN_MESSAGE = /status code:? (\d{3})\b/i;

function whatwgFactory(WebSocket: WebSocketConstructor): SocketFactory {
  return (url, headers, handlers, limits) => {
    const socket = new WebSocket(url, { headers }) as WhatwgLike;
    socket.binaryType = 'arraybuffer';
    let disposed = false;
    let refusedStatus: number | undefined;
    let lastError: unknown;
    const canPing = typeof socket.ping === 'function';
    const dispose = () => {
      if (disposed) return;
      disposed = true;
      try {
        if (typeof socket.terminate === 'function') socket.terminate();
        else socket.close(1000);
      } catch {
        // Already closing.
      }
    };
    socket.addEventListener('open', () => disposed || handlers.open());
    socket.addEventListener('message', (event: { data: unknown }) => {
      if (disposed) return;
      // These WebSockets take no size limit: the message is already in memory, but it is not parsed, and the connection ends.
      if (sizeOf(event.data) > limits.maxMessageBytes) {
        dispose();
        handlers.end({ code: MESSAGE_TOO_BIG, refusedStatus: undefined, error: undefined });
        return;
      }
      handlers.message(textOf(event.data));
    });
    if (canPing) socket.addEventListener('pong', () => disposed || handlers.pong());
    socket.addEventListener('error', (event: { message?: string; error?: unknown; status?: number }) => {
      lastError = event.error ?? event.message;
      // FetchUpgradeWebSocket and the sandbox's in-process socket tell the status; Bun and Deno word it in the message.
      const status = event.status ?? STATUS_IN_MESSAGE.exec(String(event.message ?? ''))?.[1];
      if (status !== undefined) refusedStatus = Number(status);
    });
    socket.addEventListener('close', (event: { code: number }) => {
      if (disposed) return;
      disposed = true;
      handlers.end({ code: event.code, refusedStatus, error: lastError });
    });
    return {
      canPing,
      ping: () => {
        try {
          socket.ping?.();
        } catch {
          // Not open (any more): the close event follows.
        }
      },
      dispose,
    };
  };
}

/** A message's size in bytes: exact for binary data and for ASCII text (what reports are); for other text, its length in UTF-16 units (no encoding pass). */
function sizeOf(data: unknown): number {
  if (typeof data === 'string') return data.length;
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}

/** True for the `ws` package's class (EventEmitter API), false for WHATWG ones. */
function isWsPackage(WebSocket: WebSocketConstructor): boolean {
  const proto = (WebSocket as { prototype?: Record<string, unknown> }).prototype;
  return typeof proto?.on === 'function' && typeof proto.terminate === 'function';
}

export function socketFactoryFor(WebSocket: WebSocketConstructor): SocketFactory {
  return isWsPackage(WebSocket) ? wsFactory(WebSocket) : whatwgFactory(WebSocket);
}

/**
 * The socket factory of this runtime (`runtime` is the `#stream-socket`
 * module its conditions chose); throws ReportStreamUnsupportedError, with the
 * runtime's reason, where no WebSocket can send headers.
 */
export async function resolveSocketFactory(
  injected: WebSocketConstructor | undefined,
  runtime: () => Promise<RuntimeSocket> = runtimeSocket,
): Promise<SocketFactory> {
  if (injected !== undefined) return socketFactoryFor(injected);
  const found = await runtime();
  switch (found.kind) {
    case 'ws':
      return wsFactory(found.WebSocket as WebSocketConstructor);
    case 'headers':
      return whatwgFactory(found.WebSocket as WebSocketConstructor);
    case 'fetch-upgrade':
      return whatwgFactory(FetchUpgradeWebSocket);
    case 'unsupported':
      throw new ReportStreamUnsupportedError(found.reason, found.cause === undefined ? undefined : { cause: found.cause });
  }
}
