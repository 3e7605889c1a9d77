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
  /** False once the sandbox is closed. Optional: links of older copies of the package lack it. */
  isOpen?(): boolean;
}

/** The link a sandbox's `fetch` carries, or `undefined` for any other `fetch`. */
export function sandboxStreamLink(fetch: unknown): SandboxStreamLink | undefined {
  if (typeof fetch !== 'function') return undefined;
  const link = (fetch as { [SANDBOX_STREAM_LINK]?: unknown })[SANDBOX_STREAM_LINK];
  return typeof link === 'object' && link !== null ? (link as SandboxStreamLink) : undefined;
}

/**
 * A `fetch` that wraps `sandbox.fetch` (a counting or logging wrapper) does
 * not carry the link, so a stream on such a client asks: it sends a request
 * through the client's `fetch` carrying this header with a fresh token, and
 * a sandbox of this process that receives it names itself to the waiting
 * stream (`SandboxRegistry.probes`). The sandbox recognises its own
 * requests; its answers are left as they are.
 */
export const SANDBOX_PROBE_HEADER = 'x-service-sdk-sandbox-probe';

/** The sandboxes of this process, shared by every copy of the package (a registered symbol on `globalThis`). */
export interface SandboxRegistry {
  /** The links of the sandboxes made in this process; weak, so a sandbox dropped without `close()` is not kept. */
  readonly links: Set<WeakRef<SandboxStreamLink>>;
  /** Streams waiting to learn whether their probe (the header's token) reached a sandbox. */
  readonly probes: Map<string, (link: SandboxStreamLink) => void>;
}

const REGISTRY: unique symbol = Symbol.for('@ourteam/service-sdk/sandbox-registry') as never;

export function sandboxRegistry(): SandboxRegistry {
  const holder = globalThis as { [REGISTRY]?: SandboxRegistry };
  return (holder[REGISTRY] ??= { links: new Set(), probes: new Map() });
}

/** Whether a sandbox is open in this process: only then can a client's own `fetch` lead to one, so only then does a stream ask. */
export function anySandboxOpen(): boolean {
  const { links } = sandboxRegistry();
  let open = false;
  for (const ref of links) {
    const link = ref.deref();
    if (link === undefined || link.isOpen?.() === false) links.delete(ref);
    else open = true;
  }
  return open;
}
