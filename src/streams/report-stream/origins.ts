import { SdkError } from '../../core/errors.js';
import type { StreamsClient } from '../client.js';
import { ReportStreamAuthError } from './errors.js';

/** One place to connect to: a URL, and the origin named in `X-Cll-Origin` when the host has several. */
export interface StreamOrigin {
  /** How events name it: the origin identifier, or the host of a separate URL. */
  readonly label: string;
  /** The WebSocket host, without the path of the stream. */
  readonly wsUrl: string;
  readonly originId: string | undefined;
}

/** `{001,002}` (or `001,002`) to `['001', '002']`. */
export function parseOriginsHeader(value: string | null): string[] {
  if (value === null) return [];
  return value
    .trim()
    .replace(/^\{/, '')
    .replace(/\}$/, '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '' && !/[\r\n]/.test(origin));
}

/** The origins given by the caller: identifiers on `wsUrl`, or whole URLs of separate hosts. */
export function staticOrigins(wsUrl: string, origins: readonly string[]): StreamOrigin[] {
  return origins.map((origin) =>
    /^wss?:\/\//i.test(origin)
      ? { label: new URL(origin).host, wsUrl: origin, originId: undefined }
      : { label: origin, wsUrl, originId: origin },
  );
}

/** The WebSocket host's URL for plain requests (`HEAD /`): `wss:` becomes `https:`, `ws:` `http:`. */
export function httpUrlOf(wsUrl: string): string {
  return wsUrl.replace(/^ws/i, 'http');
}

export interface DiscoveredOrigins {
  origins: StreamOrigin[];
  /** False when `HEAD /` failed or listed nothing, so the stream falls back to one connection. */
  discovered: boolean;
  /** Origins listed beyond the `maxOrigins` the stream connects to. */
  ignored: number;
  error: SdkError | undefined;
}

export interface DiscoveryLimits {
  /** Time limit of the whole `HEAD /` call, retries included. */
  timeoutMs: number;
  /** Origins connected to at most: a host listing a thousand must not open a thousand sockets. */
  maxOrigins: number;
}

/**
 * Asks the WebSocket host which origins it has, with a signed `HEAD /`
 * through the client itself (its signer, retries, timeouts and `fetch`).
 * A `401`/`403` is a ReportStreamAuthError; any other failure falls back to
 * a single connection to the host (which then picks an origin), as losing
 * high availability is better than not streaming.
 */
export async function discoverOrigins(
  client: StreamsClient,
  wsUrl: string,
  signal: AbortSignal,
  limits: DiscoveryLimits,
): Promise<DiscoveredOrigins> {
  const single = { origins: [{ label: new URL(wsUrl).host, wsUrl, originId: undefined }], discovered: false, ignored: 0 };
  const httpUrl = httpUrlOf(wsUrl);
  let response: Response;
  try {
    // Its own time limit: a host that never answers must not hold the first report for the client's whole deadline.
    ({ response } = await client.HEAD('/', { baseUrl: httpUrl, signal, deadlineMs: limits.timeoutMs }));
  } catch (error) {
    if (signal.aborted) throw error;
    const failure = error instanceof SdkError ? error : new SdkError('HEAD / failed', { cause: error });
    return { ...single, error: failure };
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 401 || response.status === 403) throw new ReportStreamAuthError(response.status, undefined);
  if (!response.ok) {
    return { ...single, error: new SdkError(`HEAD / answered ${response.status}; connecting without an origin`) };
  }
  const ids = [...new Set(parseOriginsHeader(response.headers.get('x-cll-available-origins')))];
  if (ids.length === 0) return { ...single, error: undefined };
  const kept = ids.slice(0, limits.maxOrigins);
  return { origins: staticOrigins(wsUrl, kept), discovered: true, ignored: ids.length - kept.length, error: undefined };
}
