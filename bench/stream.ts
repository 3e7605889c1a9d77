/**
 * 9. Live report stream: `streamReports` against the raw socket it is built
 * on and against the vendor's `createClient(...).createStream(...)`
 * (`@chainlink/data-streams-sdk`), on the same local report service
 * (test/support/report-server.ts, HMAC checked) and the same reports.
 *
 * The service runs in a worker thread (its sending must not share the
 * clients' event loop; a real service is remote). It makes FEEDS × ROUNDS
 * real V3 reports once; every run gets a fresh connection and the same
 * reports, so every contender's deduplication sees them as new.
 *
 * - Throughput: the clients' thread is blocked (Atomics.wait) while the
 *   service queues every report on the socket; then reports/s = reports /
 *   (time for all of them to reach the consumer). So the figure is the
 *   client's own pace with reports waiting, not the pace of one local
 *   sender (measured first, all contenders came out equal to the sender's
 *   ~60–100k/s, noise deciding their order). "Decoded" rows decode each
 *   report (ours with `decode: true`, the vendor's with its `decodeReport`
 *   in the handler).
 * - Latency: the service sends one report every 2 ms (each travels alone)
 *   and stamps each send; a report's latency is its arrival at the consumer (the
 *   `for await` body, the `report` handler, the socket's `message` handler
 *   after `JSON.parse`) minus its send time (the same wall clock in both
 *   threads). The SDK's added latency is its median minus the raw socket's.
 *
 * Contenders alternate order from round to round, so a change of machine
 * load hits them alike; throughput is the median over the rounds, latency
 * is over every sample of every round.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createClient, decodeReport as vendorDecodeReport } from '@chainlink/data-streams-sdk';
import { WebSocket as WsWebSocket } from 'ws';
import { hmacAuthorizer } from '../src/core/auth.js';
import { makeV3Report, startReportServer, v3FeedID } from '../test/support/report-server.js';
import { createStreamsClient, streamReports } from '../src/streams/index.js';
import type { Report } from '../src/streams/reports.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { encodeFullReport } from '../src/reports/encode.js';
import { addressOf, signHash } from '../src/reports/secp256k1.js';
import type { ReportTrust } from '../src/reports/verify-types.js';
import { pairedDifferences, pairedRatios, spreadOf } from './harness.js';
import { measure, median, quantile, type Contender as MeasuredContender } from './measure.js';
import { deltaUs, ratioSpread, signed as signedUs, verdict } from './rows.js';
import type { Row } from './table.js';

const BENCH = '9 stream';
const FEEDS = ['ETH/USD', 'BTC/USD', 'LINK/USD', 'SOL/USD'].map(v3FeedID);
const FIRST_TIMESTAMP = 1_700_000_000;

/** Wall-clock time in ms with sub-ms precision, comparable across threads of one process. */
function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

// ---------------------------------------------------------------- the service (worker thread)

type Command =
  | { type: 'burst'; rounds: number; done: SharedArrayBuffer }
  | { type: 'paced'; rounds: number }
  | { type: 'connections' }
  | { type: 'close' };

