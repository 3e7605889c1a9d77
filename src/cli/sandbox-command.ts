/**
 * `service-sdk sandbox [--port N] [--host H] [--pace P] [--json]`: the offline
 * sandbox over HTTP until Ctrl-C, with the settings that point the other
 * commands at it. Printing the credentials is the point: they are made up for
 * this run and open nothing but this sandbox. With `--json` the first stdout
 * line is one JSON object (for scripts); the rest goes to stderr.
 */
import { isSet, lastValue, parseArgs, type FlagSpec } from './argv.js';
import { envName } from './credentials.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { baseUrlLines, credentialLines } from '../sandbox/summary-lines.js';

const FLAGS: ReadonlyMap<string, FlagSpec> = new Map<string, FlagSpec>([
  ['help', { boolean: true }],
  ['json', { boolean: true }],
  ['port', {}],
  ['host', {}],
  ['pace', {}],
]);

const HELP = `usage: service-sdk sandbox [--port N] [--host H] [--pace P] [--json]

Serves the offline sandbox of all five APIs until Ctrl-C, and prints its base
URLs, WebSocket URL and credentials, and the environment lines that make the
other service-sdk commands use it.

  --port N   port to listen on (default 0: a free port)
  --host H   interface to bind (default 127.0.0.1)
  --pace P   sandbox ms per real ms (default 1; 0 freezes time)
  --json     first line on stdout: {"baseUrls","wsUrl","credentials","reportTrust"}
`;

function numberFlag(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw new CliUsageError(`--${name}: expected a number, got ${JSON.stringify(raw)}`);
  return value;
}

export async function runSandbox(rest: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(rest, FLAGS);
  if (isSet(args, 'help')) {
    io.stdout.write(HELP);
    return 0;
  }
  if (args.positionals.length > 0) throw new CliUsageError(`sandbox: unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const port = numberFlag('port', lastValue(args, 'port'), 0);
  const pace = numberFlag('pace', lastValue(args, 'pace'), 1);
  const { createSandbox } = await import('../sandbox/index.js');
  const sandbox = createSandbox({ pace });
  let listener;
  try {
    listener = await sandbox.listen({ host: lastValue(args, 'host') ?? '127.0.0.1', port });
  } catch (error) {
    sandbox.close();
    throw new CliUsageError(`sandbox: cannot listen: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { channels, streams, policy } = sandbox.credentials;
  const wsUrl = listener.url.replace(/^http/, 'ws');
  const env: [string, string][] = [
    [envName('channels', 'baseUrl'), listener.baseUrls.channels],
    [envName('channels', 'apiKey'), channels.apiKey],
    [envName('streams', 'baseUrl'), listener.baseUrls.streams],
    [envName('streams', 'wsUrl'), wsUrl],
    [envName('streams', 'apiKey'), streams.apiKey],
    [envName('streams', 'apiSecret'), streams.apiSecret],
    [envName('policy', 'baseUrl'), listener.baseUrls.policy],
    [envName('policy', 'apiKey'), policy.apiKey],
  ];
  const text = [
    `sandbox listening on ${listener.url}`,
    '',
    ...baseUrlLines(listener.baseUrls, `  (live: ${wsUrl})`),
    '',
    'credentials (made up for this run):',
    ...credentialLines(sandbox.credentials),
    '',
    'to point service-sdk at it, in another shell:',
    ...env.map(([name, value]) => `  export ${name}=${value}`),
    '',
    'Ctrl-C stops it.',
    '',
  ].join('\n');
  if (isSet(args, 'json')) {
    const summary = {
      baseUrls: listener.baseUrls,
      wsUrl,
      credentials: { channels: { apiKey: channels.apiKey }, streams: { apiKey: streams.apiKey, apiSecret: streams.apiSecret }, policy: { apiKey: policy.apiKey } },
      // The trust its reports verify against (`verify`, `verifyReport`).
      reportTrust: sandbox.reportTrust,
    };
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    io.stderr.write(text);
  } else {
    io.stdout.write(text);
  }
  await new Promise<void>((resolve) => {
    if (io.signal === undefined) return;
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  sandbox.close();
  // Ctrl-C is how the sandbox is meant to end.
  return 0;
}
