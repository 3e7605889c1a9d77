// `service-sdk mcp` as an agent's client runs it: the bin started over stdio
// by the official SDK's Client and StdioClientTransport (node with tsx, as
// test/cli does). Every JSON-RPC message each way and all of stderr are kept,
// so a test can search them (for a credential, say). Closed after each test.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BIN = join(ROOT, 'src', 'cli', 'bin.ts');

export interface McpSession {
  readonly client: Client;
  /** Every message sent and received, as JSON text. */
  readonly messages: string[];
  /** The server's stderr so far. */
  stderr(): string;
  /** A tool call's structured output; throws with the tool's text when it answered an error. */
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A tool call that must fail: its error text. */
  refused(name: string, args?: Record<string, unknown>): Promise<string>;
}

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** Starts `service-sdk mcp <args>` with a bare environment plus `env`, and connects to it. */
export async function startMcp(args: readonly string[], env: Record<string, string> = {}): Promise<McpSession> {
  const session = await startSession(args, env);
  open.push(session.client);
  return session;
}

async function startSession(args: readonly string[], env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', BIN, 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: '/nonexistent', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const messages: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    messages.push(JSON.stringify(message));
    return send(message);
  };
  // The Client chains an onmessage set before it connects: every message received passes here first.
  transport.onmessage = (message: JSONRPCMessage) => void messages.push(JSON.stringify(message));
  const client = new Client({ name: 'service-sdk-tests', version: '1.0.0' });
  await client.connect(transport);
  const textOf = (result: object) => (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n');
  return {
    client,
    messages,
    stderr: () => stderr,
    call: async (name, args = {}) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return (result as { structuredContent?: Record<string, unknown> }).structuredContent!;
    },
    refused: async (name, args = {}) => {
      const result = await client.callTool({ name, arguments: args });
      if (!result.isError) throw new Error(`${name} did not fail: ${textOf(result)}`);
      return textOf(result);
    },
  };
}

/** One session per argument list for the whole file (a start costs seconds): for tests that only read, or that own their part of the state. */
export function sharedMcp(): (args: readonly string[], env?: Record<string, string>) => Promise<McpSession> {
  const sessions = new Map<string, Promise<McpSession>>();
  afterAll(async () => {
    for (const session of sessions.values()) await (await session).client.close();
  });
  return (args, env = {}) => {
    const key = JSON.stringify([args, env]);
    if (!sessions.has(key)) sessions.set(key, startSession(args, env));
    return sessions.get(key)!;
  };
}