async function serve(rounds: number): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const server = await startReportServer({ feeds: FEEDS, origins: ['001', '002'], historyLimit: 10, firstTimestamp: FIRST_TIMESTAMP });
  // Made and serialised once: the service's own cost per message is one send per connection.
  const messages: string[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const feed of FEEDS) messages.push(JSON.stringify({ report: makeV3Report(feed, FIRST_TIMESTAMP + round) }));
  }
  const sendToAll = (from: number, to: number) => {
    for (const origin of server.origins) for (let i = from; i < to; i++) server.sendRaw(origin, messages[i] as string);
  };
  port.postMessage({ type: 'ready', url: server.url, wsUrl: server.wsUrl, credentials: server.credentials });
  port.on('message', async (command: Command) => {
    switch (command.type) {
      case 'connections':
        port.postMessage({ type: 'connections', count: server.connectionCount() });
        break;
      case 'burst': {
        const total = command.rounds * FEEDS.length;
        for (let i = 0; i < total; i += 400) {
          sendToAll(i, Math.min(i + 400, total));
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Everything is written or queued on the sockets: wake the blocked client thread.
        const done = new Int32Array(command.done);
        Atomics.store(done, 0, 1);
        Atomics.notify(done, 0);
        break;
      }
      case 'paced': {
        // One message at a time, 2 ms apart: each report travels alone, so its
        // latency is the path's and not a queue's (the vendor's decoder needs
        // about 0.25 ms per report).
        const sentAt: number[] = [];
        for (let i = 0; i < command.rounds * FEEDS.length; i++) {
          sentAt.push(epochMs());
          sendToAll(i, i + 1);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        port.postMessage({ type: 'sent', sentAt });
        break;
      }
      case 'close':
        await server.close();
        port.postMessage({ type: 'closed' });
        break;
    }
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'stream-server') {
  void serve((workerData as { rounds: number }).rounds);
}

interface ServiceHandle {
  url: string;
  wsUrl: string;
  credentials: { apiKey: string; apiSecret: string };
  request<T>(command: Command, answer: string): Promise<T>;
  post(command: Command): void;
  close(): Promise<void>;
}

async function startService(rounds: number): Promise<ServiceHandle> {
  const api = import.meta.resolve('tsx/esm/api');
  const self = import.meta.url;
  const worker = new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); });`,
    { eval: true, workerData: { role: 'stream-server', rounds } },
  );
  const ready = await new Promise<{ url: string; wsUrl: string; credentials: { apiKey: string; apiSecret: string } }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const request = <T>(command: Command, answer: string): Promise<T> =>
    new Promise<T>((resolve) => {
      const listener = (message: { type: string }) => {
        if (message.type !== answer) return;
        worker.off('message', listener);
        resolve(message as T);
      };
      worker.on('message', listener);
      worker.postMessage(command);
    });
  return {
    ...ready,
    request,
    post: (command) => worker.postMessage(command),
    async close() {
      await request({ type: 'close' }, 'closed');
      await worker.terminate();
    },
  };
}

// ---------------------------------------------------------------- the contenders

/** Called with each report as the consumer gets it (its feed index and time). */
type OnReport = (feedIndex: number, observationsTimestamp: number) => void;

interface Contender {
  name: string;
  /** Connections it opens on the service. */
  connections: number;
  /** Fewer rounds for a slow contender, so one run stays within seconds. */
  maxRounds?: number;
  open(service: ServiceHandle, onReport: OnReport): Promise<() => Promise<void>>;
}

const feedIndex = new Map(FEEDS.map((feed, i) => [feed.toLowerCase(), i]));
const indexOf = (feedID: string): number => feedIndex.get(feedID.toLowerCase()) ?? -1;

function signedHeaders(service: ServiceHandle, url: string, origin: string): Record<string, string> {
  const headers = new Headers({ 'X-Cll-Origin': origin });
  hmacAuthorizer(service.credentials)(headers, 'GET', url, undefined);
  return Object.fromEntries(headers);
}

const streamUrl = (service: ServiceHandle) => `${service.wsUrl}/api/v1/ws?feedIDs=${FEEDS.join(',')}`;

const rawWs: Contender = {
  name: 'raw ws socket + JSON.parse',
  connections: 1,
  async open(service, onReport) {
    const url = streamUrl(service);
    const socket = new WsWebSocket(url, { headers: signedHeaders(service, url, '001') });
    socket.on('message', (data: Buffer) => {
      const { report } = JSON.parse(data.toString()) as { report: Report };
      onReport(indexOf(report.feedID), report.observationsTimestamp);
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return async () => socket.terminate();
  },
};

/** undici's WebSocket (Node 22's global one), if the package can be loaded: the alternative to `ws`. */
async function rawUndici(): Promise<Contender | undefined> {
  let WebSocket: (new (url: string, init: { headers: Record<string, string> }) => any) | undefined;
  try {
    // Not a dependency of this package: present here only through a development tool.
    const undici = 'undici';
    WebSocket = ((await import(undici)) as { WebSocket?: typeof WebSocket }).WebSocket;
  } catch {
    return undefined;
  }
  if (WebSocket === undefined) return undefined;
  const Ctor = WebSocket;
  return {
    name: 'raw undici WebSocket + JSON.parse (diagnostic)',
    connections: 1,
    async open(service, onReport) {
      const url = streamUrl(service);
      const socket = new Ctor(url, { headers: signedHeaders(service, url, '001') });
      socket.addEventListener('message', (event: { data: string }) => {
        const { report } = JSON.parse(event.data) as { report: Report };
        onReport(indexOf(report.feedID), report.observationsTimestamp);
      });
      await new Promise((resolve, reject) => {
        socket.addEventListener('open', resolve);
        socket.addEventListener('error', reject);
      });
      return async () => socket.close();
    },
  };
}

function ours(decode: boolean, origins: number): Contender {
  return {
    name: `streamReports (ours)${decode ? ', decode: true' : ''}, ${origins === 1 ? '1 origin' : `${origins} origins (HA)`}`,
    connections: origins,
    async open(service, onReport) {
      const client = createStreamsClient({ ...service.credentials, baseUrl: service.url });
      const stream = streamReports(client, FEEDS, {
        wsUrl: service.wsUrl,
        decode,
        ...(origins === 1 ? { origins: ['001'] } : {}),
      });
      const loop = (async () => {
        for await (const report of stream) onReport(indexOf(report.feedID), report.observationsTimestamp);
      })();
      return async () => {
        const { dropped } = stream.stats;
        if (dropped > 0) console.warn(`  ours dropped ${dropped} reports (consumer behind)`);
        await stream.close();
        await loop;
      };
    },
  };
}

function vendor(decode: boolean, origins: number): Contender {
  return {
    name: `createStream (@chainlink/data-streams-sdk)${decode ? ' + its decodeReport' : ''}, ${origins === 1 ? '1 origin' : `${origins} origins (haMode)`}`,
    connections: origins,
    // Its decoder takes about 0.25–0.8 ms per report.
    ...(decode ? { maxRounds: 500 } : {}),
    async open(service, onReport) {
      const client = createClient({
        apiKey: service.credentials.apiKey,
        userSecret: service.credentials.apiSecret,
        endpoint: service.url,
        wsEndpoint: service.wsUrl,
        haMode: origins > 1,
      });
      const stream = client.createStream(FEEDS);
      stream.on('report', (report: Report) => {
        // The decoded report is made and dropped, as a consumer would read one field of it.
        if (decode && vendorDecodeReport(report.fullReport, report.feedID) === undefined) return;
        onReport(indexOf(report.feedID), report.observationsTimestamp);
      });
      stream.on('error', () => undefined);
      await stream.connect();
      return () => stream.close();
    },
  };
}

// ---------------------------------------------------------------- the runs

/** A latency difference in ms as signed µs. */
const signed = (ms: number): string => `${ms >= 0 ? '+' : '−'}${Math.abs(ms * 1000).toFixed(1)}`;

async function waitForConnections(service: ServiceHandle, count: number): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    const { count: open } = await service.request<{ count: number }>({ type: 'connections' }, 'connections');
    if (open === count) return;
    if (Date.now() > end) throw new Error(`expected ${count} connections, the service has ${open}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Reports per second of one run: the client thread is blocked while the
 * service queues every report on the socket, then timed while it takes them
 * all. The figure is the client's own pace, not the sender's.
 */
async function throughputRun(service: ServiceHandle, contender: Contender, allRounds: number): Promise<number> {
  const rounds = Math.min(allRounds, contender.maxRounds ?? allRounds);
  const expected = rounds * FEEDS.length;
  let count = 0;
  let finish: () => void = () => undefined;
  const allIn = new Promise<void>((resolve) => (finish = resolve));
  const close = await contender.open(service, () => {
    if (++count === expected) finish();
  });
  await waitForConnections(service, contender.connections);
  const done = new SharedArrayBuffer(4);
  service.post({ type: 'burst', rounds, done });
  if (Atomics.wait(new Int32Array(done), 0, 0, 60_000) === 'timed-out') throw new Error('the service did not finish sending');
  const t0 = epochMs();
  const timeout = setTimeout(() => finish(), 60_000);
  await allIn;
  const elapsed = epochMs() - t0;
  clearTimeout(timeout);
  await close();
  await waitForConnections(service, 0);
  if (count !== expected) throw new Error(`${contender.name}: ${count} of ${expected} reports arrived`);
  return (expected / elapsed) * 1000;
}

/** Latencies (ms) of one paced run. */
async function latencyRun(service: ServiceHandle, contender: Contender, rounds: number): Promise<number[]> {
  const arrivals = new Map<number, number>();
  const close = await contender.open(service, (feed, t) => {
    if (!arrivals.has(t * 8 + feed)) arrivals.set(t * 8 + feed, epochMs());
  });
  await waitForConnections(service, contender.connections);
  const { sentAt } = await service.request<{ sentAt: number[] }>({ type: 'paced', rounds }, 'sent');
  const end = Date.now() + 5_000;
  while (arrivals.size < rounds * FEEDS.length && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
  await close();
  await waitForConnections(service, 0);
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let feed = 0; feed < FEEDS.length; feed++) {
      const arrival = arrivals.get((FIRST_TIMESTAMP + round) * 8 + feed);
      if (arrival === undefined) throw new Error(`${contender.name}: report ${round}/${feed} never arrived`);
      latencies.push(arrival - (sentAt[round * FEEDS.length + feed] as number));
    }
  }
  return latencies;
}

