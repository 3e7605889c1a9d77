/**
 * The streams API's live WebSocket, served by the sandbox's listener (Node
 * only: it uses the `ws` package's server, passed in with node:http's status
 * texts by the sandbox, see node-server.ts). Each
 * upgrade is admitted by the sandbox's live feed (live-feed.ts), which then
 * sends the reports; refused ones get the service's HTTP answer.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NodeServerModules } from '#node-server';
import type { UpgradeHandler } from '../listen.js';
import type { LiveFeed } from './live-feed.js';

export interface LiveSocketServer {
  upgrade: UpgradeHandler;
  close(): void;
}

export function createLiveSocketServer(feed: LiveFeed, node: NodeServerModules): LiveSocketServer {
  const WebSocketServer = node.WebSocketServer as typeof import('ws').WebSocketServer;
  const { STATUS_CODES } = node;
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });

  /** Writes a plain HTTP answer on the socket of a refused upgrade. */
  async function refuse(socket: Duplex, response: Response): Promise<void> {
    const body = await response.text();
    const type = response.headers.get('content-type') ?? 'application/json';
    socket.end(
      `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\nContent-Type: ${type}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !/^(connection|upgrade|host|sec-websocket-.*)$/i.test(name)) headers.set(name, value);
    }
    const admission = await feed.admit(request.url ?? '/', headers);
    if (!admission.ok) return refuse(socket, admission.refusal);
    wss.handleUpgrade(request, socket, head, (ws) => {
      const stop = feed.subscribe({ send: (text) => ws.send(text), terminate: () => ws.terminate() }, admission.origin, admission.streams);
      ws.on('close', stop);
      ws.on('error', () => undefined);
    });
  }

  return {
    upgrade: (request, socket, head) => void upgrade(request as IncomingMessage, socket as Duplex, Buffer.from(head)),
    close() {
      wss.close();
    },
  };
}
