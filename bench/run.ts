/**
 * `npm run bench`: every bench, one after another in this one process, then
 * one table on the terminal and `bench/results.json` (figures + machine).
 *
 *   npm run bench                    all of them; writes bench/results.json
 *   npm run bench -- client hmac     only these (client, signing, hmac, pagination,
 *                                    polling, size, generation, decode, stream, sandbox, cli,
 *                                    verify); prints only
 *   npm run bench -- --quick         fewer samples (a smoke test)
 *
 * `npm run bench` runs node with --expose-gc: the harness (harness.ts) runs a
 * full GC before every turn of a comparison, and the pagination and sandbox
 * benches read heap figures after one. Run some other way, a GC is made
 * available in-process (V8 flag + a fresh context) for those heap figures.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { benchCli } from './cli.js';
import { benchClientOverhead } from './client-overhead.js';
import { benchDecodeRows } from './decode-rows.js';
import { benchGeneration } from './generation.js';
import { benchHmac } from './hmac.js';
import { benchPagination } from './pagination.js';
import { benchPolling } from './polling.js';
import { startServer, type BenchServer } from './server.js';
import { benchSandbox } from './sandbox.js';
import { benchStream } from './stream.js';
import { benchSigning } from './signing.js';
import { benchSizeStart } from './size-start.js';
import { benchVerify } from './verify.js';
import { printTable, type Row } from './table.js';

const BENCHES = ['hmac', 'decode', 'pagination', 'client', 'signing', 'polling', 'size', 'generation', 'stream', 'sandbox', 'cli', 'verify'] as const;
type BenchName = (typeof BENCHES)[number];

function exposeGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`;
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism(),
    totalMemGB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
    undici: process.versions.undici,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const picked = args.filter((a) => !a.startsWith('--'));
  for (const name of picked) {
    if (!(BENCHES as readonly string[]).includes(name)) throw new Error(`unknown bench ${name}; one of ${BENCHES.join(', ')}`);
  }
  const selected = new Set<BenchName>(picked.length === 0 ? BENCHES : (picked as BenchName[]));
  const full = picked.length === 0 && !quick;
  const scale = quick ? 0.2 : 1;

  const gc = exposeGc();
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  const uptimeBefore = uptime();
  console.log(`bench: ${[...selected].join(', ')}${quick ? ' (quick)' : ''}; ${uptimeBefore}`);

  const rows: Row[] = [];
  const timings: Record<string, number> = {};
  let server: BenchServer | undefined;
  const needsServer = ['client', 'signing', 'pagination', 'polling'].some((b) => selected.has(b as BenchName));
  if (needsServer) server = await startServer();
  try {
    const step = async (name: BenchName, run: () => Promise<Row[]>): Promise<void> => {
      if (!selected.has(name)) return;
      const t0 = performance.now();
      process.stdout.write(`  ${name} … `);
      const got = await run();
      rows.push(...got);
      timings[name] = Math.round(performance.now() - t0);
      console.log(`${(timings[name] / 1000).toFixed(1)} s`);
    };
    const srv = (): BenchServer => {
      if (server === undefined) throw new Error('server not started');
      return server;
    };
    // CPU-only benches first, and pagination (heap figures) before the request benches,
    // whose per-request timeout signals stay on the heap for 30 s.
    await step('hmac', () => benchHmac({ scale }));
    await step('decode', () => benchDecodeRows(quick ? { rounds: 8, warmupMs: 100 } : {}));
    await step('pagination', () => benchPagination(srv(), gc));
    await step('client', () => benchClientOverhead(srv(), { scale, gc }));
    await step('signing', () => benchSigning(srv(), { scale }));
    await step('polling', () => benchPolling(srv()));
    await step('size', () => benchSizeStart());
    await step('generation', () => benchGeneration());
    await step('stream', () => benchStream({ quick }));
    await step('sandbox', () => benchSandbox({ scale, gc }));
    await step('cli', () => benchCli({ quick }));
    await step('verify', () => benchVerify({ scale }));
  } finally {
    await server?.close();
  }

  // The table in bench order (1 … 8), whatever order they ran in.
  const number = (r: Row): number => Number.parseInt(r.bench, 10);
  rows.sort((a, b) => number(a) - number(b));
  const finishedAt = new Date();
  const uptimeAfter = uptime();
  console.log('');
  printTable(rows);
  const misses = rows.filter((r) => r.pass === false);
  const undecided = rows.filter((r) => r.pass === 'undecided');
  const names = (list: Row[]): string => (list.length ? `: ${list.map((m) => m.name).join('; ')}` : '');
  console.log('');
  console.log(`${rows.filter((r) => r.pass === true).length} goals met, ${misses.length} missed${names(misses)}, ${undecided.length} undecided${names(undecided)}`);
  console.log(`after: ${uptimeAfter}`);

  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    machine: machine(),
    load: {
      before: loadBefore.map((l) => Number(l.toFixed(2))),
      after: os.loadavg().map((l) => Number(l.toFixed(2))),
      uptimeBefore,
      uptimeAfter,
    },
    gcExposed: gc !== undefined,
    quick,
    benchSeconds: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, v / 1000])),
    rows,
  };
  if (full || args.includes('--write')) {
    const file = join(import.meta.dirname, 'results.json');
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
