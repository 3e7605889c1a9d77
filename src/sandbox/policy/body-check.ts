/**
 * A small checker for request bodies and parameters, written in the shape of
 * the specs' request schemas (closed objects, required fields, patterns), so
 * a malformed request gets the API's `400` naming the field, as the service
 * answers it. The sandbox ships without a JSON Schema engine (it runs in any
 * runtime, with no dependency beyond the SDK's), so the request schemas it
 * needs are restated here with these checks.
 */
import { badRequest } from './refusals.js';

export type Check<T> = (value: unknown, path: string) => T;
type Out<C> = C extends Check<infer T> ? T : never;
type Shape = Record<string, Check<unknown>>;
type ObjectOut<S extends Shape, R extends keyof S> = { [K in R]: Out<S[K]> } & { [K in Exclude<keyof S, R>]?: Out<S[K]> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const CHAIN_SELECTOR = /^[0-9]{1,20}$/;
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
export const FUNCTION_SIGNATURE = /^[A-Za-z_$][A-Za-z0-9_$]*\(.*\)$/;
const DECIMAL_U64 = /^[0-9]{1,20}$/;
const ORG_ID = /^[a-zA-Z0-9._-]{1,100}$/;

const fail = (path: string, expected: string) => badRequest(`${path}: expected ${expected}`);

export function str(options: { min?: number; pattern?: RegExp; what?: string } = {}): Check<string> {
  return (value, path) => {
    const what = options.what ?? (options.min ? `a string of at least ${options.min} character(s)` : 'a string');
    if (typeof value !== 'string') throw fail(path, what);
    if (options.min !== undefined && value.length < options.min) throw fail(path, what);
    if (options.pattern !== undefined && !options.pattern.test(value)) throw fail(path, what);
    return value;
  };
}

export const uuid = str({ pattern: UUID, what: 'a UUID' });
export const chainSelector = str({ pattern: CHAIN_SELECTOR, what: 'a chain selector (a decimal string)' });
export const evmAddress = str({ pattern: EVM_ADDRESS, what: 'a 0x-prefixed 20-byte address' });
export const bytes32 = str({ pattern: BYTES32, what: 'a 0x-prefixed bytes32' });
export const functionSignature = str({ pattern: FUNCTION_SIGNATURE, what: 'a function signature such as transfer(address,uint256)' });
export const decimalU64 = str({ pattern: DECIMAL_U64, what: 'an unsigned integer as a decimal string' });
export const orgId = str({ pattern: ORG_ID, what: 'an organisation ID (letters, digits, ".", "_", "-")' });

export const bool: Check<boolean> = (value, path) => {
  if (typeof value !== 'boolean') throw fail(path, 'true or false');
  return value;
};

export function int(options: { min?: number } = {}): Check<number> {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || (options.min !== undefined && value < options.min)) {
      throw fail(path, options.min === undefined ? 'an integer' : `an integer >= ${options.min}`);
    }
    return value;
  };
}

export const unixSeconds = int({ min: 0 });

export function literal<const T extends string>(...values: T[]): Check<T> {
  return (value, path) => {
    if (!values.includes(value as T)) throw fail(path, values.map((v) => JSON.stringify(v)).join(' or '));
    return value as T;
  };
}

export function arrayOf<T>(item: Check<T>, options: { min?: number } = {}): Check<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw fail(path, 'an array');
    if (options.min !== undefined && value.length < options.min) throw fail(path, `an array of at least ${options.min} item(s)`);
    return value.map((entry, index) => item(entry, `${path}[${index}]`));
  };
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

/** Any JSON object (free-form fields such as `metadata` or a configuration). */
export const anyObject: Check<Record<string, unknown>> = (value, path) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(path, 'an object');
  return value as Record<string, unknown>;
};

/** A JSON object or array (credential payloads). */
export const objectOrArray: Check<Record<string, unknown> | unknown[]> = (value, path) => {
  if (value === null || typeof value !== 'object') throw fail(path, 'an object or an array');
  return value as Record<string, unknown> | unknown[];
};

export const anyJson: Check<unknown> = (value) => value;

/** A closed object: the fields in `shape`, `required` among them; any other field is refused. */
export function object<S extends Shape, R extends keyof S & string = never>(shape: S, required: readonly R[] = []): Check<ObjectOut<S, R>> {
  return (value, path) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(path, 'an object');
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (!(key in shape)) throw badRequest(`${path}: unknown field ${JSON.stringify(key)}`);
    }
    for (const [key, check] of Object.entries(shape)) {
      if (record[key] === undefined) {
        if ((required as readonly string[]).includes(key)) throw badRequest(`${path}.${key} is required`);
        continue;
      }
      out[key] = check(record[key], `${path}.${key}`);
    }
    return out as ObjectOut<S, R>;
  };
}

/** Checks a request body; a missing body is refused like a malformed one. */
export function parseBody<T>(check: Check<T>, body: unknown): T {
  if (body === undefined) throw badRequest('a JSON request body is required');
  return check(body, 'body');
}

/** `{"status": "archived"}`, the body of every archive `PATCH`. */
export const archiveRequest = object({ status: literal('archived') }, ['status']);

/** Refuses a list with the same value twice (e.g. two deployments on one chain). */
export function distinct<T>(values: readonly T[], what: string): void {
  if (new Set(values).size !== values.length) throw badRequest(`${what}: each value may appear only once`);
}
