/**
 * A WebSocket for Cloudflare Workers (workerd). There `new WebSocket(url)`
 * takes no headers, but `fetch(url, { headers: { Upgrade: 'websocket', ... } })`
 * sends any headers and answers `101` with the socket as `response.webSocket`,
 * to be `accept()`ed. This wraps that in the small WHATWG-like surface the
 * stream's adapter uses (websocket.ts, `whatwgFactory`): `new (url, { headers })`,
 * `addEventListener` for open, message, error and close, and `close()`.
 *
 * workerd's sockets cannot ping, so the stream watches liveness by traffic
 * (as with Deno). A refused upgrade (any answer but a socket) is an `error`
 * event with the answer's `status`, then `close` with 1006: the adapter turns
 * 401 and 403 into ReportStreamAuthError, as for the other runtimes.
 */

/** The part of workerd's WebSocket this uses. */
interface WorkerSocket {
  accept(): void;
  addEventListener(type: string, listener: (event: any) => void): void;
  close(code?: number, reason?: string): void;
}

type Listener = (event: any) => void;

export class FetchUpgradeWebSocket {
  /** workerd hands binary messages over as ArrayBuffer; kept for the adapter, which sets it. */
  binaryType = 'arraybuffer';
  readonly #listeners = new Map<string, Listener[]>();
  readonly #abort = new AbortController();
  #socket: WorkerSocket | undefined;
  #closed = false;

  constructor(url: string, options: { headers: Record<string, string> }) {
    void this.#connect(url, options.headers);
  }

  addEventListener(type: string, listener: Listener): void {
    const listeners = this.#listeners.get(type);
    if (listeners === undefined) this.#listeners.set(type, [listener]);
    else listeners.push(listener);
  }

  /** Closes the socket (or abandons the upgrade under way); no event follows. */
  close(code = 1000): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    try {
      this.#socket?.close(code);
    } catch {
      // Already closing.
    }
  }

  #emit(type: string, event: object): void {
    if (this.#closed) return;
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }

  #fail(error: unknown, status: number | undefined): void {
    this.#emit('error', { error, message: error instanceof Error ? error.message : String(error), status });
    this.#emit('close', { code: 1006 });
    this.#closed = true;
  }

  async #connect(url: string, headers: Record<string, string>): Promise<void> {
    let response: Response & { webSocket?: WorkerSocket | null };
    try {
      // fetch speaks http(s); the upgrade header makes it a WebSocket handshake.
      response = await fetch(url.replace(/^ws(s?):/i, 'http$1:'), { headers: { ...headers, Upgrade: 'websocket' }, signal: this.#abort.signal });
    } catch (error) {
      this.#fail(error, undefined);
      return;
    }
    const socket = response.webSocket;
    if (socket == null) {
      await response.body?.cancel().catch(() => undefined);
      this.#fail(new Error(`the WebSocket upgrade was answered with ${response.status}`), response.status);
      return;
    }
    socket.accept();
    if (this.#closed) {
      // Closed while the upgrade was answered.
      socket.close(1000);
      return;
    }
    this.#socket = socket;
    socket.addEventListener('message', (event: { data: unknown }) => this.#emit('message', { data: event.data }));
    socket.addEventListener('error', (event: { error?: unknown; message?: string }) => this.#emit('error', { error: event.error, message: event.message }));
    socket.addEventListener('close', (event: { code: number }) => {
      this.#emit('close', { code: event.code });
      this.#closed = true;
      try {
        // Answers the peer's close frame where the compatibility date does not do it already.
        socket.close();
      } catch {
        // Already answered.
      }
    });
    this.#emit('open', {});
  }
}
