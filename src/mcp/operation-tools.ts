/**
 * One tool per operation of the command line's tables (generated/cli): its
 * name (`channels_list_wallets`), description and hints from the spec, and
 * an input schema of the operation's parameters (by their spec names) and
 * its JSON `body` (generated/tool-schemas). A call is checked with the
 * generated request checks the CLI and the sandbox apply, then sent by the
 * API's typed client.
 */
import type { CliApi } from '../cli/apis.js';
import type { CliOperation, CliParam } from '../cli/spec-table.js';
import type { CheckedRequest, RequestCheck, RequestProblem } from '../checks/apply-request-check.js';
import { ToolInputError, type JsonSchema, type Tool, type ToolHints } from './tool.js';

/** Operations that are not a request and answer: the live stream has `streams watch` and latest_reports. */
const NOT_TOOLS = new Set(['streams.streamReports']);

/** Operations the service deduplicates by a key in the body: sending one again does nothing new. */
const DEDUPLICATED = new Set(['channels.createQuery', 'channels.createOperation']);

const bodyLoaders: Record<CliApi['spec'], () => Promise<{ bodySchemas: Record<string, JsonSchema> }>> = {
  channels: () => import('../../generated/tool-schemas/channels.js'),
  streams: () => import('../../generated/tool-schemas/streams.js'),
  'policy-coordinator': () => import('../../generated/tool-schemas/policy-coordinator.js'),
  'policy-evaluation': () => import('../../generated/tool-schemas/policy-evaluation.js'),
  'policy-reporting': () => import('../../generated/tool-schemas/policy-reporting.js'),
};

/** `channels` + `list-wallets` → `channels_list_wallets`. */
export function toolName(api: CliApi, operation: CliOperation): string {
  return `${api.name}_${operation.name.replace(/-/g, '_')}`;
}

export function writes(operation: CliOperation): boolean {
  return operation.method !== 'GET' && operation.method !== 'HEAD';
}

/** Reads are read-only; deletes and cancels destroy; the service's deduplicated creates (and PUT, DELETE) are idempotent. */
export function hintsOf(api: CliApi, operation: CliOperation): ToolHints {
  if (!writes(operation)) return { readOnlyHint: true, openWorldHint: true };
  const destructive = operation.method === 'DELETE' || /cancel|delete|remove|revoke/i.test(operation.id);
  const idempotent = DEDUPLICATED.has(`${api.spec}.${operation.id}`) || operation.method === 'PUT' || operation.method === 'DELETE';
  return { readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: true };
}

function paramSchema(param: CliParam): JsonSchema {
  return { ...(param.description ? { description: `${param.description} (${param.in})` } : { description: `(${param.in})` }), ...param.schema };
}

/** The input schema: the parameters by name, and `body` with its `$defs` lifted to the top (where its `$ref`s point). */
function inputSchemaOf(operation: CliOperation, body: JsonSchema | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of operation.params) {
    properties[param.name] = paramSchema(param);
    if (param.required) required.push(param.name);
  }
  let $defs: JsonSchema | undefined;
  if (operation.body !== undefined) {
    const { $defs: defs, ...schema } = body ?? { type: 'object' };
    $defs = defs as JsonSchema | undefined;
    properties.body = schema;
    if (operation.body.required) required.push('body');
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...($defs ? { $defs } : {}),
  };
}

function descriptionOf(api: CliApi, operation: CliOperation): string {
  const summary = operation.summary ?? operation.id;
  return `${summary}. ${api.name} API: ${operation.method} ${operation.path}.`;
}

/** The tools of one API's operations. */
export async function operationTools(api: CliApi): Promise<Tool[]> {
  const { loadTable } = await import('../cli/spec-table.js');
  const table = await loadTable(api);
  const { bodySchemas } = await bodyLoaders[api.spec]();
  return table.operations
    .filter((operation) => !NOT_TOOLS.has(`${api.spec}.${operation.id}`))
    .map((operation) => ({
      name: toolName(api, operation),
      description: descriptionOf(api, operation),
      inputSchema: inputSchemaOf(operation, bodySchemas[operation.id]),
      annotations: hintsOf(api, operation),
      api,
      operation,
      run: async (args, context) => ({ value: await callOperation(api, operation, args, await context.clientFor(api), context.signal) }),
    }));
}

/** The request's parameters by place, typed as the spec declares them, and its body, checked; or a ToolInputError naming the argument. */
export async function checkedCall(api: CliApi, operation: CliOperation, args: Record<string, unknown>): Promise<{ params: Record<'path' | 'query' | 'header', Record<string, unknown>>; body: unknown }> {
  for (const key of Object.keys(args)) {
    if (key === 'body' ? operation.body === undefined : !operation.params.some((param) => param.name === key)) {
      throw new ToolInputError(`${key}: not ${key === 'body' ? 'taken' : 'a parameter'} by ${toolName(api, operation)}`);
    }
  }
  const given: CliParam[] = [];
  const request: CheckedRequest = { pathParams: {}, query: new URLSearchParams(), headers: new Headers(), body: args.body };
  const pathParams: Record<string, string> = {};
  for (const param of operation.params) {
    const value = args[param.name];
    if (value === undefined || value === null) {
      if (param.required) throw new ToolInputError(`${param.name} is required (${param.in} parameter)`);
      continue;
    }
    given.push(param);
    const values = (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
    if (param.in === 'path') pathParams[param.name] = values[0]!;
    else if (param.in === 'query') for (const item of values) request.query.append(param.name, item);
    else request.headers.set(param.name, values.join(','));
  }
  if (args.body === undefined && operation.body?.required) throw new ToolInputError(`body is required: ${toolName(api, operation)} sends a JSON request body`);
  const { applyRequestCheck } = await import('../checks/apply-request-check.js');
  const { requestChecksOf } = await import('../checks/request-checks-of.js');
  const check = (await requestChecksOf(api.spec))[operation.id] as RequestCheck;
  const result = applyRequestCheck(check, { ...request, pathParams });
  if (result.problem !== undefined) throw new ToolInputError(problemText(result.problem));
  const params = { path: {}, query: {}, header: {} } as Record<'path' | 'query' | 'header', Record<string, unknown>>;
  for (const param of given) params[param.in][param.name] = result.parameters[param.in][param.name];
  return { params, body: args.body };
}

/** A problem the check found, in words naming the argument: `body.name is required`, `limit: expected …, got "0"`. */
function problemText(problem: RequestProblem): string {
  if (problem.kind === 'required') return `${problem.field} is required`;
  if (problem.kind === 'unknown') return `${problem.field} is not a field the spec allows`;
  const expected = `expected ${problem.expected ?? 'a value the spec allows'}`;
  return problem.location === 'body' ? `${problem.field}: ${expected}` : `${problem.field}: ${expected}, got ${JSON.stringify(problem.value)}`;
}

/** Checks the arguments, sends the request with the API's client, and answers its data (a HEAD answer: its headers). */
export async function callOperation(api: CliApi, operation: CliOperation, args: Record<string, unknown>, client: import('../cli/clients.js').LooseClient, signal?: AbortSignal): Promise<unknown> {
  const { params, body } = await checkedCall(api, operation, args);
  const { unwrap } = await import('../core/unwrap.js');
  const result = client[operation.method]!(operation.path, { params, ...(body === undefined ? {} : { body }), ...(signal ? { signal } : {}) });
  const data = await unwrap(result);
  return operation.method === 'HEAD' ? Object.fromEntries((await result).response.headers) : data;
}
