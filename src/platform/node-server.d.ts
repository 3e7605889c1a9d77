// What the sandbox's listener needs of Node (node:http, node:stream and the
// `ws` package's server), where the runtime has it: chosen by the package's
// `#node-server` import conditions (package.json), so that browser and worker
// builds of the sandbox hold none of it.
import type { STATUS_CODES, createServer } from 'node:http';
import type { Readable } from 'node:stream';
import type { WebSocketServer } from 'ws';

export interface NodeServerModules {
  createServer: typeof createServer;
  STATUS_CODES: typeof STATUS_CODES;
  Readable: typeof Readable;
  WebSocketServer: typeof WebSocketServer;
}

/** Node's modules, or `undefined` where the runtime has none (browsers, workers). */
export declare function loadNodeServer(): Promise<NodeServerModules | undefined>;
