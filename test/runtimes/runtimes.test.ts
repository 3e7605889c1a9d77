// Every runtime the README names, running the packed package as a user would
// (test/runtimes/support/user-script.mjs): every entry imported, a signed GET
// and a signed bulk request accepted by a server that verifies the HMAC, a
// wrong secret refused, reports of every schema version decoded exactly as
// viem decodes them, a typed ApiError, `paginate` across two pages, and the
// sandbox entry in process (a wallet created and read back, a report found by
// discovery and decoded). Node, Bun, Deno and workerd also stream reports
// live from a sandbox listening here (workerd through `fetch` with `Upgrade:
// websocket`); edge-runtime and browser or worker bundles, where no WebSocket
// sends headers, get the stream's typed error instead, with their reason.
//
// The package is packed and installed once; each runtime then runs the same
// script against its own local server. A runtime that cannot start fails its
// test: nothing here is skipped.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { API_VERSION as CHANNELS } from '../../generated/operations/channels.js';
import { API_VERSION as POLICY_COORDINATOR } from '../../generated/operations/policy-coordinator.js';
import { API_VERSION as POLICY_EVALUATION } from '../../generated/operations/policy-evaluation.js';
import { API_VERSION as POLICY_REPORTING } from '../../generated/operations/policy-reporting.js';
import { API_VERSION as STREAMS } from '../../generated/operations/streams.js';
import { REPORT_SCAN_WASM } from '../../generated/wasm/report-scan.js';
import { jsRuntimes, type JsRuntimes } from './support/js-runtimes.js';
import { nodeBinaries, type NodeBinary } from './support/node-versions.js';
import { reportFixtures, type ReportFixture } from './support/report-fixtures.js';
import { FIRST_DISCOVERED_FEED_ID, LIVE_FEED_ID, sandboxReport, startLiveSandbox, type LiveSandbox } from './support/live-sandbox.js';
import { createRuntimeProject } from './support/runtime-project.js';
import {
  bundle,
  bunRunner,
  EDGE_LIGHT_CONDITIONS,
  denoRunner,
  edgeRuntimeRunner,
  nodeRunner,
  workerdRunner,
  WORKERD_CONDITIONS,
  type WorkerLoading,
  type Runner,
  type RuntimeRun,
} from './support/runners.js';
import { MISSING_WALLET_ID, startVerifyingServer, WALLET_NAMES, type VerifyingServer } from './support/verifying-server.js';

const fixtures: ReportFixture[] = reportFixtures();
let tmp = '';
let project = '';
/** Installed from their own lockfiles while the package packs; a failure surfaces in the tests of those runtimes. */
let nodes: Promise<Record<string, NodeBinary>>;
let others: Promise<JsRuntimes>;

