// Node (`node` condition): the `ws` package, imported on first use so that
// importing ./streams does not load it. Its specifier is a literal, and only
// Node builds resolve `#stream-socket` to this file: browser and worker
// bundles never see it.
/** @returns {Promise<import('./stream-socket.js').RuntimeSocket>} */
export async function runtimeSocket() {
  let module;
  try {
    module = await import('ws');
  } catch (error) {
    return { kind: 'unsupported', reason: 'the `ws` package could not be loaded (install it, or pass `webSocket`)', cause: error };
  }
  const WebSocket = module.WebSocket ?? module.default;
  if (typeof WebSocket !== 'function') return { kind: 'unsupported', reason: 'the `ws` package exports no WebSocket class' };
  return { kind: 'ws', WebSocket };
}
