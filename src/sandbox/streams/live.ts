/**
 * The live-stream operations, as plain HTTP requests. `GET /api/v1/ws` is a
 * WebSocket upgrade; answered here, through `fetch` or a listener request
 * without an upgrade, it is refused with the spec's `400` once its stream IDs
 * are checked (the socket itself is served by the WebSocket server, not by
 * this table). `HEAD /` names the origins that server runs.
 */
import { SandboxHttpError, type OperationHandler } from '../types.js';
import type { StreamOrigins } from './origins.js';
import { requireStream } from './handlers.js';
import { feedIdsArgument } from './query.js';

/** The origins of the sandbox's WebSocket host, as `HEAD /` lists them and `X-Cll-Origin` names them. */
export const SANDBOX_STREAM_ORIGINS: readonly string[] = Object.freeze(['001', '002']);

export type LiveOperation = 'streamReports' | 'getStreamOrigins';

export function createLiveHandlers(origins: StreamOrigins): Record<LiveOperation, OperationHandler> {
  return {
    streamReports({ query }) {
      feedIdsArgument(query, 'feedIDs').forEach((feedID) => requireStream(feedID));
      throw new SandboxHttpError(
        400,
        'BAD_REQUEST',
        'GET /api/v1/ws opens a WebSocket: send it as an upgrade (Connection: Upgrade, Upgrade: websocket) to the WebSocket server',
        'WEBSOCKET_UPGRADE_REQUIRED',
      );
    },

    getStreamOrigins() {
      return { status: 200, headers: { 'X-Cll-Available-Origins': `{${origins.up().join(',')}}` } };
    },
  };
}
