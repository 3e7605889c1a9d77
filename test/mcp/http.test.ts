// `service-sdk mcp --http <port>`: the same tools over Streamable HTTP on the
// loopback interface, reached with the official SDK's Client and its
// StreamableHTTPClientTransport; a request naming another host is refused.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { readmeClaim } from '../support/readme-claim.js';
import { BIN, ROOT } from './support/mcp-session.js';

let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
});

/** Starts the server in its own process group; resolves to the URL it prints on stderr. */
function startHttp(args: string[]): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', BIN, 'mcp', ...args], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: '/nonexistent' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child!.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    child!.once('close', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const outgoing = request(url, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

it(readmeClaim('`--http <port>` serves the same tools over Streamable HTTP at `http://127.0.0.1:<port>/mcp` instead of stdio, on the loopback interface only'), async () => {
  const url = await startHttp(['--sandbox', '--apis', 'channels', '--http', '0']);
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('channels_create_channel');
    const created = await client.callTool({ name: 'channels_create_channel', arguments: { body: { name: 'over-http' } } });
    expect(created.structuredContent).toMatchObject({ name: 'over-http' });
    const listed = await client.callTool({ name: 'channels_list_channels', arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).toContain('over-http');
  } finally {
    await client.close();
  }
  expect(await postWithHost(url, `attacker.example:${new URL(url).port}`)).toBe(403);
});
