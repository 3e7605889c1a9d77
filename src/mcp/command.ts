/**
 * `service-sdk mcp`: every API as Model Context Protocol tools, over stdio.
 * Built on `@modelcontextprotocol/sdk`, an optional peer dependency: it is
 * imported here, when this command runs, and nowhere else; when it is not
 * installed the command says what to install and exits 2.
 */
import { parseArgs } from 'node:util';
import type { CliApi } from '../cli/apis.js';
import { CliUsageError, EXIT } from '../cli/errors.js';
import type { CliIo } from '../cli/io.js';

export const MCP_SDK = '@modelcontextprotocol/sdk';

export const MCP_HELP = `usage: service-sdk mcp [--sandbox] [--apis <list>] [--read-only] [--dynamic] [--profile NAME] [--trust <json|@file>] [--http <port>]

Serves the APIs as Model Context Protocol tools over stdio (or Streamable HTTP
on 127.0.0.1 with --http), for an agent's
MCP client: one tool per operation, plus wait_for_operation,
wait_for_evaluation, latest_reports and verify_report. Needs the package
${MCP_SDK} installed beside this one.

  --sandbox         the tools call an offline sandbox in this process (no account needed)
  --apis <list>     only these APIs: channels, streams, coordinator, evaluation, reporting, policy
  --read-only       only the tools that read
  --dynamic         three tools (search_tools, describe_tool, call_tool) instead of the whole list
  --profile NAME    the credentials of this profile (else the environment, then the default profile)
  --trust <json|@file>  the oracle configurations reports are verified against (the sandbox's with --sandbox)
  --pace P          with --sandbox: sandbox ms per real ms (default 1)
  --http <port>     Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio (0: a free port), until Ctrl-C

Credentials come from the environment and profiles, as for the other commands;
no tool takes or answers one.
`;

export interface McpOptions {
  sandbox: boolean;
  apis: string | undefined;
  readOnly: boolean;
  dynamic: boolean;
  profile: string | undefined;
  trust: string | undefined;
  pace: number;
  /** Streamable HTTP on this loopback port instead of stdio. */
  http: number | undefined;
}

function optionsOf(argv: readonly string[]): McpOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        sandbox: { type: 'boolean' },
        apis: { type: 'string' },
        'read-only': { type: 'boolean' },
        dynamic: { type: 'boolean' },
        profile: { type: 'string' },
        trust: { type: 'string' },
        pace: { type: 'string' },
        http: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new CliUsageError(`mcp: ${(error as Error).message.split('. ')[0]}`, MCP_HELP);
  }
  const { values } = parsed;
  if (values.help) return 'help';
  const pace = values.pace === undefined ? 1 : Number(values.pace);
  if (values.pace !== undefined && !values.sandbox) throw new CliUsageError('--pace: only with --sandbox');
  if (!Number.isFinite(pace) || pace < 0) throw new CliUsageError(`--pace: expected a number ≥ 0, got ${JSON.stringify(values.pace)}`);
  const http = values.http === undefined ? undefined : Number(values.http);
  if (http !== undefined && !(Number.isInteger(http) && http >= 0 && http <= 65535)) throw new CliUsageError(`--http: expected a port number (0 for a free one), got ${JSON.stringify(values.http)}`);
  if (values.sandbox && values.profile !== undefined) throw new CliUsageError('--profile: not with --sandbox (the sandbox makes up its own credentials)');
  return {
    sandbox: values.sandbox === true,
    apis: values.apis,
    readOnly: values['read-only'] === true,
    dynamic: values.dynamic === true,
    profile: values.profile,
    trust: values.trust,
    pace,
    http,
  };
}

/** The SDK's server modules, or a usage error saying what to install. */
async function loadMcpSdk(): Promise<void> {
  try {
    await import('@modelcontextprotocol/sdk/server/index.js');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new CliUsageError(`mcp needs the package ${MCP_SDK}, which is not installed: npm install ${MCP_SDK}@^1.32.0`);
  }
}

async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const url = new URL(import.meta.url.includes('/dist/') ? '../../../package.json' : '../../package.json', import.meta.url);
  return (JSON.parse(await readFile(url, 'utf8')) as { version: string }).version;
}

export async function runMcp(argv: readonly string[], io: CliIo): Promise<number> {
  const options = optionsOf(argv);
  if (options === 'help') {
    io.stdout.write(MCP_HELP);
    return EXIT.ok;
  }
  const { selectApis } = await import('./catalog.js');
  const apis = selectApis(options.apis);
  const { catalog } = await import('./catalog.js');
  // The MCP SDK and the tools' tables load side by side: start-up is mostly module loading.
  const [, all] = await Promise.all([loadMcpSdk(), catalog(apis, options.readOnly)]);
  const { openTargets } = await import('./targets.js');
  const targets = await openTargets(options, io);
  try {
    const { dynamicTools } = await import('./dynamic.js');
    const tools = options.dynamic ? dynamicTools(all) : all;
    const { createMcpServer } = await import('./server.js');
    const version = await packageVersion();
    const makeServer = () =>
      createMcpServer({ version, tools, context: targets.context, secrets: targets.secrets, instructions: instructionsOf(apis, options) });
    if (options.http !== undefined) {
      const { serveHttp } = await import('./http.js');
      await serveHttp(options.http, makeServer, io);
      return EXIT.ok;
    }
    const server = makeServer();
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    await server.connect(transport);
    // The client ends the session by closing our stdin (or Ctrl-C).
    process.stdin.once('end', () => void server.close());
    io.signal?.addEventListener('abort', () => void server.close(), { once: true });
    await closed;
    return EXIT.ok;
  } finally {
    targets.close();
  }
}

function instructionsOf(apis: readonly CliApi[], options: McpOptions): string {
  return [
    `Tools of the ${apis.map((api) => api.name).join(', ')} APIs${options.sandbox ? ', served by an offline sandbox (made-up data; nothing real is touched)' : ''}.`,
    options.readOnly ? 'Read-only: no tool writes.' : 'Tools whose annotations say readOnlyHint false write to the service.',
    options.dynamic ? 'Find tools with search_tools, read one with describe_tool, run it with call_tool.' : '',
    'Arguments are checked against the API specs before anything is sent; an error names the argument. Channels operations are signed by the user, never by this server.',
  ]
    .filter(Boolean)
    .join(' ');
}
