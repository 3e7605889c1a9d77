/**
 * The command line's entry: dispatches `service-sdk <api> <operation>`, the
 * streams flows, `sandbox`, `profile`, `completion` and `help`, and turns
 * every outcome into its documented exit code. Runs with an injected
 * `CliIo`, so tests drive many commands in one process. Everything beyond
 * the API list is imported when needed, to start fast. Arguments are parsed
 * by each command (src/cli/argv.ts); here only the first words choose it.
 */
import { findApi, topLevelCommands, type CliApi } from './apis.js';
import { CliUsageError, EXIT } from './errors.js';
import { writeMessage, type CliIo } from './io.js';

export type { CliIo, CliOutput } from './io.js';

const VERSION_FLAGS = new Set(['--version', '-V']);
const HELP_FLAGS = new Set(['--help', '-h']);

/** Runs one command line and returns its exit code (0 ok, 1 API error, 2 usage, 3 no answer, 4 wait timeout, 130 interrupted). */
export async function runCli(io: CliIo): Promise<number> {
  try {
    return await dispatch(io);
  } catch (error) {
    return report(error, io);
  }
}

async function dispatch(io: CliIo): Promise<number> {
  const [first, second, ...rest] = io.argv;
  if (first === undefined || HELP_FLAGS.has(first)) {
    const { PROGRAM_HELP } = await import('./help.js');
    io.stdout.write(PROGRAM_HELP);
    return EXIT.ok;
  }
  if (first === 'help') return help(io.argv.slice(1), io);
  if (VERSION_FLAGS.has(first) || first === 'version') {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL(import.meta.url.includes('/dist/') ? '../../../package.json' : '../../package.json', import.meta.url), 'utf8'));
    io.stdout.write(`${pkg.version}\n`);
    return EXIT.ok;
  }
  if (first === '__complete') {
    const { complete } = await import('./completion.js');
    const words = io.argv.slice(1);
    for (const candidate of await complete(words.length === 0 ? [''] : words)) io.stdout.write(`${candidate}\n`);
    return EXIT.ok;
  }
  if (first === 'completion') {
    const { parseArgs, isSet } = await import('./argv.js');
    const { COMPLETION_HELP, completionScript } = await import('./completion.js');
    const args = parseArgs(io.argv.slice(1), new Map());
    if (isSet(args, 'help')) {
      io.stdout.write(COMPLETION_HELP);
      return EXIT.ok;
    }
    if (args.positionals.length > 1) throw new CliUsageError(`completion: expected one shell, got ${args.positionals.length}`, COMPLETION_HELP);
    // The script calls this very bin back by absolute path: it need not be on PATH (npx, a project install).
    const bin = process.argv[1];
    io.stdout.write(completionScript(args.positionals[0], bin ? [process.execPath, ...process.execArgv, bin] : undefined));
    return EXIT.ok;
  }
  if (first === 'sandbox') {
    const { runSandbox } = await import('./sandbox-command.js');
    return runSandbox(io.argv.slice(1), io);
  }
  if (first === 'mcp') {
    const { runMcp } = await import('../mcp/command.js');
    return runMcp(io.argv.slice(1), io);
  }
  if (first === 'profile') {
    const { runProfile } = await import('./profile-command.js');
    return runProfile(io.argv.slice(1), io);
  }
  const api = await apiNamed(first);
  const { loadTable } = await import('./spec-table.js');
  const table = await loadTable(api);
  if (second === undefined || HELP_FLAGS.has(second)) {
    const { apiHelp } = await import('./help.js');
    io.stdout.write(apiHelp(api, table));
    return EXIT.ok;
  }
  if (second === 'request') {
    const { runRequest } = await import('./request-command.js');
    return runRequest(api, rest, io);
  }
  if (api.name === 'streams' && second === 'verify') {
    const { runVerify } = await import('./verify-command.js');
    return runVerify(rest, io);
  }
  if (api.name === 'streams' && (second === 'latest' || second === 'watch')) {
    const { runStreamsFlow } = await import('./streams-flows.js');
    return runStreamsFlow(api, second, rest, io);
  }
  const operation = await operationNamed(api, second);
  if (operation.id === 'streamReports') {
    // The WebSocket operation is the live stream: `watch` runs it (and takes --feed-ids).
    const { runStreamsFlow } = await import('./streams-flows.js');
    return runStreamsFlow(api, 'watch', rest, io);
  }
  const { runOperation } = await import('./operation-command.js');
  return runOperation(api, operation, rest, io);
}

