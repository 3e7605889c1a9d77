/**
 * 4. Pagination: 100,000 wallets over 1,000 pages of 100 from the local
 * server with `paginate(channels, '/wallets', { pageSize: 100 })`, against a
 * bare loop of `fetch` + `res.json()` following `has_more`. Then memory: the
 * walk again, sampling `process.memoryUsage().heapUsed` at every page (after
 * a full GC when one is available), to show the heap is bounded by a page:
 * the peak after 10 pages against the peak after 1,000.
 */
import { createChannelsClient, paginate } from '../src/channels/index.js';
import { deltaUs, signed } from './rows.js';
import { WALLET_TOTAL, type BenchServer } from './server.js';
import type { Stats } from './measure.js';
import { quantile } from './measure.js';
import type { Row } from './table.js';

const BENCH = '4 pagination';
const PAGE_SIZE = 100;
/** Growth of the peak heap from 10 to 1,000 pages that still counts as flat. */
export const FLAT_HEAP_SLACK_MB = 1;

interface Walk {
  items: number;
  pages: number;
  totalNs: number;
  pageNs: number[];
}

async function walk(iterate: () => AsyncIterable<unknown>, onPage?: (page: number) => void): Promise<Walk> {
  const pageNs: number[] = [];
  let items = 0;
  const t0 = process.hrtime.bigint();
  let pageStart = t0;
  for await (const item of iterate()) {
    if (item === undefined) throw new Error('empty item');
    items++;
    if (items % PAGE_SIZE === 0) {
      const now = process.hrtime.bigint();
      pageNs.push(Number(now - pageStart));
      onPage?.(items / PAGE_SIZE);
      pageStart = process.hrtime.bigint();
    }
  }
  const totalNs = Number(process.hrtime.bigint() - t0);
  return { items, pages: pageNs.length, totalNs, pageNs };
}

function stats(w: Walk): Stats {
  const sorted = [...w.pageNs].sort((a, b) => a - b);
  return {
    medianNs: quantile(sorted, 0.5),
    p99Ns: quantile(sorted, 0.99),
    opsPerSec: (w.items * 1e9) / w.totalNs,
    samples: sorted.length,
    batch: 1,
    // One walk each: a single "round" (the page-time difference is informational, no goal).
    perRound: [quantile(sorted, 0.5)],
  };
}

interface HeapWalk {
  /** MB over the heap before the walk. */
  peak10: number;
  peakAll: number;
  last: number;
  pages: number;
  seconds: number;
}

/** One walk, with the heap read (after a full GC when available) at pages 1–10 and every 10th page after. */
async function heapWalk(iterate: () => AsyncIterable<unknown>, gc: (() => void) | undefined): Promise<HeapWalk> {
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const heap: number[] = [];
  const w = await walk(iterate, (page) => {
    if (gc !== undefined && page > 10 && page % 10 !== 0) return;
    gc?.();
    heap.push(process.memoryUsage().heapUsed - baseline);
  });
  const mb = (bytes: number): number => bytes / 1_048_576;
  return {
    peak10: mb(Math.max(...heap.slice(0, 10))),
    peakAll: mb(Math.max(...heap)),
    last: mb(heap.at(-1) ?? Number.NaN),
    pages: w.pages,
    seconds: w.totalNs / 1e9,
  };
}

