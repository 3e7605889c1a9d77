// Types of user-script.mjs, for the tests that import it from TypeScript.

/** The listening sandbox a runtime that can stream reports live streams from. */
export interface LiveStreamTarget {
  /** The streams REST base URL (`HEAD /` lists the origins, backfill reads from it). */
  streamsUrl: string;
  /** The WebSocket host, `ws://127.0.0.1:<port>`. */
  wsUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The stream to follow. */
  feedID: string;
}

/**
 * Runs the user's checks against the local server at `origin`; every value is
 * JSON. With `live`, streams reports from it; without, expects the stream's
 * typed error (the runtime's WebSocket cannot send headers).
 */
export declare function runChecks(origin: string, live?: LiveStreamTarget): Promise<Record<string, unknown>>;
