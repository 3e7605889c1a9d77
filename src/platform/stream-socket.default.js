// Any other runtime (no condition above matched): Bun's and Deno's global
// WebSocket are recognised by their globals; nothing else is known to send
// request headers on a WebSocket.
/** @returns {Promise<import('./stream-socket.js').RuntimeSocket>} */
export async function runtimeSocket() {
  const { Bun, Deno, WebSocket } = /** @type {{ Bun?: unknown; Deno?: unknown; WebSocket?: unknown }} */ (globalThis);
  if ((Bun !== undefined || Deno !== undefined) && typeof WebSocket === 'function') return { kind: 'headers', WebSocket };
  return {
    kind: 'unsupported',
    reason:
      "this runtime's WebSocket is not known to send request headers, and the service requires signed ones: " +
      'stream from Node, Bun, Deno or Cloudflare Workers, or pass `webSocket` with a constructor that accepts { headers }',
  };
}