export async function benchPagination(server: BenchServer, gc: (() => void) | undefined): Promise<Row[]> {
  const baseUrl = `${server.url}/v1`;
  const channels = createChannelsClient({ apiKey: 'bench-api-key', baseUrl });
  const ours = () => paginate(channels, '/wallets', { pageSize: PAGE_SIZE });
  const headers = { Authorization: 'Apikey bench-api-key' };
  async function* bare(): AsyncGenerator<unknown> {
    for (let offset = 0; ; ) {
      const res = await fetch(`${baseUrl}/wallets?limit=${PAGE_SIZE}&offset=${offset}`, { headers });
      const page = (await res.json()) as { data: unknown[]; has_more: boolean };
      yield* page.data;
      if (!page.has_more || page.data.length === 0) return;
      offset += page.data.length;
    }
  }

  // Memory first, on a clean heap: the walk with the default client, and with one without its
  // per-attempt timeout (whose AbortSignal.timeout objects live until their timers fire).
  const untimed = createChannelsClient({ apiKey: 'bench-api-key', baseUrl, timeoutMs: 0 });
  for await (const _ of paginate(untimed, '/wallets', { pageSize: PAGE_SIZE, maxItems: 5_000 })) void _; // warm-up
  const memUntimed = await heapWalk(() => paginate(untimed, '/wallets', { pageSize: PAGE_SIZE }), gc);
  const memDefault = await heapWalk(ours, gc);

  // Throughput: one full walk each, the bare loop first and last (the better one counts).
  const bare1 = await walk(bare);
  gc?.();
  const rawBase = process.memoryUsage().heapUsed;
  let rawPeak = 0;
  const walkOurs = await walk(ours, () => {
    rawPeak = Math.max(rawPeak, process.memoryUsage().heapUsed - rawBase);
  });
  const bare2 = await walk(bare);
  for (const w of [bare1, walkOurs, bare2]) {
    if (w.items !== WALLET_TOTAL) throw new Error(`walked ${w.items} items, expected ${WALLET_TOTAL}`);
  }
  const bareWalk = bare1.totalNs <= bare2.totalNs ? bare1 : bare2;
  const map = new Map<string, Stats>([
    ['bare', stats(bareWalk)],
    ['ours', stats(walkOurs)],
  ]);
  const how = gc === undefined ? 'no GC exposed: figures include garbage' : 'after a full GC at pages 1–10, then every 10th';
  const growthKB = (m: HeapWalk): number => ((m.peakAll - m.peak10) * 1024 * 1024) / 1024 / (m.pages - 10);

  const pageRow = (name: string, key: string, extra: Partial<Row> = {}): Row => {
    const s = map.get(key) as Stats;
    return { bench: BENCH, name, medianNs: s.medianNs, p99Ns: s.p99Ns, opsPerSec: s.opsPerSec, opsUnit: 'items/s', ...extra };
  };
  const ratio = (map.get('ours')?.opsPerSec ?? NaN) > 0 ? (walkOurs.totalNs / bareWalk.totalNs) : NaN;
  return [
    pageRow(`bare fetch loop: ${WALLET_TOTAL.toLocaleString('en')} items / ${bareWalk.pages} pages (per page)`, 'bare', {
      note: `total ${(bareWalk.totalNs / 1e9).toFixed(2)} s`,
    }),
    pageRow(`paginate(channels, '/wallets', { pageSize: ${PAGE_SIZE} }) (per page)`, 'ours', {
      baseline: 'bare fetch loop',
      ratio,
      note: `total ${(walkOurs.totalNs / 1e9).toFixed(2)} s; ${signed(deltaUs(map, 'ours', 'bare'))} µs/page (median)`,
    }),
    {
      bench: BENCH,
      name: 'heap peak − baseline during the timed walk (garbage included)',
      value: rawPeak / 1_048_576,
      unit: 'MB',
      note: 'bounded by the young generation, not by the list',
    },
    { bench: BENCH, name: 'heap − baseline: peak over pages 1–10', value: memDefault.peak10, unit: 'MB', note: how },
    {
      bench: BENCH,
      name: `heap − baseline: peak over all ${memDefault.pages} pages`,
      value: memDefault.peakAll,
      unit: 'MB',
      goal: `flat: ≤ 10-page peak + ${FLAT_HEAP_SLACK_MB} MB`,
      pass: memDefault.peakAll <= memDefault.peak10 + FLAT_HEAP_SLACK_MB,
      note: `after the last page ${memDefault.last.toFixed(2)} MB; ${growthKB(memDefault).toFixed(2)} kB more per page; walk took ${memDefault.seconds.toFixed(1)} s`,
    },
    {
      bench: BENCH,
      name: `same walk, client with timeoutMs: 0 (diagnostic)`,
      value: memUntimed.peakAll,
      unit: 'MB',
      note: `peak over pages 1–10 ${memUntimed.peak10.toFixed(2)} MB; ${growthKB(memUntimed).toFixed(2)} kB more per page`,
    },
  ];
}
