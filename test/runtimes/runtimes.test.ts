// Every runtime the README names, running the packed package as a user would
// (test/runtimes/support/user-script.mjs): every entry imported, a signed GET
// and a signed bulk request accepted by a server that verifies the HMAC, a
// wrong secret refused, reports of every schema version decoded exactly as
// viem decodes them, a typed ApiError, and `paginate` across two pages.
//
// The package is packed and installed once; each runtime then runs the same
// script against its own local server. A runtime that cannot start fails its
// test: nothing here is skipped.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { API_VERSION as CHANNELS } from '../../generated/operations/channels.js';
import { API_VERSION as POLICY_COORDINATOR } from '../../generated/operations/policy-coordinator.js';
import { API_VERSION as POLICY_EVALUATION } from '../../generated/operations/policy-evaluation.js';
import { API_VERSION as POLICY_REPORTING } from '../../generated/operations/policy-reporting.js';
import { API_VERSION as STREAMS } from '../../generated/operations/streams.js';
import { REPORT_SCAN_WASM } from '../../generated/wasm/report-scan.js';
import { nodeBinaries, type NodeBinary } from './support/node-versions.js';
import { reportFixtures, type ReportFixture } from './support/report-fixtures.js';
import { createRuntimeProject } from './support/runtime-project.js';
import {
  bundle,
  bunRunner,
  denoRunner,
  edgeRuntimeRunner,
  nodeRunner,
  workerdRunner,
  WORKERD_CONDITIONS,
  type Runner,
  type RuntimeRun,
} from './support/runners.js';
import { MISSING_WALLET_ID, startVerifyingServer, WALLET_NAMES, type VerifyingServer } from './support/verifying-server.js';

const root = resolve(import.meta.dirname, '..', '..');
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const fixtures: ReportFixture[] = reportFixtures();
let tmp = '';
let project = '';
/** Installed while the package packs; a failure surfaces in the Node tests. */
let nodes: Promise<Record<string, NodeBinary>>;

beforeAll(async () => {
  nodes = nodeBinaries();
  nodes.catch(() => undefined);
  ({ tmp, project } = await createRuntimeProject());
}, 300_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function runWithServer(runner: Runner): Promise<{ run: RuntimeRun; server: VerifyingServer }> {
  const server = await startVerifyingServer(fixtures);
  try {
    return { run: await runner(project, server.origin), server };
  } finally {
    await server.close();
  }
}

/** What the user script must report in every runtime, and what the server must have seen. */
function expectEveryCheck(expect: ExpectStatic, { run, server }: { run: RuntimeRun; server: VerifyingServer }): void {
  const everyVersion = Object.fromEntries(fixtures.map((f) => [f.version, 'matches viem']));
  const v3 = fixtures.find((f) => f.version === 'V3')!;
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
  });
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
}

const installedNode = (name: string): RuntimeCase => ({
  name: `Node ${name.slice('node'.length)}`,
  runner: async () => nodeRunner((await nodes)[name]!.path),
  expectedRuntime: async () => `Node ${(await nodes)[name]!.version}`,
});

const RUNTIMES: RuntimeCase[] = [
  {
    name: `Node ${process.versions.node.split('.')[0]} (running the tests)`,
    runner: async () => nodeRunner(process.execPath),
    expectedRuntime: async () => `Node ${process.versions.node}`,
  },
  installedNode('node22'),
  installedNode('node24'),
  { name: 'Bun', runner: async () => bunRunner, expectedRuntime: async () => `Bun ${versionOf('bun')}` },
  { name: 'Deno', runner: async () => denoRunner, expectedRuntime: async () => `Deno ${versionOf('deno')}` },
  { name: 'workerd (miniflare)', runner: async () => workerdRunner(), expectedRuntime: async () => 'workerd' },
  { name: 'edge-runtime', runner: async () => edgeRuntimeRunner, expectedRuntime: async () => 'edge-runtime' },
];

describe.concurrent('the packed package, run by a user script', () => {
  for (const runtime of RUNTIMES) {
    it(`in ${runtime.name}`, { timeout: 120_000 }, async ({ expect }) => {
      const result = await runWithServer(await runtime.runner());
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
    expect([...bundled.wasmModules.keys()]).toEqual(['report-scan.wasm']);
    expect(bundled.code).toMatch(/import \w+ from "\.\/report-scan\.wasm"/);
    expect(bundled.code).not.toContain((REPORT_SCAN_WASM as string).slice(0, 64));
  });

  it('without it, workerd refuses to compile the base64 module and decodes with the JavaScript scan, the same', { timeout: 120_000 }, async ({ expect }) => {
    const result = await runWithServer(workerdRunner(['worker', 'browser']));
    expect(result.run.runtime).toBe('workerd');
    expect(result.run.scanEngine).toBe('js');
    expectEveryCheck(expect, result);
  });
});
