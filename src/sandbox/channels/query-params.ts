/**
 * Query parameters, as the request check generated from the spec
 * (`request-check.ts`) hands them over (`SandboxRequest.queryParams`): it has
 * refused any that do not fit (integer bounds, enums, patterns), coerced each
 * to its declared type (a list parameter is always an array) and given absent
 * ones their declared default. So these only read, and restate no rule.
 */
import type { QueryValues } from '../request-check.js';
import { findNetwork } from './networks.js';

export type { QueryValues };

export interface Page {
  limit: number;
  offset: number;
}

/** `limit` and `offset`, with the defaults the list's spec declares. */
export function pageOf(query: QueryValues): Page {
  return { limit: query.limit as number, offset: (query.offset as number | undefined) ?? 0 };
}

/** An integer parameter; `undefined` when absent (and declared without a default). */
export function integer(query: QueryValues, name: string): number | undefined {
  return query[name] as number | undefined;
}

/** A parameter that takes one value; `undefined` when absent. */
export function single<T extends string = string>(query: QueryValues, name: string): T | undefined {
  return query[name] as T | undefined;
}

/** A repeatable parameter (`style: form`); `T` types its values (the spec's enum); `undefined` when absent. */
export function list<T extends string = string>(query: QueryValues, name: string): T[] | undefined {
  return query[name] as T[] | undefined;
}

export function uuidParam(query: QueryValues, name: string): string | undefined {
  return single(query, name)?.toLowerCase();
}

export function chainSelectorParam(query: QueryValues): string | undefined {
  return single(query, 'chain_selector');
}

export function addressParam(query: QueryValues, name: string): string | undefined {
  return single(query, name)?.toLowerCase();
}

/** `chain_environment`, as a test on a chain selector. */
export function environmentFilter(query: QueryValues): ((chainSelector: string) => boolean) | undefined {
  const environment = single(query, 'chain_environment');
  if (environment === undefined) return undefined;
  return (chainSelector) => findNetwork(chainSelector)?.type === environment;
}

/** The `name` filter: contains the text, case-insensitive. */
export function nameFilter(query: QueryValues): ((name: string | undefined) => boolean) | undefined {
  const text = single(query, 'name')?.toLowerCase();
  if (text === undefined) return undefined;
  return (name) => name?.toLowerCase().includes(text) === true;
}

/** One page of `items` in the `{data, has_more}` envelope. */
export function pageItems<T>(items: readonly T[], page: Page): { data: T[]; has_more: boolean } {
  return { data: items.slice(page.offset, page.offset + page.limit), has_more: page.offset + page.limit < items.length };
}
