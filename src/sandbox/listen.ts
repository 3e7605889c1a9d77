/**
 * The sandbox over HTTP (`node:http`, Node 20+): for code that cannot take a
 * `fetch` (another process, a browser under test, a CLI), and for tools that
 * proxy to a real server. Every request goes through the same dispatcher as
 * `sandbox.fetch`; the path prefixes on this origin select the API
 * (channels `/channels/v1`, policy `/v1…`, streams at the root, as its own
 * clients expect); a request it will not serve (a SandboxUsageError: a
 * path under no API's base path) is the 404 the MSW handlers answer. Node's
 * modules are loaded when it first listens (node-server.ts), so the rest of
 * the sandbox runs where there are none.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { SandboxUsageError } from './errors.js';
import { failureAnswer } from './failure-answer.js';
import { requireNodeServer } from './node-server.js';

/** Options of `sandbox.listen()`. */
export interface ListenOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port. Default 0: a free port chosen by the system. */
  port?: number;
}

/** Each value is fit for that client's `baseUrl` option. */
export interface SandboxBaseUrls {
  channels: string;
  streams: string;
  /** The policy host: the client adds `/v1`, `/v1/evaluation` and `/v1/reporting` itself. */
  policy: string;
}

/** A sandbox served over HTTP on 127.0.0.1: its base URLs, and `close()`. */
export interface SandboxListener {
  /** `http://host:port`. */
  readonly url: string;
  readonly baseUrls: SandboxBaseUrls;
  /** Stops listening and closes every open connection (and upgraded socket). */
  close(): Promise<void>;
}

/**
 * An upgrade request as `node:http` hands it over: the IncomingMessage, the
 * socket (a Duplex) and the first bytes. Typed loosely here so that the
 * published declarations need no @types/node; the handler knows them.
 */
export type UpgradeHandler = (request: object, socket: object, head: Uint8Array) => void;

/** What the listener serves: the sandbox's dispatcher, and WebSocket upgrades when the sandbox has them. */
export interface ListenTarget {
  dispatch(request: Request, local: boolean): Promise<Response>;
  upgrade?: UpgradeHandler | undefined;
}

export async function startListener(target: ListenTarget, options: ListenOptions = {}): Promise<SandboxListener> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (typeof host !== 'string' || host === '') throw new SandboxUsageError('listen(): host must be a non-empty string');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new SandboxUsageError(`listen(): port must be an integer from 0 to 65535, got ${String(port)}`);

  const node = await requireNodeServer();
  const createServer = node.createServer as typeof import('node:http').createServer;
  const Readable = node.Readable as typeof import('node:stream').Readable;
  const upgraded = new Set<Duplex>();
  const server = createServer((request, response) => {
    serve(target, origin, request, response, Readable).catch(() => response.destroy());
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    if (target.upgrade === undefined) {
      socket.end('HTTP/1.1 426 Upgrade Required\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    target.upgrade(request, socket, head);
  });
  // A client that goes away mid-request is its own business, not a sandbox failure.
  server.on('clientError', (_error, socket: Socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    baseUrls: { channels: `${origin}/channels/v1`, streams: origin, policy: origin },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      });
      return closing;
    },
  };
}

/** One request: read it whole, dispatch it, stream the answer back. */
async function serve(target: ListenTarget, origin: string, incoming: IncomingMessage, outgoing: ServerResponse, Readable: typeof import('node:stream').Readable): Promise<void> {
  const aborted = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) aborted.abort(new Error('the client closed the connection'));
  });
  const method = incoming.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readAll(incoming);
  // The path and query exactly as sent: the streams API signs them.
  const request = new Request(`${origin}${incoming.url ?? '/'}`, {
    method,
    headers: headersOf(incoming),
    body: body === undefined || body.length === 0 ? undefined : new Uint8Array(body),
    signal: aborted.signal,
  });

  let response: Response;
  try {
    response = await target.dispatch(request, true);
  } catch (error) {
    if (aborted.signal.aborted) return;
    const answer = failureAnswer(error, false);
    if (answer === 'no answer') {
      incoming.socket.destroy();
      return;
    }
    response = answer;
  }

  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null || method === 'HEAD') {
    await response.body?.cancel();
    outgoing.end();
    return;
  }
  const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  stream.on('error', () => outgoing.destroy());
  outgoing.once('close', () => stream.destroy());
  stream.pipe(outgoing);
}

function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    // Hop-by-hop headers describe this connection, not the request a fetch would see.
    if (/^(connection|keep-alive|transfer-encoding|upgrade|host)$/i.test(name)) continue;
    headers.append(name, raw[i + 1]!);
  }
  return headers;
}
