/**
 * The command line's `fetch` on Node: one exchange over `node:http(s)`,
 * answered as a standard `Response`. Node's global fetch loads undici's
 * dispatcher (agents, pools, HTTP/2) on first use: some 75 ms of CPU, more
 * than the rest of a command's start-up, for a command that sends one
 * request or a few. The SDK's transport above it still signs, retries,
 * follows redirects (it asks for `redirect: 'manual'`) and types errors.
 *
 * The answer is read whole before it resolves (a page, a resource: the
 * command line prints it whole anyway); the request's signal aborts the read
 * too, so a time limit covers the body. A failure has fetch's form (a
 * `TypeError` whose `cause` carries the errno code), an abort rejects with
 * the signal's reason, and anything this does not handle plainly (a redirect
 * mode other than manual, a scheme other than http and https) goes to the
 * global fetch.
 */
import type { IncomingMessage } from 'node:http';
import type { FetchLike } from './clients.js';

/** The HTTP version each answer came in (`1.1`), for `-i`'s status line: a Response does not carry it. */
const versions = new WeakMap<Response, string>();

/** The HTTP version `response` came in, when this fetch made it. */
export function httpVersionOf(response: Response): string | undefined {
  return versions.get(response);
}

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A `fetch` over node:http(s) for the command line (see the module comment). */
export const nodeFetch: FetchLike = async (input, init) => {
  const request = init === undefined ? input : new Request(input, init);
  const url = new URL(request.url);
  if (request.redirect !== 'manual' || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fetch(request);
  const { signal } = request;
  if (signal.aborted) throw signal.reason;
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  const headers: Record<string, string> = { accept: '*/*', ...Object.fromEntries(request.headers) };
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  const { request: send } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: unknown) => finish(() => reject(new TypeError('fetch failed', { cause: error })));
    const outgoing = send(url, { method: request.method, headers }, (incoming: IncomingMessage) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', fail);
      incoming.on('end', () => {
        const status = incoming.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) answerHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        finish(() => {
          const response = new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText: incoming.statusMessage ?? '', headers: answerHeaders });
          versions.set(response, incoming.httpVersion);
          resolve(response);
        });
      });
    });
    const onAbort = () => {
      outgoing.destroy();
      finish(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', fail);
    outgoing.end(body);
  });
};
