/**
 * Applying a generated request check (`generated/request-checks/`) to a
 * request: path parameters, query parameters, declared headers and the JSON
 * body, as the operation's spec declares them, and the problem found, named
 * by field. Apart from the checks themselves, so a caller that needs one
 * API's (the command line, through `requestChecksOf`) loads only that API's;
 * `./request-check.ts` re-exports all of it with every API's checks.
 */
import type { SandboxApi } from './apis.js';

/** One error of Ajv's standalone code (the fields the sandbox reads). */
interface CheckError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

type Validator = ((data: unknown) => boolean) & { errors?: CheckError[] | null };

/** One operation's check, as `npm run generate` writes it from the spec. */
export interface RequestCheck {
  readonly method: string;
  readonly path: string;
  /** The 4xx statuses the operation documents. */
  readonly refusals: readonly number[];
  readonly bodyRequired: boolean;
  /** Array query parameters: `repeated` (`?a=1&a=2`) or `comma` (`?a=1,2`). */
  readonly queryShapes: Readonly<Record<string, 'repeated' | 'comma'>>;
  /** The headers it checks, lowercase (most operations declare none). */
  readonly headers: readonly string[];
  readonly parameters: Validator;
  readonly body: Validator | undefined;
}

export type RequestChecks = Readonly<Record<SandboxApi, Readonly<Record<string, RequestCheck>>>>;

/** What is wrong with a request, for the API to word in its own error body. */
export interface RequestProblem {
  /** The status the operation documents for it (400 where it can). */
  status: number;
  location: 'path' | 'query' | 'header' | 'body';
  /** A parameter's name, or the body field as a path (`body`, `body.transactions[0].to`). */
  field: string;
  /** For an unknown field: the object holding it (`body`) and the field's own name (`labels`). */
  parent?: string;
  key?: string;
  kind: 'required' | 'unknown' | 'invalid';
  /** What was expected, in words (`a UUID`, `one of ecdsa, rsa`); for `invalid`. */
  expected?: string;
  /** The value sent, for parameters (always text). */
  value?: unknown;
}

export interface CheckedRequest {
  pathParams: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: Headers;
  /** The parsed JSON body, or `undefined` when there was none. */
  body: unknown;
}

/**
 * A request's parameters as its check hands them over: coerced to the
 * declared types (`?page=2` → `2`, `?include=true` → `true`, a repeated or
 * comma-separated list → an array), absent ones given the declared default.
 * Handlers read these and restate no rule of the spec.
 */
export interface CheckedParameters {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly header: Readonly<Record<string, unknown>>;
}

/** A request's checked query parameters, by name (`CheckedParameters.query`). */
export type QueryValues = CheckedParameters['query'];

/** What `applyRequestCheck` finds: the request's problem, or its checked parameters. */
export type RequestCheckResult = { readonly problem: RequestProblem; readonly parameters?: undefined } | { readonly problem?: undefined; readonly parameters: CheckedParameters };

/**
 * Runs `check` on `request`: the first thing that breaks the operation's
 * spec, or the parameters coerced and completed with their defaults.
 * The stable entry point for anything that checks a request against the
 * spec (the sandbox, the command line).
 */
export function applyRequestCheck(check: RequestCheck, request: CheckedRequest): RequestCheckResult {
  const parameters = { path: { ...request.pathParams }, query: queryObject(request.query, check.queryShapes), header: headerObject(request.headers, check.headers) };
  // The check coerces and completes `parameters` in place (Ajv's coerceTypes and useDefaults).
  if (!check.parameters(parameters)) {
    return { problem: problemOf(check, check.parameters.errors ?? [], parameters) };
  }
  if (request.body === undefined) {
    if (check.bodyRequired) return { problem: { status: statusFor(check, 'body'), location: 'body', field: 'body', kind: 'required' } };
    return { parameters };
  }
  if (check.body !== undefined && !check.body(request.body)) {
    return { problem: problemOf(check, (check.body.errors ?? []).map((error) => ({ ...error, instancePath: `/body${error.instancePath}` })), { body: request.body }) };
  }
  return { parameters };
}

/** The first thing in `request` that breaks `check`, or `undefined` when it fits. */
export function checkRequest(check: RequestCheck, request: CheckedRequest): RequestProblem | undefined {
  return applyRequestCheck(check, request).problem;
}

function queryObject(query: URLSearchParams, shapes: RequestCheck['queryShapes']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    const shape = shapes[name];
    if (shape === 'comma') out[name] = values.join(',') === '' ? [] : values.join(',').split(',');
    // A parameter that takes one value, sent twice, is refused as a list: "expected an integer", not the last one taken.
    else out[name] = shape === 'repeated' || values.length > 1 ? values : values[0]!;
  }
  return out;
}