beforeAll(async () => {
  nodes = nodeBinaries();
  nodes.catch(() => undefined);
  others = jsRuntimes();
  others.catch(() => undefined);
  ({ tmp, project } = await createRuntimeProject());
}, 300_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface RunResult {
  run: RuntimeRun;
  server: VerifyingServer;
  /** Live reports from a listening sandbox, or the reason the runtime must give for refusing to stream (typed). */
  stream: LiveOrRefused;
}

/** A runtime streams live, or refuses with ReportStreamUnsupportedError and a reason that fits it. */
type LiveOrRefused = 'live' | { refusedWith: RegExp };

/** What a browser or a web worker bundle says (a Worker bundled without the `workerd` condition is one). */
const BROWSER_REFUSAL = { refusedWith: /cannot open a report stream here: a browser's or web worker's WebSocket cannot send request headers.*`workerd` condition/ };
const EDGE_REFUSAL = { refusedWith: /cannot open a report stream here: Vercel's Edge Runtime has no WebSocket that sends request headers/ };

async function runWithServer(runner: Runner, stream: LiveOrRefused): Promise<RunResult> {
  const server = await startVerifyingServer(fixtures);
  let live: LiveSandbox | undefined;
  try {
    if (stream === 'live') live = await startLiveSandbox();
    return { run: await runner(project, server.origin, live?.target), server, stream };
  } finally {
    await Promise.all([server.close(), live?.close()]);
  }
}

interface SandboxReportCheck {
  feedID: string;
  observationsTimestamp: number;
  fullReport: string;
  decoded: string;
}

/** The sandbox's report of that stream and second, decoded as Node decodes it (not just any report that decodes). */
const sandboxReportOf = (feedID: string, { observationsTimestamp }: { observationsTimestamp: number }) => ({
  feedID,
  observationsTimestamp,
  ...sandboxReport(feedID, observationsTimestamp),
});

/** The live stream: two reports of the stream, in order, those the sandbox published; or, where it cannot run, the typed error. */
function expectLiveStream(expect: ExpectStatic, { run, stream }: RunResult): void {
  const liveStream = run.checks.liveStream as { reports?: SandboxReportCheck[] };
  if (stream !== 'live') {
    expect(liveStream).toEqual({
      name: 'ReportStreamUnsupportedError',
      isSdkError: true,
      unsupported: true,
      message: expect.stringMatching(stream.refusedWith),
    });
    return;
  }
  const reports = liveStream.reports ?? [];
  expect(liveStream).toEqual({
    listed: { origins: ['001', '002'], discovered: true },
    connected: expect.arrayContaining([expect.stringMatching(/^00[12]$/)]),
    reports: reports.map((report) => sandboxReportOf(LIVE_FEED_ID, report)),
    skipped: 0,
    // A wrong secret: the upgrade refused, typed, as in every runtime that streams.
    refused: { name: 'ReportStreamAuthError', isSdkError: true, status: 401, origin: '001' },
  });
  expect(reports.length, 'two reports within 30 s').toBe(2);
  expect(reports[1]!.observationsTimestamp).toBeGreaterThan(reports[0]!.observationsTimestamp);
}

/** What the user script must report in every runtime, and what the server must have seen. */
function expectEveryCheck(expect: ExpectStatic, result: RunResult): void {
  const { run, server } = result;
  const everyVersion = Object.fromEntries(fixtures.map((f) => [f.version, 'matches viem']));
  const v3 = fixtures.find((f) => f.version === 'V3')!;
  const sandboxLatest = (run.checks.sandbox as { latest?: SandboxReportCheck } | undefined)?.latest;
  expect(run.checks).toEqual({
    entries: {
      channels: CHANNELS,
      streams: STREAMS,
      policy: [POLICY_COORDINATOR, POLICY_EVALUATION, POLICY_REPORTING],
      policyClients: ['coordinator', 'evaluation', 'reporting'],
      sameDecoder: true,
    },
    decoded: everyVersion,
    latest: { feedID: v3.feedID, decoded: 'matches viem' },
    bulk: { complete: true, missingFeedIDs: [], decoded: everyVersion },
    wrongSecret: { name: 'ApiError', isApiError: true, isSdkError: true, status: 401, type: 'UNAUTHORIZED', code: null },
    notFound: {
      name: 'ApiError',
      isApiError: true,
      isSdkError: true,
      status: 404,
      type: 'NOT_FOUND',
      code: 'WALLET_NOT_FOUND',
      narrowed: true,
    },
    paginated: WALLET_NAMES,
    sandbox: {
      wallet: { sameId: true, name: 'runtime-wallet', chain_selector: '16015286601757825753' },
      latest:
        sandboxLatest === undefined
          ? 'the latest report'
          : { ...sandboxReportOf(FIRST_DISCOVERED_FEED_ID, sandboxLatest), sameFeed: true, sameTime: true },
      // verifyReport in every runtime: the sandbox's report is signed by f + 1 = 2 of its oracle network.
      verification: { valid: true, signers: 2 },
      // A stream on a client made with `fetch: sandbox.fetch` and no URL: from the sandbox, in process, in every runtime.
      streamed: { sameFeed: true, decodes: true, notBeforeLatest: true, origins: ['001', '002'], skipped: 0 },
    },
    liveStream: expect.anything(),
  });
  // The in-process sandbox runs with real time: its latest report is of about now.
  expect(Math.abs(sandboxLatest!.observationsTimestamp - Date.now() / 1000)).toBeLessThan(120);
  expectLiveStream(expect, result);
  // The signatures the server checked: the two requests signed with the secret passed, the other did not.
  expect(server.signed).toEqual([
    { method: 'GET', target: `/api/v1/reports/latest?feedID=${v3.feedID}`, accepted: true },
    { method: 'GET', target: expect.stringMatching(/^\/api\/v1\/reports\/bulk\?/), accepted: true },
    { method: 'GET', target: `/api/v1/reports/latest?feedID=${v3.feedID}`, accepted: false },
  ]);
  expect(server.signed[1]!.target).toContain(fixtures.map((f) => f.feedID).join(','));
  expect(server.channels).toEqual([
    `/v1/wallets/${MISSING_WALLET_ID}`,
    expect.stringMatching(/^\/v1\/wallets\?(?=.*\boffset=0\b)(?=.*\blimit=2\b)/),
    expect.stringMatching(/^\/v1\/wallets\?(?=.*\boffset=2\b)(?=.*\blimit=2\b)/),
  ]);
}

interface RuntimeCase {
  name: string;
  runner: () => Promise<Runner>;
  /** What the runtime says it is. */
  expectedRuntime: () => Promise<string>;
  /** Whether it can send the signed headers on a WebSocket (Node through `ws`, Bun and Deno natively, workerd through `fetch`) and so streams live. */
  stream: LiveOrRefused;
}

const installedNode = (name: string): RuntimeCase => ({
  name: `Node ${name.slice('node'.length)}`,
  runner: async () => nodeRunner((await nodes)[name]!.path),
  expectedRuntime: async () => `Node ${(await nodes)[name]!.version}`,
  stream: 'live',
});

const RUNTIMES: RuntimeCase[] = [
  {
    name: `Node ${process.versions.node.split('.')[0]} (running the tests)`,
    runner: async () => nodeRunner(process.execPath),
    expectedRuntime: async () => `Node ${process.versions.node}`,
    stream: 'live',
  },
  installedNode('node22'),
  installedNode('node24'),
  { name: 'Bun', runner: async () => bunRunner, expectedRuntime: async () => `Bun ${(await others).bun.version}`, stream: 'live' },
  { name: 'Deno', runner: async () => denoRunner, expectedRuntime: async () => `Deno ${(await others).deno.version}`, stream: 'live' },
  { name: 'workerd (miniflare)', runner: async () => workerdRunner(), expectedRuntime: async () => 'workerd', stream: 'live' },
  { name: 'edge-runtime', runner: async () => edgeRuntimeRunner, expectedRuntime: async () => 'edge-runtime', stream: EDGE_REFUSAL },
];

describe.concurrent('the packed package, run by a user script', () => {
  for (const runtime of RUNTIMES) {
    it(`in ${runtime.name}`, { timeout: 120_000 }, async ({ expect }) => {
      const result = await runWithServer(await runtime.runner(), runtime.stream);
      expect(result.run.runtime).toBe(await runtime.expectedRuntime());
      expectEveryCheck(expect, result);
      // WebAssembly scans the reports in every one of them (workerd: the .wasm module of the `workerd` condition).
      expect(result.run.scanEngine).toBe('wasm');
    });
  }
});

describe.concurrent('workerd and the .wasm module', () => {
  it('the `workerd` condition brings the scan as a .wasm module, not as base64', async ({ expect }) => {
    const bundled = await bundle(join(project, 'worker.mjs'), WORKERD_CONDITIONS, 'esm');
    // The scan's, and libsecp256k1 for verifyReport and the sandbox's signatures (never as base64 here).
    expect([...bundled.wasmModules.keys()]).toEqual(['report-scan.wasm', 'secp256k1.wasm']);
    expect(bundled.code).toMatch(/import \w+ from "\.\/report-scan\.wasm"/);
    expect(bundled.code).toMatch(/import \w+ from "\.\/secp256k1\.wasm"/);
    expect(bundled.code).not.toContain((REPORT_SCAN_WASM as string).slice(0, 64));
  });

  it('without it, workerd refuses to compile the base64 module and decodes with the JavaScript scan, the same', { timeout: 120_000 }, async ({ expect }) => {
    const result = await runWithServer(workerdRunner(['worker', 'browser']), BROWSER_REFUSAL);
    expect(result.run.runtime).toBe('workerd');
    expect(result.run.scanEngine).toBe('js');
    expectEveryCheck(expect, result);
  });
});

// A bundle of every entry for browsers or workers holds no `import()` of a
// variable (miniflare refuses such a module when it collects a Worker's
// imports itself) and nothing of Node: it starts in each way miniflare takes
// a Worker, and runs every check, the stream refused with the browser's reason.
describe.concurrent('a browser or worker bundle of every entry, in workerd', () => {
  const cases: { conditions: string[]; loading: WorkerLoading }[] = [
    { conditions: ['worker', 'browser'], loading: 'collected-modules' },
    { conditions: ['browser'], loading: 'collected-modules' },
    { conditions: ['worker', 'browser'], loading: 'script' },
    { conditions: ['browser'], loading: 'script' },
  ];
  it('holds no import() of a variable and no Node module, for browsers, workers, workerd or the edge', async ({ expect }) => {
    for (const conditions of [['browser'], ['worker', 'browser'], WORKERD_CONDITIONS, EDGE_LIGHT_CONDITIONS]) {
      const { code } = await bundle(join(project, 'worker.mjs'), conditions, 'esm');
      expect(code.match(/\bimport\((?!\s*["'])[^)]*\)/g) ?? [], conditions.join(', ')).toEqual([]);
      // No import or require of a Node module or of `ws`, nor `ws` bundled (`getBuiltinModule('node:crypto')` is no import).
      const nodeImports = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](?:node:[a-z/_]+|ws)["']|\bws\/lib\//g;
      expect(code.match(nodeImports) ?? [], conditions.join(', ')).toEqual([]);
    }
  });

  for (const { conditions, loading } of cases) {
    it(`conditions ${conditions.join(', ')}, loaded as ${loading}`, { timeout: 120_000 }, async ({ expect }) => {
      const result = await runWithServer(workerdRunner(conditions, loading), BROWSER_REFUSAL);
      expect(result.run.runtime).toBe('workerd');
      expectEveryCheck(expect, result);
    });
  }
});
