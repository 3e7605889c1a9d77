/**
 * A command's parameters and body checked before sending, with the same
 * generated request checks the sandbox applies (src/sandbox/request-check.ts,
 * through its `applyRequestCheck`, one API's checks at a time): one reading of the spec for both, so
 * the command line refuses exactly what the sandbox (and the service's
 * spec) refuses: formats, patterns, enums, bounds, `minItems`, unknown body
 * fields. A problem is a usage error naming the flag (`--limit`) or the
 * body's JSON path (`--data: body.name is required`) and what the spec
 * expects; the values come back typed as the spec declares them.
 */
import type { CliApi } from './apis.js';
import type { ParsedArgs } from './argv.js';
import { CliUsageError } from './errors.js';
import type { CliOperation, CliParam } from './spec-table.js';
import type { CheckedParameters, CheckedRequest, RequestCheck, RequestProblem } from '../checks/apply-request-check.js';

/** The operation's generated check; only its own API's checks are loaded (start-up). */
async function checkOf(api: CliApi, operation: CliOperation): Promise<RequestCheck> {
  const { requestChecksOf } = await import('../checks/request-checks-of.js');
  const check = (await requestChecksOf(api.spec))[operation.id];
  if (check === undefined) throw new Error(`no generated request check for ${api.spec} ${operation.id}`);
  return check;
}

/** A request's parameters by place, typed as the spec declares them. */
export type Params = Record<'path' | 'query' | 'header', Record<string, unknown>>;

/**
 * The operation's parameters from the flags given, and its body, checked
 * against the spec; each parameter typed as declared. Only the parameters
 * given are returned: what is sent is what the user typed.
 */
export async function checkedRequest(api: CliApi, operation: CliOperation, args: ParsedArgs, body: unknown): Promise<Params> {
  const given: CliParam[] = [];
  const pathParams: Record<string, string> = {};
  const query = new URLSearchParams();
  const headers = new Headers();
  for (const param of operation.params) {
    const texts = args.flags.get(param.flag);
    if (texts === undefined) {
      if (param.required) throw new CliUsageError(`missing required --${param.flag} (${param.in} parameter ${param.name})`);
      continue;
    }
    if (param.schema.type !== 'array' && texts.length > 1) throw new CliUsageError(`--${param.flag}: given ${texts.length} times, expected once`);
    given.push(param);
    const values = param.schema.type === 'array' ? texts.flatMap((text) => text.split(',')) : texts;
    if (param.in === 'path') pathParams[param.name] = values[0]!;
    else if (param.in === 'query') for (const value of values) query.append(param.name, value);
    else headers.set(param.name, values.join(','));
  }
  const { applyRequestCheck } = await import('../checks/apply-request-check.js');
  const check = await checkOf(api, operation);
  const result = applyRequestCheck(check, { pathParams, query, headers, body });
  if (result.problem !== undefined) {
    const { problem } = result;
    const param = operation.params.find((candidate) => candidate.name === problem.field && candidate.in === problem.location);
    throw refusal(problem, param ? `--${param.flag}` : problem.field);
  }
  const out: Params = { path: {}, query: {}, header: {} };
  for (const param of given) out[param.in][param.name] = result.parameters[param.in][param.name];
  return out;
}

/**
 * A raw request (`<api> request <METHOD> <path>`) checked as its operation's
 * command checks it: the path's parameters, the query string, the headers
 * given with -H and the body. Parameters are named by place and name
 * (`query parameter limit`), as the user wrote them in the path; the body
 * in the operation command's words (`--data: body.name is required`).
 */
export async function checkRawRequest(api: CliApi, operation: CliOperation, request: CheckedRequest): Promise<CheckedParameters> {
  const named = `${operation.method} ${operation.path} (${operation.name})`;
  if (request.body !== undefined && operation.body === undefined) throw new CliUsageError(`--data: ${named} takes no request body`);
  if (request.body === undefined && operation.body?.required) throw new CliUsageError(`missing --data: ${named} needs a JSON request body`);
  const { applyRequestCheck } = await import('../checks/apply-request-check.js');
  const result = applyRequestCheck(await checkOf(api, operation), request);
  if (result.problem !== undefined) throw refusal(result.problem, `${result.problem.location} parameter ${result.problem.field}`);
  return result.parameters;
}

/**
 * What the check found, as the usage error that refuses it: a body problem
 * by its JSON path after `--data:`, a parameter's by `parameterName` (the
 * flag, or where it sits in a raw request's path) with what the spec expects
 * and the value given.
 */
function refusal(problem: RequestProblem, parameterName: string): CliUsageError {
  if (problem.location === 'body') {
    const what = problem.kind === 'required' ? 'is required' : problem.kind === 'unknown' ? 'is not a field the spec allows' : undefined;
    return new CliUsageError(`--data: ${problem.field}${what ? ` ${what}` : `: expected ${problem.expected}`}`);
  }
  if (problem.kind === 'required') return new CliUsageError(`missing required ${parameterName}`);
  return new CliUsageError(`${parameterName}: expected ${problem.expected ?? 'a value the spec allows'}, got ${JSON.stringify(problem.value)}`);
}

/** One value of a parameter checked alone (a feed ID given as an argument), named as the user gave it. */
export async function checkedValue(api: CliApi, operation: CliOperation, param: CliParam, value: string, label: string): Promise<unknown> {
  const { applyRequestCheck } = await import('../checks/apply-request-check.js');
  const check = await checkOf(api, operation);
  const query = new URLSearchParams();
  const pathParams: Record<string, string> = {};
  if (param.in === 'path') pathParams[param.name] = value;
  else query.append(param.name, value);
  const result = applyRequestCheck(check, { pathParams, query, headers: new Headers(), body: undefined });
  const problem = result.problem;
  if (problem !== undefined && problem.field === param.name) {
    // A flag is named with the value given; an argument's label already quotes it.
    throw new CliUsageError(`${label}: expected ${problem.expected ?? 'a value the spec allows'}${label.startsWith('--') ? `, got ${JSON.stringify(value)}` : ''}`);
  }
  return value;
}
