/** Help texts, from the spec tables: the program, one API, one operation. */

import { CLI_APIS, type CliApi } from './apis.js';
import { commandFlagsOf, optionsHelp } from './flags.js';
import { pagingOf } from './paging.js';
import type { CliOperation, CliTable, ParamSchema } from './spec-table.js';
import { SETTINGS_ORDER } from './settings-order.js';
import { waitFlowOf } from './waits.js';

export const PROGRAM_HELP = `usage: service-sdk <api> <operation> [--<parameter> <value>…] [options]
       service-sdk <api> request <METHOD> <path> [--data <json>]
       service-sdk streams latest <feedID>… [--decode] [--verify --trust <json|@file|@->]
       service-sdk streams watch <feedID>… [--verify --trust <json|@file|@->]
       service-sdk streams verify <fullReport|@file|@-> --trust <json|@file|@->
       service-sdk sandbox [--port N] [--json]
       service-sdk mcp [--sandbox] [--apis <list>] [--read-only] [--dynamic]   (MCP tools over stdio)
       service-sdk profile set <name> --api <channels|streams|policy> [--api-key K] [--api-secret S] [--base-url U] [--network N]
       service-sdk completion bash|zsh|fish
       service-sdk help [<api> [<operation>]]
       service-sdk version

APIs (service-sdk <api> --help lists the operations):
${CLI_APIS.map((api) => `  ${api.name.padEnd(12)} ${api.summary}${api.aliases.length ? ` (also: ${api.aliases.join(', ')})` : ''}`).join('\n')}

Credentials: --api-key, --api-secret (streams), --base-url, --network (streams), --profile NAME;
or SERVICE_SDK_<CHANNELS|STREAMS|POLICY>_<API_KEY|API_SECRET|BASE_URL|NETWORK>; or a profile.
Settings are taken from ${SETTINGS_ORDER}.

Output: JSON (pretty on a terminal), --output ndjson|table, --filter <JMESPath>.
Exit codes: 0 ok, 1 the service answered an error, 2 bad usage (nothing sent), 3 no answer,
4 a --wait ran out of --wait-timeout (last state on stdout), 130 interrupted.
`;

export function apiHelp(api: CliApi, table: CliTable): string {
  const width = Math.max(...table.operations.map((operation) => operation.name.length));
  return [
    `usage: service-sdk ${api.name} <operation> [options]`,
    '',
    `${table.title} ${table.version}: ${api.summary}`,
    '',
    'operations:',
    ...table.operations.map((operation) => `  ${operation.name.padEnd(width)}  ${operation.summary ?? `${operation.method} ${operation.path}`}`),
    ...(api.name === 'streams' ? ['', 'flows:', '  latest <feedID>… [--decode]   latest report of each stream', '  watch <feedID>…               the live stream as NDJSON, until Ctrl-C', '  verify <fullReport|@file|@->  check a report\'s signatures against --trust'] : []),
    '',
    `service-sdk ${api.name} <operation> --help shows its parameters.`,
    '',
  ].join('\n');
}

/** The expected form of a parameter, for help: `integer ≥ 1 ≤ 100`, `one of a|b`, `uuid`. */
export function describeSchema(schema: ParamSchema): string {
  if (schema.type === 'array') return `list of ${describeSchema(schema.items ?? { type: 'string' })}, comma-separated or repeated`;
  if (schema.enum) return `one of ${schema.enum.join('|')}`;
  const bounds = [schema.minimum !== undefined ? `≥ ${schema.minimum}` : '', schema.maximum !== undefined ? `≤ ${schema.maximum}` : ''].filter(Boolean);
  const base = schema.format && schema.type === 'string' ? schema.format : schema.type;
  const pattern = schema.pattern && !schema.format ? ` matching ${schema.pattern}` : '';
  return `${base}${bounds.length ? ` ${bounds.join(' ')}` : ''}${pattern}`;
}

/** The body's fields, one line each: name, type (or its enum), required mark, then the description. */
function bodyFieldLines(fields: NonNullable<NonNullable<CliOperation['body']>['fields']>): string[] {
  const typeOf = (field: (typeof fields)[number]) => (field.enum ? `one of ${field.enum.join('|')}` : field.type);
  const nameWidth = Math.max(...fields.map((field) => field.name.length));
  const typeWidth = Math.max(...fields.map((field) => typeOf(field).length));
  return fields.flatMap((field) => [
    `  ${field.name.padEnd(nameWidth)}  ${typeOf(field).padEnd(typeWidth)}${field.required ? '  (required)' : ''}`.trimEnd(),
    ...(field.description ? [`      ${field.description}`] : []),
  ]);
}

function exampleText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function operationHelp(api: CliApi, operation: CliOperation): string {
  const lines = [`usage: service-sdk ${api.name} ${operation.name} [options]`, ''];
  if (operation.summary) lines.push(operation.summary);
  lines.push(`${operation.method} ${operation.path}  (operationId ${operation.id})`, '');
  if (operation.params.length > 0) {
    lines.push('parameters:');
    for (const param of operation.params) {
      lines.push(`  --${param.flag} <${describeSchema(param.schema)}>${param.required ? '  (required)' : ''}  [${param.in}]`);
      if (param.description) lines.push(`      ${param.description}`);
      if (param.example !== undefined) lines.push(`      example: ${exampleText(param.example)}`);
    }
    lines.push('');
  }
  if (operation.body) {
    lines.push(`body: --data <json|@file|@->${operation.body.required ? '  (required)' : ''}`);
    if (operation.body.fields) lines.push(...bodyFieldLines(operation.body.fields));
    if (operation.body.example !== undefined) lines.push(`  example: --data '${JSON.stringify(operation.body.example)}'`);
    lines.push('');
  }
  if (pagingOf(api, operation)) lines.push('pages: --all walks every page, streamed in the --output format.', '');
  if (waitFlowOf(api.spec, operation.id)) lines.push('waits: --wait polls the work it starts to a terminal status.', '');
  lines.push(optionsHelp(commandFlagsOf(api, operation)), '');
  return lines.join('\n');
}
