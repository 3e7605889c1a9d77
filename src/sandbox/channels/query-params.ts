/**
 * Query parameters, read as the spec declares them. The request check
 * generated from the spec (`request-check.ts`) has already refused any that
 * do not fit (integer bounds, enums, patterns), so these only read: absent
 * parameters take the spec's defaults.
 */
import { findNetwork } from './networks.js';
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
  const limit = integer(query, 'limit') ?? limits.fallback;
  const offset = integer(query, 'offset') ?? 0;
  return { limit, offset };
}

/** An integer parameter; `undefined` when absent. */
export function integer(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  return text === null ? undefined : Number(text);
}

/** A parameter that takes one value; `undefined` when absent. */
export function single(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

/** A repeatable parameter (`style: form`, `explode: true`); `allowed` types its values (the spec's enum). */
export function list<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T[] | undefined;
export function list(query: URLSearchParams, name: string): string[] | undefined;
export function list(query: URLSearchParams, name: string): string[] | undefined {
  const values = query.getAll(name);
  return values.length === 0 ? undefined : values;
}

export function uuidParam(query: URLSearchParams, name: string): string | undefined {
  return single(query, name)?.toLowerCase();
}

export function chainSelectorParam(query: URLSearchParams): string | undefined {
  return single(query, 'chain_selector');
}

export function addressParam(query: URLSearchParams, name: string): string | undefined {
  return single(query, name)?.toLowerCase();
}

/** A parameter whose values are `allowed` (the spec's enum, which types it). */
export function oneOf<T extends string>(query: URLSearchParams, name: string, _allowed: readonly T[]): T | undefined {
  return single(query, name) as T | undefined;
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