/** Only the declared headers: walking every header of every request would cost more than the check. */
function headerObject(headers: Headers, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/**
 * A problem's status: the one the operation documents. `400` where it can;
 * a malformed path parameter names nothing, so `404` where there is no
 * `400` (or `403`, where the service hides what it cannot show); else the
 * nearest documented refusal, else `400` (and the answer validator reports
 * the gap in the spec).
 */
function statusFor(check: RequestCheck, location: RequestProblem['location']): number {
  const order = location === 'path' ? [400, 404, 403, 422, 409] : [400, 422, 409, 404, 403];
  return order.find((status) => check.refusals.includes(status)) ?? 400;
}

/**
 * The errors to report. Inside a `oneOf`/`anyOf` Ajv reports each variant's
 * first error and then the combinator's. The variant that went deepest into
 * the value is the one the caller most likely meant; when several went as
 * deep, each is named (`one of its variants: …`).
 */
function pickErrors(errors: readonly CheckError[]): CheckError[] {
  const specific = errors.filter((error) => !(error.keyword === 'oneOf' && error.params.passingSchemas == null) && error.keyword !== 'anyOf' && error.keyword !== 'if');
  if (specific.length === 0) return errors.slice(0, 1);
  const deepest = Math.max(...specific.map((error) => depth(error.instancePath)));
  const seen = new Set<string>();
  return specific.filter((error) => {
    const key = `${error.instancePath} ${error.keyword} ${JSON.stringify(error.params)}`;
    if (depth(error.instancePath) !== deepest || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length;
}

function problemOf(check: RequestCheck, errors: readonly CheckError[], data: unknown): RequestProblem {
  const picked = pickErrors(errors);
  if (picked.length === 0) return { status: statusFor(check, 'body'), location: 'body', field: 'body', kind: 'invalid', expected: 'a request its spec allows' };
  const problems = picked.map((error) => problemOfError(check, error, data));
  if (problems.length === 1) return problems[0]!;
  // Several variants fail as deep: the field that holds them, and what each variant wanted.
  const first = problems[0]!;
  const holder = first.kind === 'invalid' ? first.field : (first.parent ?? first.field);
  const alternatives = problems.map((problem) => `${problem.field} ${problem.kind === 'required' ? 'required' : problem.kind === 'unknown' ? 'not allowed' : `as ${problem.expected}`}`);
  return { status: first.status, location: first.location, field: holder, kind: 'invalid', expected: `one of its variants: ${alternatives.join('; or ')}` };
}

function problemOfError(check: RequestCheck, error: CheckError, data: unknown): RequestProblem {
  const segments = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const location = segments[0] as RequestProblem['location'];
  const status = statusFor(check, location);
  if (location === 'body') {
    const field = bodyPath(segments.slice(1));
    if (error.keyword === 'required' || error.keyword === 'dependentRequired') {
      return { status, location, field: joinField(field, String(error.params.missingProperty)), parent: field, kind: 'required' };
    }
    if (error.keyword === 'discriminator') {
      // The property that names the variant (`type`, `status`) is missing, or names none.
      const tag = String(error.params.tag);
      if (error.params.tagValue === undefined) return { status, location, field: joinField(field, tag), parent: field, kind: 'required' };
      return { status, location, field: joinField(field, tag), kind: 'invalid', expected: `a ${tag} that names one of its variants` };
    }
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const key = String(error.params.additionalProperty ?? error.params.unevaluatedProperty);
      return { status, location, field: joinField(field, key), parent: field, key, kind: 'unknown' };
    }
    return { status, location, field, kind: 'invalid', expected: expectedOf(error) };
  }
  // Parameters: `/query/limit` (or `/query` itself when a required one is missing).
  if (error.keyword === 'required') return { status, location, field: String(error.params.missingProperty), kind: 'required' };
  const name = segments[1] ?? location;
  const group = (data as Record<string, Record<string, unknown>>)[location];
  return { status, location, field: name, kind: 'invalid', expected: expectedOf(error), value: group?.[name] };
}

/** `['transactions', '0', 'to']` → `body.transactions[0].to`. */
function bodyPath(segments: readonly string[]): string {
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : `${path}.${segment}`), 'body');
}

function joinField(parent: string, key: string): string {
  return `${parent}.${key}`;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  uuid: 'a UUID',
  'date-time': 'an RFC 3339 date-time such as 2026-03-04T09:15:27Z',
  date: 'an RFC 3339 date such as 2026-03-04',
  uri: 'a URI',
  email: 'an email address',
  int64: 'a 64-bit integer',
  int32: 'a 32-bit integer',
};

/** What the failed keyword expected, in words. */
function expectedOf(error: CheckError): string {
  const { keyword, params } = error;
  const limit = params.limit as number;
  switch (keyword) {
    case 'type':
      return String(params.type)
        .split(',')
        .map((type) => TYPE_WORDS[type] ?? type)
        .join(' or ');
    case 'pattern':
      return `a string matching ${String(params.pattern)}`;
    case 'format':
      return FORMAT_WORDS[String(params.format)] ?? `a ${String(params.format)}`;
    case 'enum':
      return `one of ${(params.allowedValues as unknown[]).map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')}`;
    case 'const':
      return JSON.stringify(params.allowedValue);
    case 'minLength':
      return `a string of at least ${limit} character(s)`;
    case 'maxLength':
      return `a string of at most ${limit} characters`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `a number ${String(params.comparison)} ${limit}`;
    case 'multipleOf':
      return `a multiple of ${String(params.multipleOf)}`;
    case 'minItems':
      return `at least ${limit} item(s)`;
    case 'maxItems':
      return `at most ${limit} items`;
    case 'uniqueItems':
      return 'unique items';
    case 'minProperties':
      return `at least ${limit} field(s)`;
    case 'maxProperties':
      return `at most ${limit} fields`;
    case 'oneOf':
      return 'exactly one of its variants, not several';
    case 'not':
      return 'a value its schema does not exclude';
    default:
      return `a value that satisfies ${keyword}`;
  }
}
