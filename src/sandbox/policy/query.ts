/**
 * Query parameters of the policy APIs, as the request check generated from
 * the spec (`request-check.ts`) hands them over (`SandboxRequest.queryParams`):
 * it has refused any that is missing or malformed (a `400` naming it),
 * coerced each to its declared type and given absent ones their declared
 * default. So these only read, and restate no bound, enum or default.
 */

import type { QueryValues } from '../request-check.js';

export type { QueryValues };

/** A boolean parameter: its value, or its declared default (`false` when the spec declares none). */
export function queryBool(query: QueryValues, name: string): boolean {
  return query[name] === true;
}

/** A text parameter (an ID, an address, a chain selector, a name; its format checked by the request check); `undefined` when absent. */
export function queryText(query: QueryValues, name: string): string | undefined {
  return query[name] as string | undefined;
}

/** A parameter of an enum of the spec (`T` types it); its declared default, else `undefined`, when absent. */
export function queryEnum<T extends string = string>(query: QueryValues, name: string): T | undefined {
  return query[name] as T | undefined;
}

/** An RFC 3339 date-time (`as_of`, `from`, `to`), as Unix ms; `undefined` when absent. */
export function queryTime(query: QueryValues, name: string): number | undefined {
  const raw = queryText(query, name);
  return raw === undefined ? undefined : Date.parse(raw);
}
