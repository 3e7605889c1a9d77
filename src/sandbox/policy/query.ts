/**
 * Query parameters of the policy APIs, read as their specs type them. The
 * request check generated from the spec (`request-check.ts`) has already
 * refused any that is missing or malformed (a `400` naming it), so these
 * only read.
 */

export function queryBool(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  return raw === null ? fallback : raw === 'true';
}

function text(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

export const queryUuid = text;
export const queryChainSelector = text;
export const queryAddress = text;
export const queryBytes32 = text;
export const queryFunctionSignature = text;
export const querySelector = text;

/** A parameter of the spec's enum `_values` (which types it); `fallback` when absent. */
export function queryEnum<const T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback: T): T;
export function queryEnum<const T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined;
export function queryEnum<const T extends string>(query: URLSearchParams, name: string, _values: readonly T[], fallback?: T): T | undefined {
  return (query.get(name) as T | null) ?? fallback;
}

/** An RFC 3339 date-time (`as_of`, `from`, `to`), as Unix ms. */
export function queryTime(query: URLSearchParams, name: string, required: true): number;
export function queryTime(query: URLSearchParams, name: string, required?: false): number | undefined;
export function queryTime(query: URLSearchParams, name: string, _required = false): number | undefined {
  const raw = query.get(name);
  return raw === null ? undefined : Date.parse(raw);
}