// ---------------------------------------------------------------- in memory: CPU per message, no socket

/**
 * A stand-in for the `ws` package's WebSocket that opens at once and hands
 * over whatever `deliver` gets, so the stream's own work per message can be
 * timed without a socket, a kernel or a second thread in the figure.
 */
function memorySocket() {
  let deliver: (text: string) => void = () => undefined;
  let deliverBuffer: (data: Buffer) => void = () => undefined;
  class MemoryWebSocket {
    private listeners = new Map<string, (...args: unknown[]) => void>();
    readonly readyState = 1;
    constructor() {
      setTimeout(() => this.listeners.get('open')?.(), 0);
      deliver = (text) => this.listeners.get('message')?.(Buffer.from(text));
      deliverBuffer = (data) => this.listeners.get('message')?.(data);
    }
    on(event: string, listener: (...args: unknown[]) => void): void {
      this.listeners.set(event, listener);
    }
    removeAllListeners(): void {
      this.listeners.clear();
    }
    ping(): void {}
    terminate(): void {}
  }
  return {
    WebSocket: MemoryWebSocket,
    deliver: (text: string) => deliver(text),
    deliverBuffer: (data: Buffer) => deliverBuffer(data),
  };
}

/**
 * Messages of every feed, one second apart, made from one report per feed by
 * splicing the time in: into the envelope and into the signed blob's two
 * timestamp words (whose last eight hex digits hold a uint32), so each
 * message passes the stream's envelope check as a genuine one would. A few
 * string joins per message: the same small cost for every contender.
 */
