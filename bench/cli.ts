/**
 * 11. The command line as users run it: whole processes of the built bin
 * (tsc into node_modules/.cache, so the bin resolves the package's own
 * dependencies), side by side with bare `node -e 0`:
 * - `service-sdk --help` start-up, goal within 1.5× `node -e 0`;
 * - `service-sdk mcp --sandbox` start-up (spawn to its answer to `initialize`,
 *   every tool and the sandbox ready), goal within 2× `--help`;
 * - one request (`channels list-channels --limit 1`, its parameters checked
 *   with the generated request checks) against a sandbox listening here,
 *   goal within 2.5× `node -e 0`;
 * - peak RSS of `--all` over 10,000 and 100,000 items from a local paging
 *   server, and the goal of flat memory: 200,000 items complete with V8's
 *   old space capped at 32 MB.
 * Start-up runs alternate hyperfine-style (one run of each command per round,
 * the order alternating from round to round, harness.ts); each ratio is the
 * median of the per-round ratios, with its spread.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSandbox } from '../src/sandbox/index.js';
import { median, pairedRatios, runRounds, spreadOf, type Workload, type WorkloadResult } from './harness.js';
import { verdict } from './rows.js';
import type { Row } from './table.js';

const BENCH = '11 command line';
const root = join(import.meta.dirname, '..');

interface Finished {
  wallMs: number;
  code: number | null;
  maxRssKb: number | undefined;
}

/** Runs `node <args>` to its end; with `rssFile`, the child writes its peak RSS (kB) there on exit. */
function runNode(args: string[], env: NodeJS.ProcessEnv = process.env, rssFile?: string): Promise<Finished> {
  const preload = rssFile === undefined ? [] : ['--import', `data:text/javascript,${encodeURIComponent(`import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));`)}`];
  const t0 = performance.now();
  const child = spawn(process.execPath, [...preload, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const wallMs = performance.now() - t0;
      resolve({ wallMs, code, maxRssKb: rssFile === undefined ? undefined : peakRss(rssFile) });
    });
  });
}

