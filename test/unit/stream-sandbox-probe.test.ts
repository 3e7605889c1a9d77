// A stream on a client with a `fetch` of its own asks through that `fetch`
// whether it leads to a sandbox only while a sandbox is open in this process:
// a production process sends exactly what it sent before (one `HEAD /`).
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createStreamsClient, streamReports } from '../../src/streams/index.js';
import { SANDBOX_PROBE_HEADER } from '../../src/streams/report-stream/sandbox-link.js';
import { v3FeedID } from '../support/report-server.js';
import { waitFor } from '../support/report-stream.js';

const feed = v3FeedID('ETH/USD');
let sandbox: Sandbox | undefined;

afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

/** The requests a stream sends through a `fetch` that answers like the public host, until its socket is made. */
async function requestsBeforeTheSocket(): Promise<{ line: string; probe: string | null }[]> {
  const requests: { line: string; probe: string | null }[] = [];
  const fetch = async (request: Request) => {
    requests.push({ line: `${request.method} ${request.url}`, probe: request.headers.get(SANDBOX_PROBE_HEADER) });
    return new Response(null, { status: 200, headers: { 'X-Cll-Available-Origins': '{001}' } });
  };
  let sockets = 0;
  class RecordingWebSocket {
    binaryType = 'blob';
    constructor() {
      sockets++;
    }
    addEventListener(): void {}
    close(): void {}
  }
  const client = createStreamsClient({ apiKey: '3fa85f64-5717-4562-b3fc-2c963f66afa6', apiSecret: 's', retry: false, fetch });
  const stream = streamReports(client, [feed], { webSocket: RecordingWebSocket });
  const next = stream.next();
  await waitFor(() => sockets === 1, 'the socket to be created', 15_000);
  await stream.close();
  await next;
  return requests;
}

describe('the probe for a sandbox behind the fetch', () => {
  it('no sandbox in the process: one HEAD /, no probe', async () => {
    expect(await requestsBeforeTheSocket()).toEqual([{ line: 'HEAD https://ws.testnet-dataengine.chain.link/', probe: null }]);
  });

  it('a sandbox open in the process: a probe through the fetch first, and the answer (no sandbox saw it) changes nothing', async () => {
    sandbox = createSandbox({ pace: 0 });
    const requests = await requestsBeforeTheSocket();
    expect(requests.map((request) => request.line)).toEqual(['HEAD https://ws.testnet-dataengine.chain.link/', 'HEAD https://ws.testnet-dataengine.chain.link/']);
    expect(requests[0]!.probe).toEqual(expect.any(String));
    expect(requests[1]!.probe).toBeNull();
  });

  it('once that sandbox is closed, no probe again', async () => {
    createSandbox({ pace: 0 }).close();
    expect(await requestsBeforeTheSocket()).toEqual([{ line: 'HEAD https://ws.testnet-dataengine.chain.link/', probe: null }]);
  });
});
