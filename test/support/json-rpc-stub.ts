/**
 * A chain node as `readReportTrust` meets it at an RPC provider: a JSON-RPC
 * server (node:http on 127.0.0.1, a free port) holding a list of logs, that
 * answers `eth_chainId`, `eth_blockNumber` and `eth_getLogs` (filtered by
 * address, block range and topics) and refuses, as providers do, a query of
 * more blocks or more logs than its caps, with their kinds of error.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A log as a node returns it (`blockNumber` and `logIndex` as quantities). */
export interface StubLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  logIndex: string;
  removed?: boolean;
  [field: string]: unknown;
}

export interface JsonRpcStubOptions {
  chainId: number;
  latestBlock: number;
  logs: readonly StubLog[];
  /** Most blocks one eth_getLogs may span (as Alchemy, QuickNode, public nodes cap it): more is a -32602 error. */
  maxBlockRange?: number;
  /** Most logs one eth_getLogs may return (as Infura caps it): more is a -32005 error. */
  maxLogs?: number;
}

export interface JsonRpcStub {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request's method and params, in order. */
  readonly calls: { method: string; params: unknown[] }[];
  close(): Promise<void>;
}

interface Filter {
  address: string;
  fromBlock: string;
  toBlock: string;
  topics: (string | string[] | null)[];
}

const matchesTopics = (log: StubLog, topics: Filter['topics']) =>
  topics.every((wanted, i) => wanted === null || (Array.isArray(wanted) ? wanted.includes(log.topics[i]!) : wanted === log.topics[i]));

export async function startJsonRpcStub(options: JsonRpcStubOptions): Promise<JsonRpcStub> {
  const calls: { method: string; params: unknown[] }[] = [];

  function answer(method: string, params: unknown[]): { result: unknown } | { error: { code: number; message: string } } {
    if (method === 'eth_chainId') return { result: `0x${options.chainId.toString(16)}` };
    if (method === 'eth_blockNumber') return { result: `0x${options.latestBlock.toString(16)}` };
    if (method !== 'eth_getLogs') return { error: { code: -32601, message: `the method ${method} does not exist` } };
    const filter = params[0] as Filter;
    const from = Number(filter.fromBlock);
    const to = filter.toBlock === 'latest' ? options.latestBlock : Number(filter.toBlock);
    if (options.maxBlockRange !== undefined && to - from + 1 > options.maxBlockRange) {
      return { error: { code: -32602, message: `eth_getLogs block range too large, range should be at most ${options.maxBlockRange} blocks` } };
    }
    const logs = options.logs.filter(
      (log) => log.address === filter.address.toLowerCase() && Number(log.blockNumber) >= from && Number(log.blockNumber) <= to && matchesTopics(log, filter.topics),
    );
    if (options.maxLogs !== undefined && logs.length > options.maxLogs) {
      return { error: { code: -32005, message: `query returned more than ${options.maxLogs} results` } };
    }
    return { result: logs };
  }

  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const { id, method, params = [] } = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
      calls.push({ method, params });
      const text = JSON.stringify({ jsonrpc: '2.0', id, ...answer(method, params) });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
