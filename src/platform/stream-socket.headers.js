// Bun and Deno (`bun`, `deno` conditions): their global WebSocket takes
// `new WebSocket(url, { headers })` and sends those headers.
/** @returns {Promise<import('./stream-socket.js').RuntimeSocket>} */
export async function runtimeSocket() {
  const { WebSocket } = globalThis;
  if (typeof WebSocket !== 'function') return { kind: 'unsupported', reason: 'this runtime has no global WebSocket' };
  return { kind: 'headers', WebSocket };
}