function messageSource(): () => Buffer {
  const hexDigitsOf = (byteOffset: number) => 2 + 2 * byteOffset + 56;
  const VALID_FROM = hexDigitsOf(256 + 32);
  const OBSERVED = hexDigitsOf(256 + 64);
  const parts = FEEDS.map((feed) => {
    const report = makeV3Report(feed, FIRST_TIMESTAMP);
    const blob = report.fullReport;
    const marked = `${blob.slice(0, VALID_FROM)}VVVVVVVV${blob.slice(VALID_FROM + 8, OBSERVED)}OOOOOOOO${blob.slice(OBSERVED + 8)}`;
    const text = JSON.stringify({ report: { ...report, validFromTimestamp: 0x7ffffffe, observationsTimestamp: 0x7fffffff, fullReport: marked } });
    return text.split(/(VVVVVVVV|OOOOOOOO|2147483646|2147483647)/);
  });
  let i = 0;
  return () => {
    const pieces = parts[i % FEEDS.length] as string[];
    const t = FIRST_TIMESTAMP + 1 + Math.floor(i++ / FEEDS.length);
    const values: Record<string, string> = {
      VVVVVVVV: (t - 1).toString(16).padStart(8, '0'),
      OOOOOOOO: t.toString(16).padStart(8, '0'),
      '2147483646': String(t - 1),
      '2147483647': String(t),
    };
    let text = '';
    for (const piece of pieces) text += values[piece] ?? piece;
    return Buffer.from(text);
  };
}

