// Browsers and web workers (`browser`, `worker` conditions): their WebSocket
// takes no headers, and the service requires signed ones.
/** @returns {Promise<import('./stream-socket.js').RuntimeSocket>} */
export async function runtimeSocket() {
  return {
    kind: 'unsupported',
    reason:
      "a browser's or web worker's WebSocket cannot send request headers, and the service requires signed ones: " +
      'stream from a server (Node, Bun, Deno, or Cloudflare Workers bundled with the `workerd` condition, as wrangler does), ' +
      'or pass `webSocket` with a constructor that accepts { headers }',
  };
}
