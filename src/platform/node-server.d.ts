// What the sandbox's listener needs of Node (node:http, node:stream and the
// `ws` package's server), where the runtime has it: chosen by the package's
// `#node-server` import conditions (package.json), so that browser and worker
// builds of the sandbox hold none of it.

/**
 * The modules, typed loosely so that the published declarations need no
 * @types/node: the listener (listen.ts, live-socket.ts) types what it uses.
 */
export interface NodeServerModules {
  /** node:http's createServer. */
  createServer: unknown;
  /** node:http's status texts. */
  STATUS_CODES: Record<number, string | undefined>;
  /** node:stream's Readable. */
  Readable: unknown;
  /** The `ws` package's WebSocketServer. */
  WebSocketServer: unknown;
}

/** Node's modules, or `undefined` where the runtime has none (browsers, workers). */
export declare function loadNodeServer(): Promise<NodeServerModules | undefined>;