/**
 * Ours on an in-memory socket, fed by `next`: the contender takes one
 * message from the socket to the `for await` body; the function closes it.
 */
async function inMemoryStream(
  name: string,
  options: { decode?: boolean; verify?: ReportTrust },
  next: () => Buffer,
): Promise<[MeasuredContender, () => Promise<void>]> {
  const memory = memorySocket();
  const client = createStreamsClient({ apiKey: '3fa85f64-5717-4562-b3fc-2c963f66afa6', apiSecret: 'bench' });
  const stream = streamReports(client, FEEDS, { origins: ['001'], webSocket: memory.WebSocket as never, ...options, pingIntervalMs: 3_600_000 });
  const first = stream.next();
  await new Promise((resolve) => setTimeout(resolve, 10));
  memory.deliver(next().toString());
  await first;
  return [
    {
      name: `${name}: message → for await body`,
      run: async () => {
        const result = stream.next();
        memory.deliverBuffer(next());
        consumed += ((await result).value as Report).observationsTimestamp;
      },
    },
    () => stream.close(),
  ];
}

/** What the in-memory consumers read, summed so that no work is optimised away. */
let consumed = 0;

/** The oracle network of the verify rows: 16 signers, f = 5 (6 signatures a report), as `npm run bench -- verify`. */
const VERIFY_F = 5;
const VERIFY_KEYS = Array.from({ length: 16 }, (_, i) => keccak_256(utf8ToBytes(`bench oracle ${i}`)));
const VERIFY_DIGEST = `0x0006${'5e'.repeat(30)}`;

/**
 * `count` messages of every feed, one second apart, each report signed by
 * f + 1 of the bench's oracle network (made ahead: signing is not measured),
 * and the trust that verifies them.
 */
function signedMessages(count: number): { next: () => Buffer; trust: ReportTrust } {
  const context = [VERIFY_DIGEST, `0x${'0'.repeat(62)}01`, `0x${'ee'.repeat(32)}`] as const;
  const messages: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const t = FIRST_TIMESTAMP + 1 + Math.floor(i / FEEDS.length);
    const report = makeV3Report(FEEDS[i % FEEDS.length]!, t);
    // The V3 blob: 9 words from byte 256 (after the 7-word head and its length word).
    const blob = `0x${report.fullReport.slice(2 + 2 * 256, 2 + 2 * 256 + 2 * 32 * 9)}`;
    const signed = new Uint8Array(128);
    signed.set(keccak_256(hexToBytes(blob.slice(2))), 0);
    context.forEach((word, w) => signed.set(hexToBytes(word.slice(2)), 32 + 32 * w));
    const hash = keccak_256(signed);
    const signatures = VERIFY_KEYS.slice(0, VERIFY_F + 1).map((key) => signHash(hash, key));
    const vs = new Uint8Array(32);
    signatures.forEach(({ recoveryId }, k) => (vs[k] = recoveryId));
    const fullReport = encodeFullReport(blob, {
      reportContext: context,
      rawRs: signatures.map(({ signature }) => `0x${bytesToHex(signature.subarray(0, 32))}`),
      rawSs: signatures.map(({ signature }) => `0x${bytesToHex(signature.subarray(32))}`),
      rawVs: `0x${bytesToHex(vs)}`,
    });
    messages.push(Buffer.from(JSON.stringify({ report: { ...report, fullReport } })));
  }
  let i = 0;
  const trust = { [VERIFY_DIGEST]: { f: VERIFY_F, signers: VERIFY_KEYS.map(addressOf) } };
  return {
    next: () => {
      const message = messages[i++];
      if (message === undefined) throw new Error('bench: out of signed messages');
      return message;
    },
    trust,
  };
}

