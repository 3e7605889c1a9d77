/**
 * A `fetch` that never leaves the process: it answers every request with a
 * new `Response` around a prebuilt JSON text, so a bench through it measures
 * only the client's own work (building the Request, headers, parsing JSON).
 */
export function inMemoryFetch(json: unknown): (input: Request | string | URL, init?: RequestInit) => Promise<Response> {
  const text = JSON.stringify(json);
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
  return () => Promise.resolve(new Response(text, { status: 200, headers }));
}
