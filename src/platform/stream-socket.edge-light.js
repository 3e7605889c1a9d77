// Vercel's Edge Runtime (`edge-light` condition): no WebSocket client that
// sends request headers, and the service requires signed ones.
/** @returns {Promise<import('./stream-socket.js').RuntimeSocket>} */
export async function runtimeSocket() {
  return {
    kind: 'unsupported',
    reason:
      "Vercel's Edge Runtime has no WebSocket that sends request headers, and the service requires signed ones: " +
      'stream from a Node.js function instead, or pass `webSocket` with a constructor that accepts { headers }',
  };
}