/**
 * What `verify` adds per delivered report: ours on the same signed messages
 * with and without it, in one run (a 16-signer, f = 5 configuration).
 */
async function verifyCostRows(quick: boolean): Promise<Row[]> {
  const options = quick ? { warmup: 50, samples: 100, rounds: 4 } : { warmup: 200, samples: 600, rounds: 10 };
  const count = 2 * (options.warmup + options.samples) + 20;
  const plainMessages = signedMessages(count);
  const verifiedMessages = signedMessages(count);
  const [plain, closePlain] = await inMemoryStream('streamReports (ours), signed reports', {}, plainMessages.next);
  const [verified, closeVerified] = await inMemoryStream('streamReports (ours), signed reports, verify: trust', { verify: verifiedMessages.trust }, verifiedMessages.next);
  const stats = await measure([plain, verified], { ...options, minSampleNs: 0 });
  await closePlain();
  await closeVerified();
  const base = stats.get(plain.name)!;
  const withVerify = stats.get(verified.name)!;
  return [
    { bench: BENCH, name: `in memory (no socket), per message: ${plain.name}`, medianNs: base.medianNs, p99Ns: base.p99Ns, opsPerSec: base.opsPerSec, opsUnit: 'reports/s' },
    {
      bench: BENCH,
      name: `in memory (no socket), per message: ${verified.name} (16 signers, f = 5)`,
      medianNs: withVerify.medianNs,
      p99Ns: withVerify.p99Ns,
      opsPerSec: withVerify.opsPerSec,
      opsUnit: 'reports/s',
      baseline: plain.name,
      ratio: ratioSpread(stats, verified.name, plain.name).median,
      ratioSpread: ratioSpread(stats, verified.name, plain.name),
      note: `+${((withVerify.medianNs - base.medianNs) / 1000).toFixed(0)} µs per delivered report for verify`,
    },
  ];
}

