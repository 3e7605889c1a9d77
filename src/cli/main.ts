/**
 * The command line's entry: dispatches `service-sdk <api> <operation>`, the
 * streams flows, `sandbox`, `profile` and `completion`, and turns every
 * outcome into its documented exit code. Runs with an injected `CliIo`, so
 * tests drive many commands in one process. Everything beyond the API list
 * is imported when needed, to start fast.
 */
import { CLI_APIS, findApi } from './apis.js';
import { CliUsageError, EXIT } from './errors.js';
import type { CliIo } from './io.js';

export type { CliIo, CliOutput } from './io.js';

const VERSION_FLAGS = new Set(['--version', '-V']);

export async function runCli(io: CliIo): Promise<number> {
  try {
    return await dispatch(io);
  } catch (error) {
    return report(error, io);
  }
}

async function dispatch(io: CliIo): Promise<number> {
  const [first, second, ...rest] = io.argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const { PROGRAM_HELP } = await import('./help.js');
    io.stdout.write(PROGRAM_HELP);
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (VERSION_FLAGS.has(first)) {
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
    const { completionScript } = await import('./completion.js');
    io.stdout.write(completionScript(second));
    return EXIT.ok;
  }
  if (first === 'sandbox') {
    const { runSandbox } = await import('./sandbox-command.js');
    return runSandbox(io.argv.slice(1), io);
  }
  if (first === 'profile') {
    const { runProfile } = await import('./profile-command.js');
    return runProfile(io.argv.slice(1), io);
  }
  const api = findApi(first);
  if (api === undefined) {
    const { nearest } = await import('./argv.js');
    const near = nearest(first, CLI_APIS.map((candidate) => candidate.name));
    throw new CliUsageError(`unknown API ${JSON.stringify(first)}${near ? ` (did you mean ${near}?)` : ''}: expected one of ${CLI_APIS.map((candidate) => candidate.name).join(', ')}`);
  }
  const { loadTable, findOperation } = await import('./spec-table.js');
  const table = await loadTable(api);
  if (second === undefined || second === '--help' || second === '-h') {
    const { apiHelp } = await import('./help.js');
    io.stdout.write(apiHelp(api, table));
    return second === undefined ? EXIT.usage : EXIT.ok;
  }
  if (api.name === 'streams' && (second === 'latest' || second === 'watch')) {
    const { runStreamsFlow } = await import('./streams-flows.js');
    return runStreamsFlow(api, second, rest, io);
  }
  const operation = findOperation(table, second);
  if (operation === undefined) {
    const { nearest } = await import('./argv.js');
    const near = nearest(second, table.operations.map((candidate) => candidate.name));
    throw new CliUsageError(`unknown ${api.name} operation ${JSON.stringify(second)}${near ? ` (did you mean ${near}?)` : ''}; service-sdk ${api.name} --help lists them`);
  }
  if (operation.id === 'streamReports') {
    // The WebSocket operation is the live stream: `watch` runs it.
    const { runStreamsFlow } = await import('./streams-flows.js');
    const feedIDs: string[] = [];
    const others: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i]!;
      if (arg === '--feed-ids' && i + 1 < rest.length) feedIDs.push(...rest[++i]!.split(','));
      else if (arg.startsWith('--feed-ids=')) feedIDs.push(...arg.slice('--feed-ids='.length).split(','));
      else others.push(arg);
    }
    return runStreamsFlow(api, 'watch', [...others, '--', ...feedIDs], io);
  }
  const { runOperation } = await import('./operation-command.js');
  return runOperation(api, operation, rest, io);
}

/** An outcome as its exit code, with a one-line reason on stderr (never a credential). */
async function report(error: unknown, io: CliIo): Promise<number> {
  if (io.signal?.aborted) {
    io.stderr.write('interrupted\n');
    return EXIT.interrupted;
  }
  if (error instanceof CliUsageError) {
    io.stderr.write(`service-sdk: ${error.message}\n${error.usage ? `\n${error.usage}` : ''}`);
    return EXIT.usage;
  }
  const errors = await import('../core/errors.js');
  const { PollFailedError, PollTimeoutError } = await import('../core/poll.js');
  if (error instanceof errors.ApiError) {
    io.stderr.write(`service-sdk: ${error.status} ${error.type}${error.code ? ` ${error.code}` : ''}: ${messageOf(error.body) ?? error.message}\n`);
    if (outputIsJson(io.argv)) io.stdout.write(`${JSON.stringify(error.body ?? null)}\n`);
    return EXIT.apiError;
  }
  if (error instanceof errors.ConfigurationError) {
    io.stderr.write(`service-sdk: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof errors.ApiConnectionError || error instanceof errors.ApiTimeoutError || error instanceof PollTimeoutError) {
    io.stderr.write(`service-sdk: no answer: ${error.message}\n`);
    return EXIT.noAnswer;
  }
  if (error instanceof PollFailedError) {
    io.stderr.write(`service-sdk: ${error.message}\n`);
    io.stdout.write(`${JSON.stringify(error.resource)}\n`);
    return EXIT.apiError;
  }
  if (error instanceof errors.SdkError) {
    io.stderr.write(`service-sdk: ${error.name}: ${error.message}\n`);
    return EXIT.apiError;
  }
  io.stderr.write(`service-sdk: unexpected failure: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  return EXIT.apiError;
}

/** Whether the command's output is JSON (the default): an error body goes to stdout only then. */
function outputIsJson(argv: readonly string[]): boolean {
  let format = 'json';
  argv.forEach((arg, i) => {
    if (arg === '--output' && argv[i + 1] !== undefined) format = argv[i + 1]!;
    else if (arg.startsWith('--output=')) format = arg.slice('--output='.length);
  });
  return format === 'json';
}

function messageOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const message = (body as { message?: unknown; error?: { message?: unknown } }).message ?? (body as { error?: { message?: unknown } }).error?.message;
  return typeof message === 'string' ? message : undefined;
}
