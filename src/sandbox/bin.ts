#!/usr/bin/env node
/**
 * `npx service-sdk-sandbox [--port N] [--host H] [--pace P]`: the sandbox as
 * a standalone HTTP server, for code in another process or language. It
 * prints each API's base URL and the credentials it accepts; printing them
 * is the point here: they are made up for this run and open nothing but this
 * sandbox. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { createSandbox } from './sandbox.js';
import { baseUrlLines, credentialLines } from './summary-lines.js';

const USAGE = `usage: service-sdk-sandbox [--port N] [--host H] [--pace P]

  --port N   port to listen on (default 0: a free port)
  --host H   interface to bind (default 127.0.0.1)
  --pace P   sandbox ms per real ms (default 1; 0 freezes time)
`;

function fail(message: string): never {
  process.stderr.write(`service-sdk-sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function numberFlag(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) fail(`--${name} must be a number, got ${JSON.stringify(raw)}`);
  return value;
}

async function main(): Promise<void> {
  let flags: { port?: string; host?: string; pace?: string; help?: boolean };
  try {
    ({ values: flags } = parseArgs({
      options: { port: { type: 'string' }, host: { type: 'string' }, pace: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (flags.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = numberFlag('port', flags.port, 0);
  const pace = numberFlag('pace', flags.pace, 1);
  let sandbox;
  let listener;
  try {
    sandbox = createSandbox({ pace });
    listener = await sandbox.listen({ host: flags.host ?? '127.0.0.1', port });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  process.stdout.write(
    [
      `sandbox listening on ${listener.url}`,
      '',
      'base URLs (the clients\' baseUrl option)',
      ...baseUrlLines(listener.baseUrls),
      '',
      'credentials (made up for this run)',
      ...credentialLines(sandbox.credentials),
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );

  const stop = () => {
    void listener.close().then(() => {
      sandbox.close();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
