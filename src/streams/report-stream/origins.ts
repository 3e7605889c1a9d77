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

export interface DiscoveredOrigins {
  origins: StreamOrigin[];
  /** False when `HEAD /` failed or listed nothing, so the stream falls back to one connection. */
  discovered: boolean;
  error: SdkError | undefined;
}

/**
 * Asks the WebSocket host which origins it has, with a signed `HEAD /`
 * through the client itself (its signer, retries, timeouts and `fetch`).
 * A `401`/`403` is a ReportStreamAuthError; any other failure falls back to
 * a single connection to the host (which then picks an origin), as losing
 * high availability is better than not streaming.
 */
export async function discoverOrigins(client: StreamsClient, wsUrl: string, signal: AbortSignal): Promise<DiscoveredOrigins> {
  const single = [{ label: new URL(wsUrl).host, wsUrl, originId: undefined }];
  const httpUrl = wsUrl.replace(/^ws/i, 'http');
  let response: Response;
  try {
    ({ response } = await client.HEAD('/', { baseUrl: httpUrl, signal }));
  } catch (error) {
    if (signal.aborted) throw error;
    const failure = error instanceof SdkError ? error : new SdkError('HEAD / failed', { cause: error });
    return { origins: single, discovered: false, error: failure };
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 401 || response.status === 403) throw new ReportStreamAuthError(response.status, undefined);
  if (!response.ok) {
    return { origins: single, discovered: false, error: new SdkError(`HEAD / answered ${response.status}; connecting without an origin`) };
  }
  const ids = parseOriginsHeader(response.headers.get('x-cll-available-origins'));
  if (ids.length === 0) return { origins: single, discovered: false, error: undefined };
  return { origins: staticOrigins(wsUrl, ids), discovered: true, error: undefined };
}
