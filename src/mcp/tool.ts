/**
 * What one tool of the MCP server is, apart from the protocol: its name,
 * description, input schema (JSON Schema 2020-12), hints, and what it does
 * with its arguments. The operation tools (operation-tools.ts) and the SDK's
 * own (sdk-tools.ts) are both of this shape; server.ts speaks the protocol.
 */
import type { CliApi } from '../cli/apis.js';
import type { LooseClient } from '../cli/clients.js';
import type { CliOperation } from '../cli/spec-table.js';
import type { ReportTrust } from '../reports/verify-types.js';

export type JsonSchema = Record<string, unknown>;

/** The MCP tool annotations the server sets (all hints, for the agent's client to weigh). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool reaches the services through: a client per API, made on first use. */
export interface ToolContext {
  clientFor(api: CliApi): Promise<LooseClient>;
  /** The configurations reports are verified against by default (the sandbox's, or `--trust`). */
  trust(): Promise<ReportTrust | undefined>;
  readonly signal?: AbortSignal | undefined;
}

/** A tool's answer: the value (structured output), and a sentence for the agent when there is more to say. */
export interface ToolAnswer {
  value: unknown;
  note?: string;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations: ToolHints;
  /** The API it belongs to (`--apis` keeps or drops it). */
  readonly api: CliApi;
  /** The operation it sends, for an operation's tool. */
  readonly operation?: CliOperation;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolAnswer>;
}

/**
 * Arguments a tool refuses before anything is sent: the message names the
 * argument (`body.name is required`, `limit: expected …`), and the agent sees
 * it as the tool's error.
 */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}
