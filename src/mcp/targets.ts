/**
 * Where the tools' requests go: the services, with the credentials the
 * command line resolves (environment, profiles), or with `--sandbox` an
 * offline sandbox in this process. Also every credential value in play, so
 * the server can keep them out of everything it says.
 */
import { CLI_APIS, type CliApi } from '../cli/apis.js';
import type { LooseClient } from '../cli/clients.js';
import { CliUsageError } from '../cli/errors.js';
import type { CliIo } from '../cli/io.js';
import type { ApiSettings } from '../cli/profiles.js';
import type { ReportTrust } from '../reports/verify-types.js';
import type { McpOptions } from './command.js';
import type { ToolContext } from './tool.js';

export interface Targets {
  context: ToolContext;
  secrets: () => readonly string[];
  close(): void;
}

const SECRET_KEYS: readonly (keyof ApiSettings)[] = ['apiKey', 'apiSecret'];

export async function openTargets(options: McpOptions, io: CliIo): Promise<Targets> {
  const { envName } = await import('../cli/credentials.js');
  const secrets = new Set<string>();
  // Whatever the environment holds is kept out of answers, even for an API no tool has called yet.
  for (const api of CLI_APIS) for (const key of SECRET_KEYS) if (io.env[envName(api.credentials, key)]) secrets.add(io.env[envName(api.credentials, key)]!);
  const trust: ReportTrust | undefined = options.trust === undefined ? undefined : await readTrust(options.trust, io);
  let trustOf = async (): Promise<ReportTrust | undefined> => trust;
  let settingsOf: (api: CliApi) => Promise<ApiSettings>;
  let fetch: ((input: Request, init?: RequestInit) => Promise<Response>) | undefined;
  let close = () => {};
  if (options.sandbox) {
    // Made on the first call that needs it: start-up (the answer to `initialize`) does not wait for it.
    let sandbox: Promise<import('../sandbox/index.js').Sandbox> | undefined;
    let made: import('../sandbox/index.js').Sandbox | undefined;
    const theSandbox = () =>
      (sandbox ??= import('../sandbox/index.js').then(({ createSandbox }) => (made = createSandbox({ pace: options.pace }))));
    const given = trust;
    trustOf = async () => given ?? (await theSandbox()).reportTrust;
    fetch = async (input, init) => (await theSandbox()).fetch(input, init);
    close = () => made?.close();
    settingsOf = async (api) => ({ ...(await theSandbox()).credentials[api.credentials] });
  } else {
    const { resolveSettings } = await import('../cli/credentials.js');
    settingsOf = (api) => resolveSettings(api, {}, options.profile, io);
  }
  const clients = new Map<CliApi, Promise<LooseClient>>();
  const make = async (api: CliApi) => {
    const settings = await settingsOf(api);
    for (const key of SECRET_KEYS) if (settings[key]) secrets.add(settings[key]!);
    const { makeClient } = await import('../cli/clients.js');
    return makeClient(api, settings, fetch);
  };
  return {
    context: {
      clientFor: (api) => {
        let client = clients.get(api);
        if (client === undefined) {
          client = make(api);
          clients.set(api, client);
          // A client that could not be made (no credentials yet) is tried again on the next call.
          client.catch(() => clients.delete(api));
        }
        return client;
      },
      trust: () => trustOf(),
      signal: io.signal,
    },
    secrets: () => [...secrets],
    close,
  };
}

async function readTrust(spec: string, io: CliIo): Promise<ReportTrust> {
  const { readJsonArgument } = await import('../cli/body.js');
  const value = await readJsonArgument('--trust', spec, io);
  const { checkReportTrust } = await import('../reports/verify-config.js');
  const { ConfigurationError } = await import('../core/errors.js');
  try {
    return checkReportTrust(value, 'trust');
  } catch (error) {
    if (error instanceof ConfigurationError) throw new CliUsageError(`--trust: ${error.message.replace(/^Invalid option `[^`]*`: /, '')}`);
    throw error;
  }
}