/** `service-sdk help [<api> [<operation>]]`: the help `--help` prints at that level. */
async function help(words: readonly string[], io: CliIo): Promise<number> {
  const { PROGRAM_HELP, apiHelp, operationHelp } = await import('./help.js');
  const [apiName, operationName, ...extra] = words;
  if (extra.length > 0) throw new CliUsageError(`help: expected at most an API and an operation, got ${JSON.stringify(extra[0])} too`);
  if (apiName === undefined) {
    io.stdout.write(PROGRAM_HELP);
    return EXIT.ok;
  }
  const api = await apiNamed(apiName);
  if (api.name === 'streams' && (operationName === 'latest' || operationName === 'watch')) {
    const { runStreamsFlow } = await import('./streams-flows.js');
    return runStreamsFlow(api, operationName, ['--help'], io);
  }
  if (api.name === 'streams' && operationName === 'verify') {
    const { runVerify } = await import('./verify-command.js');
    return runVerify(['--help'], io);
  }
  if (operationName === 'request') {
    const { requestHelp } = await import('./request-command.js');
    io.stdout.write(requestHelp(api));
    return EXIT.ok;
  }
  if (operationName === undefined) {
    const { loadTable } = await import('./spec-table.js');
    io.stdout.write(apiHelp(api, await loadTable(api)));
    return EXIT.ok;
  }
  io.stdout.write(operationHelp(api, await operationNamed(api, operationName)));
  return EXIT.ok;
}

async function apiNamed(name: string): Promise<CliApi> {
  const api = findApi(name);
  if (api !== undefined) return api;
  const { nearest } = await import('./argv.js');
  const commands = topLevelCommands();
  const near = nearest(name, commands);
  throw new CliUsageError(`unknown command ${JSON.stringify(name)}${near ? ` (did you mean ${near}?)` : ''}: expected one of ${commands.join(', ')}`);
}

async function operationNamed(api: CliApi, name: string) {
  const { loadTable, findOperation } = await import('./spec-table.js');
  const table = await loadTable(api);
  const operation = findOperation(table, name);
  if (operation !== undefined) return operation;
  const { nearest } = await import('./argv.js');
  const near = nearest(name, table.operations.map((candidate) => candidate.name));
  throw new CliUsageError(`unknown ${api.name} operation ${JSON.stringify(name)}${near ? ` (did you mean ${near}?)` : ''}; service-sdk ${api.name} --help lists them`);
}

/** An outcome as its exit code, with a one-line reason on stderr (never a credential). */
async function report(error: unknown, io: CliIo): Promise<number> {
  if (io.signal?.aborted) {
    io.stderr.write('interrupted\n');
    return EXIT.interrupted;
  }
  if (error instanceof CliUsageError) {
    writeMessage(io.stderr, `service-sdk: ${error.message}`);
    if (error.usage) io.stderr.write(`\n${error.usage}`);
    return EXIT.usage;
  }
  const errors = await import('../core/errors.js');
  const { PollTimeoutError } = await import('../core/poll.js');
  if (error instanceof errors.ApiError) {
    writeMessage(io.stderr, `service-sdk: ${error.status} ${error.type}${error.code ? ` ${error.code}` : ''}: ${messageOf(error.body) ?? error.message}`);
    return EXIT.apiError;
  }
  if (error instanceof errors.ConfigurationError) {
    const { inFlagWords } = await import('./credentials.js');
    writeMessage(io.stderr, `service-sdk: ${inFlagWords(error)}`);
    return EXIT.usage;
  }
  if (error instanceof errors.ApiConnectionError || error instanceof errors.ApiTimeoutError || error instanceof PollTimeoutError) {
    writeMessage(io.stderr, `service-sdk: no answer: ${error.message}`);
    return EXIT.noAnswer;
  }
  if (error instanceof errors.SdkError) {
    writeMessage(io.stderr, `service-sdk: ${error.name}: ${error.message}`);
    return EXIT.apiError;
  }
  writeMessage(io.stderr, `service-sdk: unexpected failure: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  return EXIT.apiError;
}

function messageOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const message = (body as { message?: unknown; error?: { message?: unknown } }).message ?? (body as { error?: { message?: unknown } }).error?.message;
  return typeof message === 'string' ? message : undefined;
}
