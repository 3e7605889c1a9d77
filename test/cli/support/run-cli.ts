// Runs the command line in this process with its own argv, streams and
// environment (src/cli/main.ts takes them injected), and a "client" that
// turns `GET(path, { params, body })` calls into `service-sdk <api>
// <operation> --flags` through the spec table: scenarios read like client
// code, and every call still goes through the CLI's parsing and checks.
import { CLI_APIS, type CliApi } from '../../../src/cli/apis.js';
import { runCli } from '../../../src/cli/main.js';
import { loadTable, type CliTable } from '../../../src/cli/spec-table.js';
import type { SandboxListener, Sandbox } from '../../../src/sandbox/index.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not one JSON value). */
  json: any;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  signal?: AbortSignal;
  homeDir?: string;
  /** What stdout says about being a terminal. */
  tty?: boolean;
  /** What stderr says about being a terminal (the --all progress line). */
  stderrTty?: boolean;
  /** Called with each stdout chunk as it is written. */
  onStdout?: (chunk: string) => void;
  /** Keep no stdout (long walks): `stdout` comes back empty; see it through `onStdout`. */
  discardStdout?: boolean;
}

export async function cli(argv: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv,
    stdout: {
      write: (chunk) => {
        if (options.discardStdout !== true) stdout += chunk;
        options.onStdout?.(chunk);
        return true;
      },
      isTTY: options.tty ?? false,
    },
    stderr: { write: (chunk) => ((stderr += chunk), true), isTTY: options.stderrTty ?? false },
    stdin:
      options.stdin === undefined
        ? undefined
        : (async function* () {
            yield new TextEncoder().encode(options.stdin);
          })(),
    env: options.env ?? {},
    signal: options.signal,
    homeDir: options.homeDir ?? '/nonexistent-home-for-cli-tests',
  });
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** The environment lines `service-sdk sandbox` prints, for a listening sandbox. */
export function sandboxEnv(sandbox: Sandbox, listener: SandboxListener): Record<string, string> {
  return {
    SERVICE_SDK_CHANNELS_BASE_URL: listener.baseUrls.channels,
    SERVICE_SDK_CHANNELS_API_KEY: sandbox.credentials.channels.apiKey,
    SERVICE_SDK_STREAMS_BASE_URL: listener.baseUrls.streams,
    SERVICE_SDK_STREAMS_WS_URL: listener.url.replace(/^http/, 'ws'),
    SERVICE_SDK_STREAMS_API_KEY: sandbox.credentials.streams.apiKey,
    SERVICE_SDK_STREAMS_API_SECRET: sandbox.credentials.streams.apiSecret,
    SERVICE_SDK_POLICY_BASE_URL: listener.baseUrls.policy,
    SERVICE_SDK_POLICY_API_KEY: sandbox.credentials.policy.apiKey,
  };
}

interface CallInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown> };
  body?: unknown;
}

/** The argv of one operation call: its name, a flag per parameter, the body as --data. */
export function argvFor(api: CliApi, table: CliTable, method: string, path: string, init: CallInit = {}): string[] {
  const operation = table.operations.find((candidate) => candidate.method === method && candidate.path === path);
  if (operation === undefined) throw new Error(`no ${api.name} operation ${method} ${path}`);
  const argv = [api.name, operation.name];
  for (const place of ['path', 'query', 'header'] as const) {
    for (const [name, value] of Object.entries(init.params?.[place] ?? {})) {
      const param = operation.params.find((candidate) => candidate.name === name && candidate.in === place);
      if (param === undefined) throw new Error(`${operation.id} has no ${place} parameter ${name}`);
      argv.push(`--${param.flag}=${Array.isArray(value) ? value.join(',') : String(value)}`);
    }
  }
  if (init.body !== undefined) argv.push('--data', JSON.stringify(init.body));
  return argv;
}

export type CliCall = (path: string, init?: CallInit) => Promise<CliRun & { operation: string }>;
export type CliClient = Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD', CliCall>;

/** A client-shaped front on the CLI for one API; each call records `<api> <operation>` in `ran`. */
export async function cliClient(apiName: string, env: () => Record<string, string>, ran: Map<string, number>): Promise<CliClient> {
  const api = CLI_APIS.find((candidate) => candidate.name === apiName)!;
  const table = await loadTable(api);
  const call = (method: string): CliCall => async (path, init) => {
    const argv = argvFor(api, table, method, path, init);
    const result = await cli(argv, { env: env() });
    ran.set(`${api.name} ${argv[1]!}`, result.code);
    return { ...result, operation: argv[1]! };
  };
  return { GET: call('GET'), POST: call('POST'), PUT: call('PUT'), PATCH: call('PATCH'), DELETE: call('DELETE'), HEAD: call('HEAD') };
}
