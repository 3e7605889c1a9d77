/**
 * The MCP server over a catalog of tools: `tools/list` and `tools/call` on
 * the official SDK's low-level Server (the tools' schemas are JSON Schema
 * already). A call's answer is its value as structured output and as JSON
 * text; a failure is a tool error whose text says what was wrong. No text
 * that leaves it holds a credential: each is redacted first.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolContext } from './tool.js';
import { ToolInputError } from './tool.js';

export interface ServerOptions {
  version: string;
  tools: readonly Tool[];
  context: ToolContext;
  /** Values that never leave the server (API keys and secrets), redacted wherever they would. */
  secrets: () => readonly string[];
  /** Said to the agent on initialize. */
  instructions: string;
}

export function createMcpServer(options: ServerOptions): Server {
  const server = new Server({ name: 'service-sdk', version: options.version }, { capabilities: { tools: {} }, instructions: options.instructions });
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as never, annotations: tool.annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const redact = redactor(options.secrets());
    const tool = byName.get(request.params.name);
    if (tool === undefined) return failure(`unknown tool ${JSON.stringify(request.params.name)}`, redact);
    try {
      const answer = await tool.run(request.params.arguments ?? {}, options.context);
      const structured = redact.value(structuredOf(answer.value));
      return {
        content: [{ type: 'text', text: JSON.stringify(structured) }, ...(answer.note ? [{ type: 'text' as const, text: redact.text(answer.note) }] : [])],
        structuredContent: structured,
      };
    } catch (error) {
      return failure(await errorText(error), redact, await errorBody(error));
    }
  });
  return server;
}

/** Structured output is an object: a list or a scalar answer is wrapped as `{ result }`. */
function structuredOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value ?? null };
}

function failure(text: string, redact: Redactor, body?: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: redact.text(text) }, ...(body === undefined ? [] : [{ type: 'text' as const, text: redact.text(JSON.stringify(body)) }])] };
}

interface Redactor {
  text(text: string): string;
  value<T>(value: T): T;
}

function redactor(secrets: readonly string[]): Redactor {
  const kept = secrets.filter((secret) => secret.length >= 4);
  const text = (input: string) => kept.reduce((out, secret) => out.split(secret).join('[redacted]'), input);
  return {
    text,
    value: <T>(value: T) => (kept.some((secret) => JSON.stringify(value).includes(secret)) ? (JSON.parse(text(JSON.stringify(value))) as T) : value),
  };
}

/** An error in the words the agent reads: what was refused and why, the service's status and code, or what failed. */
async function errorText(error: unknown): Promise<string> {
  const errors = await import('../core/errors.js');
  const { CliUsageError } = await import('../cli/errors.js');
  if (error instanceof ToolInputError) return `refused before sending: ${error.message}`;
  if (error instanceof CliUsageError) return error.message;
  if (error instanceof errors.ApiError) return `the service answered ${error.status} ${error.type}${error.code ? ` ${error.code}` : ''}: ${error.message}`;
  if (error instanceof errors.ApiConnectionError || error instanceof errors.ApiTimeoutError) return `no answer: ${error.message}`;
  if (error instanceof errors.SdkError) return `${error.name}: ${error.message}`;
  return `unexpected failure: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

/** The service's error body, when it answered one. */
async function errorBody(error: unknown): Promise<unknown> {
  const { ApiError } = await import('../core/errors.js');
  return error instanceof ApiError && error.body !== undefined ? error.body : undefined;
}
