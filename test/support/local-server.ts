// A real HTTP server on 127.0.0.1 (a free port) whose every answer a test
// scripts: for probing the clients with what a hostile or broken service
// sends (stalled bodies, resets, redirects, lies). Every request is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: IncomingMessage & { body: string }, response: ServerResponse, index: number) => void;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(Object.assign(request, { body }), response, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `text` one byte every `everyMs`, until it is done or the client goes away. */
export function trickle(response: ServerResponse, text: string, everyMs: number): void {
  // Headers go out now; Node would otherwise hold them until the first byte.
  response.flushHeaders();
  let index = 0;
  const timer = setInterval(() => {
    if (index >= text.length || response.destroyed) {
      clearInterval(timer);
      if (!response.destroyed) response.end();
      return;
    }
    response.write(text[index++]);
  }, everyMs);
  response.on('close', () => clearInterval(timer));
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Settles within `ms` with what happened, or says it is still pending. */
export function within<T>(promise: Promise<T>, ms: number): Promise<string> {
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: Error) => `rejected: ${error.name}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still pending'), ms).unref()),
  ]);
}

/** Stops a test's HTTP server (if it started), its open connections included, so no keep-alive socket holds the run. */
export function closeServer(server: import('node:http').Server | undefined): Promise<void> {
  if (server === undefined) return Promise.resolve();
  server.closeAllConnections();
  return new Promise<void>((done) => server.close(() => done()));
}

/** Starts `server` on 127.0.0.1 at a free port; resolves with its origin (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(server: import('node:http').Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
}
