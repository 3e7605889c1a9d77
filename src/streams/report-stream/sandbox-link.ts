import type { WebSocketConstructor } from './websocket.js';

/**
 * What a sandbox's `fetch` carries, so that a report stream on a client made
 * with `fetch: sandbox.fetch` streams from that sandbox, in process, with no
 * URL to give and nothing leaving the machine. Without it, such a stream
 * would connect to the public WebSocket host, signed with the sandbox's
 * made-up key. A registered symbol: the streams entry does not import the
 * sandbox, and two copies of the package still agree on it.
 */
export const SANDBOX_STREAM_LINK: unique symbol = Symbol.for('@ourteam/service-sdk/sandbox-stream-link') as never;

export interface SandboxStreamLink {
  /** A WebSocket that connects to the sandbox's live feed in process (any `wss://…/api/v1/ws` URL). */
  readonly webSocket: WebSocketConstructor;
  /** The sandbox's clock, in Unix ms: reports are dated by it, so it says what is "the future". */
  now(): number;
}

/** The link a sandbox's `fetch` carries, or `undefined` for any other `fetch`. */
export function sandboxStreamLink(fetch: unknown): SandboxStreamLink | undefined {
  if (typeof fetch !== 'function') return undefined;
  const link = (fetch as { [SANDBOX_STREAM_LINK]?: unknown })[SANDBOX_STREAM_LINK];
  return typeof link === 'object' && link !== null ? (link as SandboxStreamLink) : undefined;
}
