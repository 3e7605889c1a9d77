/**
 * A WebSocket to the sandbox's live feed that never leaves the process: what
 * `streamReports` uses, with no URL given, on a client whose `fetch` is the
 * sandbox's (see SANDBOX_STREAM_LINK). It has the standard browser-style
 * surface the stream's WHATWG adapter drives (`addEventListener`, `close`),
 * takes `{ headers }` like Bun's and Deno's, and is admitted exactly as the
 * listener's WebSocket server admits an upgrade (signature, stream IDs,
 * origin): a refusal is an `error` with its `status`, then a `close`.
 * Events are dispatched on later turns, as a network socket's would be.
 */
import type { LiveFeed } from './live-feed.js';

type Listener = (event: Record<string, unknown>) => void;

export function inProcessWebSocket(feed: LiveFeed) {
  return class SandboxWebSocket {
    binaryType = 'blob';
    readonly url: string;
    readonly #listeners = new Map<string, Set<Listener>>();
    #stop: (() => void) | undefined;
    #ended = false;

    constructor(url: string, options?: { headers?: Record<string, string> }) {
      this.url = url;
      const { pathname, search } = new URL(url);
      void feed.admit(`${pathname}${search}`, new Headers(options?.headers)).then((admission) => {
        if (this.#ended) return;
        if (!admission.ok) {
          // The status as a field, which the stream's adapter reads before any runtime's wording.
          const { status } = admission.refusal;
          this.#emit('error', { status, message: `the WebSocket upgrade was answered with ${status}` });
          this.#end(1006);
          return;
        }
        const subscriber = { send: (text: string) => this.#later('message', { data: text }), terminate: () => this.#end(1006) };
        this.#stop = feed.subscribe(subscriber, admission.origin, admission.streams);
        this.#emit('open', {});
      }, (error: unknown) => {
        // The sandbox was closed meanwhile (its dispatcher refuses every request).
        if (this.#ended) return;
        this.#emit('error', { message: error instanceof Error ? error.message : String(error), error });
        this.#end(1006);
      });
    }

    addEventListener(type: string, listener: Listener): void {
      let set = this.#listeners.get(type);
      if (set === undefined) this.#listeners.set(type, (set = new Set()));
      set.add(listener);
    }

    removeEventListener(type: string, listener: Listener): void {
      this.#listeners.get(type)?.delete(listener);
    }

    close(code = 1000): void {
      this.#end(code);
    }

    #emit(type: string, fields: Record<string, unknown>): void {
      for (const listener of this.#listeners.get(type) ?? []) listener({ type, ...fields });
    }

    #later(type: string, fields: Record<string, unknown>): void {
      setTimeout(() => {
        if (!this.#ended) this.#emit(type, fields);
      }, 0);
    }

    #end(code: number): void {
      if (this.#ended) return;
      this.#ended = true;
      this.#stop?.();
      this.#stop = undefined;
      setTimeout(() => this.#emit('close', { code }), 0);
    }
  };
}