async function inMemoryRows(quick: boolean): Promise<Row[]> {
  let sink = 0;
  const parseNext = messageSource();
  const parseOnly: MeasuredContender = {
    name: 'JSON.parse of each message alone (baseline)',
    run: () => {
      const { report } = JSON.parse(parseNext().toString()) as { report: Report };
      sink += report.observationsTimestamp;
    },
  };

  const oursContender = (decode: boolean) => inMemoryStream(`streamReports (ours)${decode ? ', decode: true' : ''}`, { decode }, messageSource());

  // The vendor's Stream, fed through its connection manager's `message` event
  // (internal, reached for this measurement only), as its socket feeds it.
  const vendorNext = messageSource();
  const vendorStream = createClient({ apiKey: 'k', userSecret: 's', endpoint: 'http://127.0.0.1:9', wsEndpoint: 'ws://127.0.0.1:9' }).createStream(FEEDS);
  vendorStream.on('report', (report: Report) => (sink += report.observationsTimestamp));
  const manager = (vendorStream as unknown as { connectionManager: { emit(event: string, ...args: unknown[]): void } }).connectionManager;
  const connection = { origin: 'ws://127.0.0.1:9' };
  const vendorContender: MeasuredContender = {
    name: 'createStream (@chainlink/data-streams-sdk): message → report event',
    run: () => manager.emit('message', vendorNext(), connection),
  };

  const [oursPlain, closePlain] = await oursContender(false);
  const [oursDecoded, closeDecoded] = await oursContender(true);
  const contenders = [parseOnly, oursPlain, vendorContender, oursDecoded];
  const stats = await measure(contenders, quick ? { warmup: 500, samples: 200, rounds: 4 } : { warmup: 2_000, samples: 2_000, rounds: 10 });
  await closePlain();
  await closeDecoded();
  await vendorStream.close();
  if (sink === 0) throw new Error('nothing was consumed');

  return contenders.map((c) => {
    const figures = stats.get(c.name);
    const row: Row = {
      bench: BENCH,
      name: `in memory (no socket), per message: ${c.name}`,
      medianNs: figures?.medianNs,
      p99Ns: figures?.p99Ns,
      opsPerSec: figures?.opsPerSec,
      opsUnit: 'reports/s',
    };
    if (c !== parseOnly && figures !== undefined) {
      row.baseline = parseOnly.name;
      row.ratioSpread = ratioSpread(stats, c.name, parseOnly.name);
      row.ratio = row.ratioSpread.median;
      row.note = `+${deltaUs(stats, c.name, parseOnly.name).toFixed(2)} µs/message over JSON.parse`;
    }
    if (c === oursPlain && figures !== undefined) {
      // Ours minus the vendor's, round by round (the same JSON.parse in both).
      const overVendor = spreadOf(pairedDifferences(figures.perRound, stats.get(vendorContender.name)!.perRound).map((ns) => ns / 1_000));
      row.goal = "added ≤ the vendor's";
      Object.assign(row, verdict(overVendor, { atMost: 0 }, (us) => `${signedUs(us, 2)} µs`));
      row.note += `; the vendor +${deltaUs(stats, vendorContender.name, parseOnly.name).toFixed(2)} µs; ours − the vendor's per round ${signedUs(overVendor.median, 2)} µs (IQR ${signedUs(overVendor.q1, 2)} to ${signedUs(overVendor.q3, 2)})`;
    }
    return row;
  });
}

/** The vendor's contender that does the same work as one of ours (same decoding, same origins). */
function vendorTwin(contenders: readonly Contender[], c: Contender): Contender | undefined {
  if (!c.name.startsWith('streamReports')) return undefined;
  return contenders.find(
    (v) => v.name.startsWith('createStream') && v.name.includes('decodeReport') === c.name.includes('decode: true') && v.connections === c.connections,
  );
}

