/**
 * `service-sdk mcp --http <port>`: the same tools over MCP's Streamable HTTP
 * transport, on the loopback interface only (127.0.0.1), one session per
 * client that initializes; requests whose Host is not this listener's are
 * refused (DNS rebinding). Serves until Ctrl-C.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { CliUsageError } from '../cli/errors.js';
import type { CliIo } from '../cli/io.js';

const PATH = '/mcp';
/** The largest request body read (a tool call's arguments). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    request.once('error', reject);
    request.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('the body is not JSON'));
      }
    });
  });
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function serveHttp(port: number, makeServer: () => Server, io: CliIo): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];
  const listener = createServer(async (request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== PATH) return refuse(response, 404, `not found: the MCP endpoint is ${PATH}`);
    try {
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      if (transport === undefined) {
        if (!isInitializeRequest(body)) return refuse(response, 400, typeof id === 'string' ? 'unknown session: initialize again' : 'no session: send initialize first');
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableDnsRebindingProtection: true,
          allowedHosts,
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
        };
        await makeServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response, body);
    } catch (error) {
      if (!response.headersSent) refuse(response, 400, error instanceof Error ? error.message : String(error));
    }
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (error) => reject(new CliUsageError(`--http: cannot listen on 127.0.0.1:${port}: ${error.message}`)));
    listener.listen(port, '127.0.0.1', resolve);
  });
  const bound = (listener.address() as AddressInfo).port;
  allowedHosts.push(`127.0.0.1:${bound}`, `localhost:${bound}`);
  io.stderr.write(`service-sdk mcp: listening on http://127.0.0.1:${bound}${PATH} (Ctrl-C stops it)\n`);
  await new Promise<void>((resolve) => {
    if (io.signal === undefined) return;
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  for (const transport of sessions.values()) await transport.close();
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  allowedHosts = [];
}
