/**
 * The command line's own flags (beyond each operation's parameters): how
 * each parses, its line of help, and which ones apply where. An operation
 * takes only the flags that mean something for it (`--all` on a list that
 * pages, `--wait` where a wait exists, `--data` with a body, the streams
 * API's secret and network on streams), so its help lists exactly those and
 * any other is refused as unknown.
 */
import type { CliApi } from './apis.js';
import type { FlagSpec } from './argv.js';
import { pagingOf } from './paging.js';
import type { CliOperation } from './spec-table.js';
import { waitFlowOf } from './waits.js';

interface CliFlag extends FlagSpec {
  /** `--name <value>` as help shows it, and what it does. */
  readonly usage: string;
  readonly help: string;
}

/** Every flag of the command line itself, by name. */
export const FLAGS = {
  help: { boolean: true, short: 'h', usage: '-h, --help', help: 'this help' },
  data: { usage: '--data <json|@file|@->', help: 'request body (JSON inline, from a file, or from stdin)' },
  output: { usage: '--output json|ndjson|table', help: 'how the result is printed (default json)' },
  filter: { usage: '--filter <expr>', help: 'JMESPath applied to the result (to each item of a walked list)' },
  all: { boolean: true, usage: '--all', help: 'every page of the list, streamed: NDJSON, or the --output format' },
  paginate: { boolean: true, usage: '--paginate', help: 'the same as --all (as gh api calls it)' },
  'max-items': { usage: '--max-items <n>', help: 'with --all: stop after n items' },
  wait: { boolean: true, usage: '--wait', help: 'wait for the work started to end, statuses on stderr' },
  'wait-interval': { usage: '--wait-interval <duration>', help: 'first pause between two reads of --wait (500ms, 2s, 1m; a bare number is ms; default 1s)' },
  'wait-timeout': { usage: '--wait-timeout <duration>', help: 'how long --wait waits (500ms, 30s, 10m; default 10m), then exit 4' },
  'no-check': { boolean: true, usage: '--no-check', help: 'send the request as given: no check of its path, parameters or body against the spec' },
  'dry-run': { boolean: true, usage: '--dry-run', help: 'print the request as curl (the key as its variable); send nothing' },
  'base-url': { usage: '--base-url <url>', help: "the API's base URL" },
  'api-key': { usage: '--api-key <key|->', help: 'the API key (- reads it from stdin)' },
  'api-secret': { usage: '--api-secret <secret|->', help: 'the HMAC secret of the streams API (- reads it from stdin)' },
  network: { usage: '--network testnet|mainnet', help: 'the streams deployment, when no --base-url is given' },
  'ws-url': { usage: '--ws-url <url>', help: 'the WebSocket host of the live stream' },
  profile: { usage: '--profile <name>', help: 'a saved profile (service-sdk profile set)' },
  verbose: { boolean: true, short: 'v', usage: '-v, --verbose', help: 'each request and answer on stderr (method, URL, headers, status, time; credentials redacted)' },
  include: { boolean: true, short: 'i', usage: '-i, --include', help: "the answer's status line and headers before the body" },
  header: { short: 'H', usage: "-H, --header 'Name: value'", help: 'a request header (repeatable; not the credentials\' headers)' },
  decode: { boolean: true, usage: '--decode', help: "each report's values in human units" },
  count: { usage: '--count <n>', help: 'stop after this many reports' },
  'reconnect-attempts': { usage: '--reconnect-attempts <n>', help: 'failed connections in a row before giving up, exit 3 (default 10)' },
  verify: { boolean: true, usage: '--verify', help: "only reports whose signatures --trust vouches for (others on stderr)" },
  trust: { usage: '--trust <json|@file|@->', help: 'the oracle network configurations reports are checked against (reportTrust)' },
  'feed-ids': { usage: '--feed-ids <id,…>', help: 'the streams to watch (as well as the arguments)' },
} as const satisfies Record<string, CliFlag>;

/** The name of one of the command line's own flags. */
export type FlagName = keyof typeof FLAGS;

const COMMON: readonly FlagName[] = ['help', 'output', 'filter', 'base-url', 'api-key', 'profile', 'verbose', 'include', 'header'];
const STREAMS: readonly FlagName[] = ['api-secret', 'network'];

function flagMap(names: readonly FlagName[]): Map<string, FlagSpec> {
  return new Map(names.map((name): [string, FlagSpec] => [name, FLAGS[name] as CliFlag]));
}

/** The command line's flags that apply to `operation`, by name. */
export function commandFlagsOf(api: CliApi, operation: CliOperation): FlagName[] {
  return [
    ...COMMON,
    ...(operation.body ? (['data'] as const) : []),
    ...(pagingOf(api, operation) ? (['all', 'max-items'] as const) : []),
    ...(waitFlowOf(api.spec, operation.id) ? (['wait', 'wait-interval', 'wait-timeout'] as const) : []),
    'dry-run',
    ...(api.credentials === 'streams' ? STREAMS : []),
  ];
}

/** Every flag `operation` takes: the command line's that apply, and its parameters. */
export function operationFlags(api: CliApi, operation: CliOperation): Map<string, FlagSpec> {
  const known = flagMap(commandFlagsOf(api, operation));
  for (const param of operation.params) known.set(param.flag, param.schema.type === 'boolean' ? { boolean: true } : {});
  return known;
}

/** The streams API's commands beyond its operations (src/cli/streams-flows.ts, src/cli/verify-command.ts). */
export type StreamsFlow = 'latest' | 'watch' | 'verify';

/** The flags of `streams latest`, `streams watch` and `streams verify`. */
export function streamsFlowFlagNames(flow: StreamsFlow): FlagName[] {
  if (flow === 'verify') return ['help', 'trust'];
  return [
    ...COMMON.filter((name) => name !== 'include'),
    ...STREAMS,
    ...(flow === 'latest' ? (['decode'] as const) : (['ws-url', 'count', 'reconnect-attempts', 'feed-ids'] as const)),
    'verify',
    'trust',
  ];
}

/** The flags of a streams flow, as the parser takes them. */
export function streamsFlowFlags(flow: StreamsFlow): Map<string, FlagSpec> {
  return flagMap(streamsFlowFlagNames(flow));
}

/** The `options:` block of a command's help, one line per flag. */
export function optionsHelp(names: readonly FlagName[]): string {
  const width = Math.max(...names.map((name) => FLAGS[name].usage.length));
  return ['options:', ...names.map((name) => `  ${FLAGS[name].usage.padEnd(width)}  ${FLAGS[name].help}`)].join('\n');
}
