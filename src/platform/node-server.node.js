// Node, Bun and Deno (`node` condition): the modules the sandbox's listener
// uses, imported when it first listens. Literal specifiers, in a file only
// Node-compatible builds resolve `#node-server` to.
/** @returns {Promise<import('./node-server.js').NodeServerModules>} */
export async function loadNodeServer() {
  const [http, stream, ws] = await Promise.all([import('node:http'), import('node:stream'), import('ws')]);
  return {
    createServer: http.createServer,
    STATUS_CODES: http.STATUS_CODES,
    Readable: stream.Readable,
    WebSocketServer: ws.WebSocketServer ?? ws.default.WebSocketServer,
  };
}