export async function benchStream(options: { quick?: boolean } = {}): Promise<Row[]> {
  const burstRounds = options.quick ? 1_000 : 5_000;
  const pacedRounds = options.quick ? 10 : 25;
  const repeats = options.quick ? 3 : 8;
  const service = await startService(burstRounds);
  const rows: Row[] = [];
  try {
    const undici = await rawUndici();
    // Each of ours next to the vendor's twin, so that within a repeat the two run back to back.
    const throughputContenders: Contender[] = [
      rawWs,
      ...(undici ? [undici] : []),
      ours(false, 1),
      vendor(false, 1),
      ours(true, 1),
      vendor(true, 1),
      ours(true, 2),
      vendor(true, 2),
    ];
    // Warm-up: one short run each (JIT, connection setup paths).
    for (const contender of throughputContenders) await throughputRun(service, contender, Math.min(500, burstRounds));
    const rates = new Map<Contender, number[]>(throughputContenders.map((c) => [c, []]));
    for (let r = 0; r < repeats; r++) {
      const order = r % 2 === 0 ? throughputContenders : [...throughputContenders].reverse();
      for (const contender of order) rates.get(contender)?.push(await throughputRun(service, contender, burstRounds));
    }
    const rate = (c: Contender) => median(rates.get(c) ?? []);
    for (const c of throughputContenders) {
      const twin = vendorTwin(throughputContenders, c);
      const runs = rates.get(c) ?? [];
      const row: Row = {
        bench: BENCH,
        name: `throughput, ${FEEDS.length} streams × ${Math.min(burstRounds, c.maxRounds ?? burstRounds)} reports: ${c.name}`,
        medianNs: 1e9 / rate(c),
        opsPerSec: rate(c),
        opsUnit: 'reports/s',
        note: `${runs.length} runs: ${(Math.min(...runs) / 1000).toFixed(1)}k–${(Math.max(...runs) / 1000).toFixed(1)}k`,
      };
      if (twin !== undefined) {
        // Paired by repeat: the ratio of two runs made back to back, then the median of those ratios.
        const theirs = rates.get(twin) ?? [];
        const ratios = pairedRatios(runs, theirs);
        row.baseline = twin.name;
        row.ratioSpread = spreadOf(ratios);
        row.ratio = row.ratioSpread.median;
        row.goal = "≥ the vendor's reports/s";
        Object.assign(row, verdict(row.ratioSpread, { atLeast: 1 }, (x) => `${x.toFixed(2)}×`));
        row.note = `${row.ratio.toFixed(2)}× the vendor's (median of ${ratios.length} paired runs, ${ratios.filter((x) => x >= 1).length} at or above 1); ${row.note}`;
      } else if (c !== rawWs) {
        row.baseline = rawWs.name;
        row.ratio = rate(c) / rate(rawWs);
      }
      rows.push(row);
    }

    const latencyContenders: Contender[] = [rawWs, ours(false, 1), vendor(false, 1), ours(true, 1), vendor(true, 1)];
    for (const contender of latencyContenders) await latencyRun(service, contender, Math.min(5, pacedRounds));
    const samples = new Map<Contender, number[]>(latencyContenders.map((c) => [c, []]));
    /** Per repeat: the contender's median minus the raw socket's median of the same repeat (ms). */
    const addedByRepeat = new Map<Contender, number[]>(latencyContenders.map((c) => [c, []]));
    for (let r = 0; r < repeats; r++) {
      const order = r % 2 === 0 ? latencyContenders : [...latencyContenders].reverse();
      const medians = new Map<Contender, number>();
      for (const contender of order) {
        const latencies = await latencyRun(service, contender, pacedRounds);
        samples.get(contender)?.push(...latencies);
        medians.set(contender, median(latencies));
      }
      for (const c of latencyContenders) addedByRepeat.get(c)?.push((medians.get(c) as number) - (medians.get(rawWs) as number));
    }
    const added = (c: Contender) => median(addedByRepeat.get(c) ?? []);
    for (const c of latencyContenders) {
      const values = [...(samples.get(c) ?? [])].sort((a, b) => a - b);
      const row: Row = {
        bench: BENCH,
        name: `latency, send → consumer, one report every 2 ms: ${c.name}`,
        medianNs: median(values) * 1e6,
        p99Ns: quantile(values, 0.99) * 1e6,
        note: `${values.length} reports over ${repeats} runs`,
      };
      if (c !== rawWs) {
        row.baseline = rawWs.name;
        row.ratio = median(values) / median(samples.get(rawWs) ?? []);
        row.note = `${signed(added(c))} µs/report over the raw socket (median of per-run differences); ${row.note}`;
      }
      const twin = vendorTwin(latencyContenders, c);
      if (twin !== undefined) {
        // Ours minus the vendor's added latency, repeat by repeat.
        const overVendor = spreadOf(pairedDifferences(addedByRepeat.get(c) ?? [], addedByRepeat.get(twin) ?? []));
        row.goal = "added latency ≤ the vendor's";
        Object.assign(row, verdict(overVendor, { atMost: 0 }, (ms) => `${signed(ms)} µs`));
        row.note += `; the vendor: ${signed(added(twin))} µs`;
      }
      rows.push(row);
    }
  } finally {
    await service.close();
  }
  rows.push(...(await inMemoryRows(options.quick === true)));
  rows.push(...(await verifyCostRows(options.quick === true)));
  return rows;
}
