/**
 * The APIs the command line knows, by the names users type. Kept tiny and
 * free of imports: `service-sdk --help` and completion read only this, so
 * start-up stays close to bare `node`; an API's operation table and client are
 * imported when that API is named.
 */
export type CredentialGroup = 'channels' | 'streams' | 'policy';

export interface CliApi {
  /** The command name. */
  readonly name: string;
  /** Other names accepted for it (the spec's own name). */
  readonly aliases: readonly string[];
  /** The spec document under generated/cli/ and generated/openapi/. */
  readonly spec: 'channels' | 'streams' | 'policy-coordinator' | 'policy-evaluation' | 'policy-reporting';
  /** Whose credentials it takes (the three policy APIs share one key and host). */
  readonly credentials: CredentialGroup;
  readonly summary: string;
}

export const CLI_APIS: readonly CliApi[] = [
  { name: 'channels', aliases: [], spec: 'channels', credentials: 'channels', summary: 'wallets, channels, operations, queries, watchers, events' },
  { name: 'streams', aliases: ['data-streams'], spec: 'streams', credentials: 'streams', summary: 'signed reports, the stream catalog, the live stream' },
  { name: 'coordinator', aliases: ['policy-coordinator'], spec: 'policy-coordinator', credentials: 'policy', summary: 'policy engines, policies, contracts (read-write)' },
  { name: 'evaluation', aliases: ['policy-evaluation'], spec: 'policy-evaluation', credentials: 'policy', summary: 'policy evaluations and permits' },
  { name: 'reporting', aliases: ['policy-reporting'], spec: 'policy-reporting', credentials: 'policy', summary: 'indexed onchain policy state (read-only)' },
];

export function findApi(name: string): CliApi | undefined {
  return CLI_APIS.find((api) => api.name === name || api.aliases.includes(name));
}

/** The commands besides the APIs. */
export const TOP_COMMANDS: readonly string[] = ['sandbox', 'mcp', 'profile', 'completion', 'help', 'version'];

/** Every top-level command, APIs first: for the message that refuses an unknown one. */
export function topLevelCommands(): string[] {
  return [...CLI_APIS.map((api) => api.name), ...TOP_COMMANDS];
}
