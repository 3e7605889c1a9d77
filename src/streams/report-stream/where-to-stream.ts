import { ConfigurationError } from '../../core/errors.js';
import type { StreamsClientSettings } from '../client-settings.js';
import { STREAMS_BASE_URLS, type StreamsNetwork } from '../client.js';
import { sandboxStreamLink } from './sandbox-link.js';
import { STREAMS_WS_URLS, wsUrlOption, type ReportStreamOptions } from './options.js';

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
export function whereToStream(settings: StreamsClientSettings, options: ReportStreamOptions) {
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
