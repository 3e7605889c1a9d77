// The Arazzo flows beside each spec (openapi/<api>/flows.arazzo.yaml), run by
// `redocly respect` against a listening sandbox: every step's answer checked
// against the spec (status, content type, schema) and every poll followed to
// its final status. The report API's requests are signed by a small relay
// with the SDK's own HMAC authorizer: a workflow cannot compute signatures.
// Each source description of a file is pointed at its API on the listener
// (`--server <name>=<url>`); the reporting flow has two, as it reads what it
// first deploys through the coordinator.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacAuthorizer } from '../../src/core/auth.js';
import { createSandbox, type Sandbox, type SandboxListener } from '../../src/sandbox/index.js';
import { SANDBOX_POLICY_IDS } from '../../src/sandbox/policy/index.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const results = join(root, 'test-results');

let sandbox: Sandbox;
let listener: SandboxListener;
let relay: Server;
let relayUrl = '';

beforeAll(async () => {
  // respect writes its JSON report there, and fails when the folder is missing (a fresh clone where no other test made it yet).
  mkdirSync(results, { recursive: true });
  // Flows end in well under a second of real time at 20× pace.
  sandbox = createSandbox({ pace: 20 });
  listener = await sandbox.listen();
  const authorize = hmacAuthorizer(sandbox.credentials.streams);
  relay = createServer((incoming, outgoing) => {
    const url = `${listener.url}${incoming.url ?? '/'}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string' && !/^(host|connection|content-length)$/i.test(name)) headers.set(name, value);
    }
    authorize(headers, incoming.method ?? 'GET', url, undefined);
    fetch(url, { method: incoming.method, headers })
      .then(async (answer) => {
        outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
        outgoing.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});

afterAll(async () => {
  relay?.closeAllConnections();
  await new Promise((resolve) => relay?.close(resolve));
  await listener?.close();
  sandbox?.close();
});

interface RespectResult {
  workflows: { workflowId: string; status: string }[];
}

/**
 * Runs one Arazzo file, each of `servers` (its source descriptions' names)
 * pointed at the sandbox; resolves with each workflow's status, or fails with
 * respect's output.
 */
async function respect(file: string, servers: string | string[], inputs: Record<string, string | number>): Promise<RespectResult> {
  const names = typeof servers === 'string' ? [servers] : servers;
  const report = join(results, `respect-${names.join('-')}.json`);
  const args = [redocly, 'respect', join(root, file), '-J', report];
  for (const server of names) args.push('--server', `${server}=${serverUrls()[server]}`);
  for (const [name, value] of Object.entries(inputs)) args.push('--input', `${name}=${value}`);
  try {
    await run(process.execPath, args, { cwd: root, timeout: 90_000 });
  } catch (error) {
    // What ended the run (an exit code, a signal, the time limit) comes first: the workflows' summary may say every step passed.
    const e = error as { stdout?: string; stderr?: string; code?: unknown; signal?: unknown; killed?: boolean };
    const ended = e.killed ? `killed by ${String(e.signal)} (time limit)` : `exit code ${String(e.code)}`;
    throw new Error(`redocly respect ${file} failed (${ended}):\n${(e.stderr ?? '').slice(-2000)}\n${(e.stdout ?? '').slice(-4000)}`);
  }
  const json = JSON.parse(readFileSync(report, 'utf8')) as { files: Record<string, { executedWorkflows: { workflowId: string; status: string }[] }> };
  return { workflows: Object.values(json.files).flatMap((f) => f.executedWorkflows.map(({ workflowId, status }) => ({ workflowId, status }))) };
}

function serverUrls(): Record<string, string> {
  return {
    channels: listener.baseUrls.channels,
    coordinator: `${listener.baseUrls.policy}/v1`,
    evaluation: `${listener.baseUrls.policy}/v1/evaluation`,
    reporting: `${listener.baseUrls.policy}/v1/reporting`,
    streams: relayUrl,
  };
}

describe('Arazzo flows under redocly respect, against the sandbox', () => {
  it('channels: draft → sign → finalize, execute, query, watcher archive', async () => {
    const { workflows } = await respect('openapi/channels/flows.arazzo.yaml', 'channels', { apiKey: sandbox.credentials.channels.apiKey });
    expect(workflows).toEqual([
      { workflowId: 'draftSignFinalize', status: 'success' },
      { workflowId: 'executeToConfirmed', status: 'success' },
      { workflowId: 'queryToCompleted', status: 'success' },
      { workflowId: 'watcherArchive', status: 'success' },
    ]);
  }, 120_000);

  it('policy: evaluation → ready', async () => {
    const { workflows } = await respect('openapi/policy-evaluation/flows.arazzo.yaml', 'evaluation', { apiKey: sandbox.credentials.policy.apiKey });
    expect(workflows).toEqual([{ workflowId: 'evaluationToReady', status: 'success' }]);
  }, 120_000);

  it('streams: a report page walk, signed by the relay', async () => {
    const startTimestamp = Math.floor(sandbox.clock.now() / 1000) - 120;
    const { workflows } = await respect('openapi/streams/flows.arazzo.yaml', 'streams', { startTimestamp });
    expect(workflows).toEqual([{ workflowId: 'reportPageWalk', status: 'success' }]);
  }, 120_000);

  it('policy coordinator: a policy engine created, listed across pages, renamed, archived', async () => {
    const { workflows } = await respect('openapi/policy-coordinator/flows.arazzo.yaml', 'coordinator', { apiKey: sandbox.credentials.policy.apiKey });
    expect(workflows).toEqual([{ workflowId: 'policyEngineLifecycle', status: 'success' }]);
  }, 120_000);

  it('policy reporting: a policy deployed through the coordinator, paged with page_token, read as_of', async () => {
    const { workflows } = await respect('openapi/policy-reporting/flows.arazzo.yaml', ['coordinator', 'reporting'], {
      apiKey: sandbox.credentials.policy.apiKey,
      policyEngineId: SANDBOX_POLICY_IDS.policyEngine,
      policyImplementationId: SANDBOX_POLICY_IDS.pausePolicyImplementation,
    });
    expect(workflows).toEqual([{ workflowId: 'policyPagesAsOf', status: 'success' }]);
  }, 120_000);
});
