import { ConfigurationError } from '../../core/errors.js';
import type { StreamsClientSettings } from '../client-settings.js';
import { STREAMS_BASE_URLS, type StreamsClient, type StreamsNetwork } from '../client.js';
import { anySandboxOpen, sandboxStreamLink, type SandboxStreamLink } from './sandbox-link.js';
import { probeForSandbox } from './sandbox-probe.js';
import { STREAMS_WS_URLS, wsUrlOption, type ReportStreamOptions, type ResolvedStreamOptions } from './options.js';
import type { WebSocketConstructor } from './websocket.js';

/** True for a URL on this machine. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Settles where the stream goes before its first connection, once the
 * client's `fetch` has been asked (see `SandboxBehindFetch`): it may set
 * `options.webSocket`, or throw a ConfigurationError.
 */
export type SettleDestination = (client: StreamsClient, options: ResolvedStreamOptions, signal: AbortSignal) => Promise<void>;

export interface StreamDestination {
  defaultWsUrl: string;
  webSocket: WebSocketConstructor | undefined;
  /** The clock reports are dated by, in Unix ms: this machine's, or a sandbox's. */
  now: () => number;
  /** Present when the client's `fetch` may wrap a sandbox's; the stream awaits it before connecting. */
  settle?: SettleDestination;
}

/** The two combinations a sandbox behind the client's `fetch` cannot serve, in the same words wherever they are found. */
const refuse = {
  webSocket: (fetchIs: string) =>
    new ConfigurationError(
      'webSocket',
      `this client's fetch ${fetchIs}: leave webSocket and wsUrl unset to stream from the sandbox in process, or give wsUrl of sandbox.listen()`,
    ),
  wsUrl: (fetchIs: string) =>
    new ConfigurationError(
      'wsUrl',
      `this client's fetch ${fetchIs}, so the stream must come from the sandbox too: give the ws:// URL of sandbox.listen(), or no wsUrl`,
    ),
};

/**
 * Where a client's stream goes when the options do not say. The REST backfill
 * goes where the client's requests go, so the live host must be that same
 * service:
 * - a client on a sandbox's `fetch` streams from that sandbox, in process (or
 *   from its listener, given its `wsUrl`), and never from another host;
 * - a client whose `fetch` wraps a sandbox's does the same once a probe
 *   through it found the sandbox (see `SandboxBehindFetch`);
 * - a client with a `baseUrl` of its own (a proxy, a local service) needs
 *   the `wsUrl` that goes with it: guessing the public host would stream
 *   from one service and backfill from another;
 * - otherwise, the WebSocket host of the client's deployment.
 */
export function whereToStream(settings: StreamsClientSettings, options: ReportStreamOptions): StreamDestination {
  const link = sandboxStreamLink(settings.fetch);
  if (link !== undefined) {
    const defaultWsUrl = STREAMS_WS_URLS[settings.network];
    const fetchIs = "is a sandbox's";
    if (options.wsUrl === undefined) {
      if (options.webSocket !== undefined) throw refuse.webSocket(fetchIs);
      return { defaultWsUrl, webSocket: link.webSocket, now: () => link.now() };
    }
    if (!isLoopback(wsUrlOption(options.wsUrl))) throw refuse.wsUrl(fetchIs);
    return { defaultWsUrl, webSocket: undefined, now: () => link.now() };
  }
  const base = settings.baseUrl?.replace(/\/+$/, '');
  const network = base === undefined ? settings.network : (Object.keys(STREAMS_BASE_URLS) as StreamsNetwork[]).find((n) => STREAMS_BASE_URLS[n] === base);
  if (network === undefined && options.wsUrl === undefined) {
    throw new ConfigurationError(
      'wsUrl',
      `the client's baseUrl is ${base}, not a deployment's: give the WebSocket host of that service as wsUrl (without it the stream would connect to ${STREAMS_WS_URLS[settings.network]})`,
    );
  }
  const behind = new SandboxBehindFetch(options.wsUrl !== undefined);
  return { defaultWsUrl: STREAMS_WS_URLS[network ?? settings.network], webSocket: undefined, now: behind.now, settle: behind.settle };
}

/**
 * A client whose `fetch` is not a sandbox's may still lead to one: a
 * wrapper of `sandbox.fetch` (counting requests, logging) carries no link.
 * While a sandbox is open in this process (and only then: a production
 * process sends nothing more), the stream first sends a probe through the
 * client's `fetch` (sandbox-probe.ts), then:
 * - the probe reached a sandbox: the stream comes from it, as on
 *   `fetch: sandbox.fetch` (in process, or from a loopback `wsUrl`, on the
 *   sandbox's clock); a `webSocket` without a URL, or a `wsUrl` off the
 *   machine, is the same ConfigurationError as there;
 * - something else answered: the `fetch` leads elsewhere; nothing changes;
 * - it failed and no sandbox saw it: where the `fetch` leads cannot be
 *   told. With no `wsUrl` given the stream would pick the public host while
 *   the REST calls may reach the sandbox, so it refuses at once, naming
 *   `wsUrl`; never a connection off the machine on a guess.
 */
class SandboxBehindFetch {
  private link: SandboxStreamLink | undefined;

  constructor(private readonly wsUrlGiven: boolean) {}

  readonly now = (): number => (this.link === undefined ? Date.now() : this.link.now());

  readonly settle: SettleDestination = async (client, options, signal) => {
    if (!anySandboxOpen()) return;
    const found = await probeForSandbox(client, options.wsUrl, signal, options.discoveryTimeoutMs);
    const onMachine = isLoopback(options.wsUrl);
    if (found.kind === 'sandbox') {
      const fetchIs = 'leads to a sandbox (it wraps sandbox.fetch)';
      if (!this.wsUrlGiven && options.webSocket !== undefined) throw refuse.webSocket(fetchIs);
      if (!onMachine) {
        if (this.wsUrlGiven) throw refuse.wsUrl(fetchIs);
        options.webSocket = found.link.webSocket;
      }
      this.link = found.link;
      return;
    }
    if (found.kind === 'unknown' && !this.wsUrlGiven && !onMachine) {
      const why = found.error instanceof Error ? found.error.message : String(found.error);
      throw new ConfigurationError(
        'wsUrl',
        `a sandbox is open in this process, and whether this client's fetch leads to it cannot be told (HEAD / through it failed: ${why}): ` +
          `give wsUrl, the ws:// URL of sandbox.listen() to stream from the sandbox, or ${options.wsUrl} to stream from the service; ` +
          'or pass sandbox.fetch itself as fetch',
      );
    }
  };
}
