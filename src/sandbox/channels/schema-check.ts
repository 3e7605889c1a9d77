/**
 * A small checker for request bodies, in the vocabulary of the spec's JSON
 * Schemas (closed objects, required fields, lengths, patterns, enums), so a
 * malformed request gets the service's `400` naming the field. The sandbox
 * ships without a JSON Schema engine (it runs in any runtime, with no
 * dependency beyond the SDK's), so `request-schemas.ts` restates the request
 * schemas it needs in these terms.
 */
import { badRequest } from './refusals.js';

export type Rule =
  | { kind: 'string'; min?: number; max?: number; pattern?: RegExp; values?: readonly string[]; what?: string }
  | { kind: 'integer'; min?: number }
  | { kind: 'boolean' }
  | { kind: 'array'; items: Rule; min?: number; max?: number; unique?: boolean }
  | { kind: 'object'; properties: Readonly<Record<string, Rule>>; required?: readonly string[]; closed?: boolean; minProperties?: number }
  /** An object whose shape the spec leaves open (`additionalProperties: true`). */
  | { kind: 'any-object' }
  /** One of several closed variants, told apart by `choose` (a rule, or the refusal's text). */
  | { kind: 'variant'; choose: (value: Record<string, unknown>) => Rule | string };

/** Throws `400 VALIDATION_ERROR` naming the first field (as a JSON path) that breaks `rule`. */
export function check(rule: Rule, value: unknown, path = 'body'): void {
  switch (rule.kind) {
    case 'string':
      return checkString(rule, value, path);
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || (rule.min !== undefined && value < rule.min)) {
        throw badRequest(`${path}: expected an integer${rule.min === undefined ? '' : ` >= ${rule.min}`}`);
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw badRequest(`${path}: expected true or false`);
      return;
    case 'array':
      return checkArray(rule, value, path);
    case 'object':
      return checkObject(rule, value, path);
    case 'any-object':
      if (!isObject(value)) throw badRequest(`${path}: expected an object`);
      return;
    case 'variant': {
      if (!isObject(value)) throw badRequest(`${path}: expected an object`);
      const chosen = rule.choose(value);
      if (typeof chosen === 'string') throw badRequest(`${path}: ${chosen}`);
      return check(chosen, value, path);
    }
  }
}

function checkString(rule: Extract<Rule, { kind: 'string' }>, value: unknown, path: string): void {
  const what = rule.what ?? describeString(rule);
  if (typeof value !== 'string') throw badRequest(`${path}: expected ${what}`);
  const length = [...value].length;
  const fits =
    (rule.min === undefined || length >= rule.min) &&
    (rule.max === undefined || length <= rule.max) &&
    (rule.pattern === undefined || rule.pattern.test(value)) &&
    (rule.values === undefined || rule.values.includes(value));
  if (!fits) throw badRequest(`${path}: expected ${what}`);
}

function describeString(rule: Extract<Rule, { kind: 'string' }>): string {
  if (rule.values !== undefined) return `one of ${rule.values.join(', ')}`;
  if (rule.min !== undefined && rule.max !== undefined) return `a string of ${rule.min} to ${rule.max} characters`;
  if (rule.min !== undefined) return `a string of at least ${rule.min} character(s)`;
  if (rule.max !== undefined) return `a string of at most ${rule.max} characters`;
  return 'a string';
}

function checkArray(rule: Extract<Rule, { kind: 'array' }>, value: unknown, path: string): void {
  if (!Array.isArray(value)) throw badRequest(`${path}: expected an array`);
  if (rule.min !== undefined && value.length < rule.min) throw badRequest(`${path}: expected at least ${rule.min} item(s)`);
  if (rule.max !== undefined && value.length > rule.max) throw badRequest(`${path}: expected at most ${rule.max} items`);
  value.forEach((item, index) => check(rule.items, item, `${path}[${index}]`));
  if (rule.unique === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) {
    throw badRequest(`${path}: expected unique items`);
  }
}

function checkObject(rule: Extract<Rule, { kind: 'object' }>, value: unknown, path: string): void {
  if (!isObject(value)) throw badRequest(`${path}: expected an object`);
  if (rule.closed === true) {
    const unknown = Object.keys(value).find((key) => !Object.hasOwn(rule.properties, key));
    if (unknown !== undefined) throw badRequest(`${path}.${unknown}: unknown field`);
  }
  if (rule.minProperties !== undefined && Object.keys(value).length < rule.minProperties) {
    throw badRequest(`${path}: expected at least ${rule.minProperties} field(s)`);
  }
  for (const name of rule.required ?? []) {
    if (value[name] === undefined) throw badRequest(`${path}.${name}: required`);
  }
  for (const [name, propertyRule] of Object.entries(rule.properties)) {
    if (value[name] !== undefined) check(propertyRule, value[name], `${path}.${name}`);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
