/**
 * The local service the request benches talk to: a minimal `node:http` server
 * on 127.0.0.1 (port 0, keep-alive), run in a worker thread so that its work
 * does not share the event loop of the clients being measured (a real service
 * is remote; its cost should not dilute ours). Same process, second thread.
 *
 * Routes (answers are built on the fly; auth headers are accepted, not checked):
 *   GET  /v1/wallets/{id}                          one wallet (channels)
 *   GET  /v1/wallets?limit&offset                  WALLET_TOTAL wallets, `{data, has_more}`
 *   GET  /v1/channels/{c}/operations/{id}          an operation; `accepted` until its flip time, then `confirmed`
 *   GET  /api/v1/reports/latest?feedID=            `{report}` (streams)
 *   POST /__bench/operations?flip_in_ms=N          creates an operation that flips after N ms
 *   GET  /__bench/operations/{id}                  `{reads}`: how many GETs that operation received
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export const WALLET_TOTAL = 100_000;
export const FEED_ID = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

export interface BenchServer {
  /** `http://127.0.0.1:<port>`; the channels API is under `/v1`, the report API at the root. */
  url: string;
  /** Registers an operation whose status becomes `confirmed` `flipInMs` from now. */
  createOperation(flipInMs: number): Promise<{ operationId: string; channelId: string; flipAtEpochMs: number }>;
  /** GETs the operation has received so far. */
  operationReads(operationId: string): Promise<number>;
  close(): Promise<void>;
}

/** Wall-clock time in ms with sub-ms precision, comparable across threads of one process. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

const uuid = (n: number): string => {
  const hex = n.toString(16).padStart(12, '0');
  return `3fa85f64-5717-4562-b3fc-${hex}`;
};

export function wallet(n: number): Record<string, unknown> {
  const address = `0x${(n + 0x1000).toString(16).padStart(40, 'a')}`;
  return {
    wallet_id: uuid(n),
    name: `treasury-${n}`,
    description: 'Bench wallet',
    address,
    wallet_owner_address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    chain_selector: '16015286601757825753',
    wallet_type: 'ecdsa',
    status: 'deployed',
    allowed_rsa_signers: [],
    allowed_ecdsa_signers: ['0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'],
    configuration: { allowed_signers: ['0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'] },
    created_at: 1_764_590_400 + n,
  };
}

export function operation(id: string, status: string): Record<string, unknown> {
  return {
    operation_id: id,
    status,
    chain_selector: '16015286601757825753',
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    wallet_operation_id: '42',
    deadline: 0,
    transactions: [{ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0', data: '0x' }],
    signature: '0x' + 'ab'.repeat(65),
    created_at: 1_764_590_400,
    updated_at: 1_764_590_460,
  };
}

/** A latest-report answer the size of a V3 report with two signatures (about 2.3 kB of hex). */
export function latestReport(feedID: string): Record<string, unknown> {
  let hex = '0x';
  for (let i = 0; hex.length < 2 + 2 * 1_152; i++) hex += ((i * 2_654_435_761) >>> 0).toString(16).padStart(8, '0');
  return {
    report: { feedID, validFromTimestamp: 1_764_590_400, observationsTimestamp: 1_764_590_400, fullReport: hex },
  };
}

function serve(): void {
  const operations = new Map<string, { flipAt: number; reads: number }>();
  const walletBodies = new Map<string, string>();
  const reportBody = JSON.stringify(latestReport(FEED_ID));
  let nextOperation = 1;

  const send = (res: ServerResponse, status: number, body: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const parts = path.split('/');
    if (req.method === 'GET' && parts.length === 4 && parts[1] === 'v1' && parts[2] === 'wallets') {
      const id = parts[3] as string;
      let body = walletBodies.get(id);
      if (body === undefined) {
        body = JSON.stringify({ ...wallet(1), wallet_id: id });
        walletBodies.set(id, body);
      }
      return send(res, 200, body);
    }
    if (req.method === 'GET' && path === '/v1/wallets') {
      const limit = Math.min(200, Number(url.searchParams.get('limit') ?? 50));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const end = Math.min(WALLET_TOTAL, offset + limit);
      const data = [];
      for (let n = offset; n < end; n++) data.push(wallet(n));
      return send(res, 200, JSON.stringify({ data, has_more: end < WALLET_TOTAL }));
    }
    if (req.method === 'GET' && parts.length === 6 && parts[1] === 'v1' && parts[2] === 'channels' && parts[4] === 'operations') {
      const id = parts[5] as string;
      const op = operations.get(id);
      if (op === undefined) return send(res, 404, JSON.stringify({ type: 'NOT_FOUND', message: 'no such operation' }));
      op.reads++;
      return send(res, 200, JSON.stringify(operation(id, epochMs() >= op.flipAt ? 'confirmed' : 'accepted')));
    }
    if (req.method === 'GET' && path === '/api/v1/reports/latest') return send(res, 200, reportBody);
    if (req.method === 'POST' && path === '/__bench/operations') {
      const flipInMs = Number(url.searchParams.get('flip_in_ms') ?? 0);
      const id = uuid(0xb000_0000 + nextOperation++);
      const flipAt = epochMs() + flipInMs;
      operations.set(id, { flipAt, reads: 0 });
      req.resume();
      return send(res, 200, JSON.stringify({ operation_id: id, flip_at: flipAt }));
    }
    if (req.method === 'GET' && parts.length === 4 && parts[1] === '__bench' && parts[2] === 'operations') {
      return send(res, 200, JSON.stringify({ reads: operations.get(parts[3] as string)?.reads ?? 0 }));
    }
    send(res, 404, JSON.stringify({ type: 'NOT_FOUND', message: `no route ${req.method} ${path}` }));
  };

  const server = createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, handle);
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    parentPort?.postMessage({ port: (server.address() as AddressInfo).port });
  });
  parentPort?.on('message', (message: unknown) => {
    if (message === 'close') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'bench-server') serve();

/**
 * Starts the server in a worker thread. The worker loads this file through
 * tsx's API, since a worker does not inherit the loader `tsx` gave the main thread.
 */
export async function startServer(): Promise<BenchServer> {
  const api = import.meta.resolve('tsx/esm/api');
  const self = import.meta.url;
  const worker = new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); });`,
    { eval: true, workerData: { role: 'bench-server' } },
  );
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port: number }) => resolve(message.port));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`bench server exited with code ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async createOperation(flipInMs) {
      const res = await fetch(`${url}/__bench/operations?flip_in_ms=${flipInMs}`, { method: 'POST' });
      const body = (await res.json()) as { operation_id: string; flip_at: number };
      return { operationId: body.operation_id, channelId: uuid(0xc), flipAtEpochMs: body.flip_at };
    },
    async operationReads(operationId) {
      const res = await fetch(`${url}/__bench/operations/${operationId}`);
      return ((await res.json()) as { reads: number }).reads;
    },
    async close() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())]);
      await worker.terminate();
    },
  };
}
