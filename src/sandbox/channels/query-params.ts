/**
 * Query parameters as the spec declares them: each is read, checked against
 * its schema (integer bounds, enums, patterns) and refused with `400` naming
 * the parameter when it does not fit. Absent parameters take the spec's
 * defaults.
 */
import { findNetwork } from './networks.js';
import { badRequest } from './refusals.js';
import { CHAIN_SELECTOR, EVM_ADDRESS, UUID } from './request-schemas.js';
import { CHAIN_ENVIRONMENTS } from './model.js';

/** A list's `limit` as its parameter declares it: 1 to `max`, `fallback` when absent. */
export interface LimitSpec {
  fallback: number;
  max: number;
}

export const LIMITS = {
  wallets: { fallback: 50, max: 100 },
  channels: { fallback: 20, max: 50 },
  queries: { fallback: 20, max: 100 },
  watchers: { fallback: 20, max: 50 },
  operations: { fallback: 20, max: 100 },
  eventPoll: { fallback: 200, max: 200 },
  eventSearch: { fallback: 50, max: 200 },
} as const satisfies Record<string, LimitSpec>;

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: URLSearchParams, limits: LimitSpec): Page {
  const limit = integer(query, 'limit', 1, limits.max) ?? limits.fallback;
  const offset = integer(query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  return { limit, offset };
}

/** An integer parameter within [min, max]; `undefined` when absent. */
export function integer(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = single(query, name);
  if (text === undefined) return undefined;
  const value = /^-?[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badRequest(`query parameter ${name}: expected an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}`);
  }
  return value;
}

/** A parameter that takes one value; `undefined` when absent. */
export function single(query: URLSearchParams, name: string, pattern?: RegExp, what?: string): string | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw badRequest(`query parameter ${name}: expected one value`);
  const value = values[0]!;
  if (pattern !== undefined && !pattern.test(value)) throw badRequest(`query parameter ${name}: expected ${what ?? 'a valid value'}`);
  return value;
}

/** A repeatable parameter (`style: form`, `explode: true`) whose items come from `allowed`, or match `pattern`. */
export function list<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T[] | undefined;
export function list(query: URLSearchParams, name: string, pattern?: RegExp, what?: string): string[] | undefined;
export function list(query: URLSearchParams, name: string, rule?: readonly string[] | RegExp, what?: string): string[] | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  for (const value of values) {
    const fits = rule === undefined || (rule instanceof RegExp ? rule.test(value) : rule.includes(value));
    if (!fits) {
      const expected = rule instanceof RegExp ? (what ?? 'a valid value') : `one of ${(rule ?? []).join(', ')}`;
      throw badRequest(`query parameter ${name}: expected ${expected}, got "${value.slice(0, 80)}"`);
    }
  }
  return values;
}

export function uuidParam(query: URLSearchParams, name: string): string | undefined {
  return single(query, name, UUID, 'a UUID')?.toLowerCase();
}

export function chainSelectorParam(query: URLSearchParams): string | undefined {
  return single(query, 'chain_selector', CHAIN_SELECTOR, 'a chain selector (a decimal string)');
}

export function addressParam(query: URLSearchParams, name: string): string | undefined {
  return single(query, name, EVM_ADDRESS, 'a 0x-prefixed 20-byte address')?.toLowerCase();
}

export function oneOf<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw badRequest(`query parameter ${name}: expected one of ${allowed.join(', ')}`);
  return value as T;
}

/** `chain_environment`, as a test on a chain selector. */
export function environmentFilter(query: URLSearchParams): ((chainSelector: string) => boolean) | undefined {
  const environment = oneOf(query, 'chain_environment', CHAIN_ENVIRONMENTS);
  if (environment === undefined) return undefined;
  return (chainSelector) => findNetwork(chainSelector)?.type === environment;
}

/** The `name` filter: contains the text, case-insensitive. */
export function nameFilter(query: URLSearchParams): ((name: string | undefined) => boolean) | undefined {
  const text = single(query, 'name')?.toLowerCase();
  if (text === undefined) return undefined;
  return (name) => name?.toLowerCase().includes(text) === true;
}

/** One page of `items` in the `{data, has_more}` envelope. */
export function pageItems<T>(items: readonly T[], page: Page): { data: T[]; has_more: boolean } {
  return { data: items.slice(page.offset, page.offset + page.limit), has_more: page.offset + page.limit < items.length };
}
