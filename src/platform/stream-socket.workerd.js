// Cloudflare Workers (`workerd` condition, as wrangler bundles): `new
// WebSocket(url)` takes no headers there, but `fetch` with `Upgrade:
// websocket` sends any, and answers with the accepted socket.
/** @returns {Promise<import('./stream-socket.js').RuntimeSocket>} */
export async function runtimeSocket() {
  return { kind: 'fetch-upgrade' };
}
