/**
 * The sandbox's `fetch`, linked to its live feed, so a report stream on a
 * client whose `fetch` is this one, or wraps it, streams from this sandbox
 * in process:
 * - the function carries the link itself (`SANDBOX_STREAM_LINK`), which a
 *   stream on `fetch: sandbox.fetch` reads at once;
 * - the link is listed in the process's sandbox registry, and a request that
 *   carries a stream's probe token (`SANDBOX_PROBE_HEADER`) hands the link to
 *   that stream, so a wrapper that passes requests on (a counting or logging
 *   `fetch`) leads the stream here too, with no option to give.
 */
import {
  SANDBOX_PROBE_HEADER,
  SANDBOX_STREAM_LINK,
  sandboxRegistry,
  type SandboxStreamLink,
} from '../../streams/report-stream/sandbox-link.js';
import { inProcessWebSocket } from './in-process-socket.js';
import type { LiveFeed } from './live-feed.js';

export type SandboxFetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** `sandbox.fetch`: each request built, recognised if it is a stream's probe, and handed to `dispatch`. */
export function linkedSandboxFetch(feed: LiveFeed, now: () => number, dispatch: (request: Request) => Promise<Response>): SandboxFetch {
  const link: SandboxStreamLink = { webSocket: inProcessWebSocket(feed), now, isOpen: () => !feed.closed };
  const registry = sandboxRegistry();
  registry.links.add(new WeakRef(link));
  const sandboxFetch: SandboxFetch = (input, init) => {
    const request = new Request(input, init);
    const token = request.headers.get(SANDBOX_PROBE_HEADER);
    if (token !== null) registry.probes.get(token)?.(link);
    return dispatch(request);
  };
  Object.defineProperty(sandboxFetch, SANDBOX_STREAM_LINK, { value: link });
  return sandboxFetch;
}