/** The peak RSS a child wrote on exit; undefined when it died without exiting (out of memory). */
function peakRss(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A channels-shaped list of `total` wallets, 100 per page. */
async function pagingServer(total: number): Promise<{ origin: string; close: () => Promise<void> }> {
  const padding = 'x'.repeat(200);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const count = Math.max(0, Math.min(limit, total - offset));
    const data = Array.from({ length: count }, (_, i) => ({ wallet_id: `w-${offset + i}`, name: `wallet ${offset + i}`, padding }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, has_more: offset + count < total }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A start-up timed against another command (`baseline`, by name) in the same rounds, with its goal
 * of at most `goal` times the baseline. `time` runs it once and gives its time in ms (a process' wall
 * time, or until its first answer).
 */
interface StartUpCommand {
  name: string;
  time: () => Promise<number>;
  baseline?: string;
  goal?: number;
}

/** Runs `node <args>` once; its wall time (ms), or throws if it fails. */
async function processTime(name: string, args: string[], env?: NodeJS.ProcessEnv): Promise<number> {
  const run = await runNode(args, env);
  if (run.code !== 0) throw new Error(`${name} exited ${run.code}`);
  return run.wallMs;
}

/**
 * The start-up commands, hyperfine-style: every command once per round, the order alternating from round
 * to round (harness.ts); each ratio is the median of the per-round ratios to its baseline. The harness's
 * clock is the sum of the times the commands report, so each is timed as `time` says.
 */
async function startUpRows(commands: StartUpCommand[], rounds: number): Promise<Row[]> {
  let elapsedNs = 0;
  const workload = (c: StartUpCommand): Workload => ({
    name: c.name,
    run: async (count: number) => {
      for (let i = 0; i < count; i++) elapsedNs += (await c.time()) * 1e6;
    },
  });
  // One run per turn, one warm-up run each (disk caches), no GC (the work is in the children).
  const results = await runRounds(commands.map(workload), { rounds, samplesPerRound: 1, warmup: 1, minBatchNs: 0, gc: false, now: () => elapsedNs });
  const byName = new Map(results.map((r) => [r.name, r]));
  const ms = (r: WorkloadResult): number => Number((median(r.perRound) / 1e6).toFixed(1));
  return commands.map((c, i): Row => {
    const r = results[i] as WorkloadResult;
    const base = c.baseline === undefined ? undefined : byName.get(c.baseline);
    if (base === undefined || c.goal === undefined) return { bench: BENCH, name: c.name, value: ms(r), unit: 'ms', note: `median of ${rounds} rounds` };
    const spread = spreadOf(pairedRatios(r.perRound, base.perRound));
    return {
      bench: BENCH,
      name: c.name,
      value: ms(r),
      unit: 'ms',
      baseline: base.name,
      ratio: spread.median,
      ratioSpread: spread,
      goal: `≤ ${c.goal}× ${base.name.replace(' (process)', '')}`,
      ...verdict(spread, { atMost: c.goal }, (x) => `${x.toFixed(2)}×`),
      note: `${base.name.replace(' (process)', '')} in the same rounds: ${ms(base)} ms`,
    };
  });
}

/** `service-sdk mcp --sandbox`: from spawn to its answer to an MCP `initialize` over stdio (its tools and sandbox made by then); then stdin closes and it exits. */
function mcpStartup(bin: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'mcp', '--sandbox'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
  child.stdin.write(`${JSON.stringify(initialize)}\n`);
  return new Promise((resolve, reject) => {
    let output = '';
    let answeredMs: number | undefined;
    child.once('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (answeredMs === undefined && output.includes('"id":1')) {
        answeredMs = performance.now() - t0;
        child.stdin.end();
      }
    });
    child.once('close', (code) => (answeredMs === undefined ? reject(new Error(`service-sdk mcp --sandbox exited ${code} before answering initialize`)) : resolve(answeredMs)));
  });
}

export async function benchCli({ quick = false }: { quick?: boolean } = {}): Promise<Row[]> {
  const out = join(root, 'node_modules', '.cache', 'cli-bench');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', join(out, 'dist')], { cwd: root, stdio: 'inherit' });
  // As installed, dist/ sits beside the package's package.json ("type": "module"). Without one, Node
  // (20.19+) cannot tell the .js files' module system and compiles each as CommonJS first, then as ESM.
  // The package's `imports` (`#node-server`… that `mcp --sandbox` reaches) resolve as installed: the files they name copied beside dist/.
  const { imports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports: object };
  writeFileSync(join(out, 'package.json'), JSON.stringify({ private: true, type: 'module', imports }));
  for (const shipped of ['src/platform', 'generated/wasm']) cpSync(join(root, shipped), join(out, shipped), { recursive: true });
  const bin = join(out, 'dist', 'src', 'cli', 'bin.js');
  const runs = quick ? 5 : 20;
  const rows: Row[] = [];
  try {
    // Start-up: each command once per round, against bare node (or --help, for the MCP server).
    const sandbox = createSandbox();
    const listener = await sandbox.listen();
    try {
      const env = { ...process.env, SERVICE_SDK_CHANNELS_BASE_URL: listener.baseUrls.channels, SERVICE_SDK_CHANNELS_API_KEY: sandbox.credentials.channels.apiKey };
      const bare = 'node -e 0 (process)';
      const help = 'service-sdk --help (process)';
      const commands: StartUpCommand[] = [
        { name: bare, time: () => processTime(bare, ['-e', '0']) },
        { name: help, time: () => processTime(help, [bin, '--help']), baseline: bare, goal: 1.5 },
        { name: 'service-sdk mcp --sandbox to its initialize answer (process)', time: () => mcpStartup(bin), baseline: help, goal: 2 },
        {
          name: 'service-sdk channels list-channels --limit 1 (process, sandbox)',
          time: () => processTime('service-sdk channels list-channels --limit 1', [bin, 'channels', 'list-channels', '--limit', '1'], env),
          baseline: bare,
          goal: 2.5,
        },
      ];
      rows.push(...(await startUpRows(commands, runs)));
    } finally {
      await listener.close();
      sandbox.close();
    }

    // Peak memory of --all, 10,000 and 100,000 items. Peak RSS also counts garbage V8 has not
    // collected yet (it lets the heap grow while memory is plentiful), so flatness is shown apart:
    // 200,000 items with the old space capped at 32 MB, where kept items would need 50 MB more.
    const walk = async (total: number, nodeFlags: string[] = []) => {
      const server = await pagingServer(total);
      try {
        const rssFile = join(out, `rss-${total}.txt`);
        const env = { ...process.env, SERVICE_SDK_CHANNELS_BASE_URL: server.origin, SERVICE_SDK_CHANNELS_API_KEY: 'bench' };
        return await runNode([...nodeFlags, bin, 'channels', 'list-wallets', '--all', '--limit', '100'], env, rssFile);
      } finally {
        await server.close();
      }
    };
    for (const total of [10_000, 100_000]) {
      const run = await walk(total);
      if (run.code !== 0) throw new Error(`--all over ${total} items exited ${run.code}`);
      rows.push({
        bench: BENCH,
        name: `--all over ${total.toLocaleString('en')} items: peak RSS`,
        value: Number((run.maxRssKb! / 1024).toFixed(1)),
        unit: 'MB',
        note: `${(total / (run.wallMs / 1000)).toFixed(0)} items/s`,
      });
    }
    const capped = await walk(200_000, ['--max-old-space-size=32']);
    rows.push({
      bench: BENCH,
      name: '--all over 200,000 items, old space capped at 32 MB',
      ...(capped.maxRssKb === undefined ? {} : { value: Number((capped.maxRssKb / 1024).toFixed(1)), unit: 'MB' }),
      goal: 'completes (flat memory)',
      pass: capped.code === 0 && capped.maxRssKb !== undefined,
      note: `exit ${capped.code}, ${(200_000 / (capped.wallMs / 1000)).toFixed(0)} items/s`,
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}
