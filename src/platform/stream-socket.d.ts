// The WebSocket this runtime offers the report stream, one plain-JavaScript
// module per runtime, chosen by the package's `#stream-socket` import
// conditions (package.json): see the files beside this one.

/** What the report stream can open here. */
export type RuntimeSocket =
  /** The `ws` package's WebSocket class (Node): headers, pings, the status of a refused upgrade. */
  | { kind: 'ws'; WebSocket: unknown }
  /** A global WebSocket whose constructor takes `{ headers }` (Bun, Deno). */
  | { kind: 'headers'; WebSocket: unknown }
  /** `fetch` with `Upgrade: websocket` and the request's headers, answered with `response.webSocket` (workerd). */
  | { kind: 'fetch-upgrade' }
  /** Nothing that can send the signed headers: why, for ReportStreamUnsupportedError. */
  | { kind: 'unsupported'; reason: string; cause?: unknown };

export declare function runtimeSocket(): Promise<RuntimeSocket>;
