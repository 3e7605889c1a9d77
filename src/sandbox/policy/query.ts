/** Query parameters of the policy APIs, read and checked as their specs type them (a bad value is a `400`). */
import { BYTES32, CHAIN_SELECTOR, EVM_ADDRESS, FUNCTION_SIGNATURE } from './body-check.js';
import { badRequest } from './refusals.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function queryBool(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

function patterned(pattern: RegExp, what: string) {
  return (query: URLSearchParams, name: string): string | undefined => {
    const raw = query.get(name);
    if (raw === null) return undefined;
    if (!pattern.test(raw)) throw badRequest(`${name} must be ${what}, got ${JSON.stringify(raw)}`);
    return raw;
  };
}

export const queryUuid = patterned(UUID, 'a UUID');
export const queryChainSelector = patterned(CHAIN_SELECTOR, 'a chain selector (a decimal string)');
export const queryAddress = patterned(EVM_ADDRESS, 'a 0x-prefixed 20-byte address');
export const queryBytes32 = patterned(BYTES32, 'a 0x-prefixed bytes32');
export const queryFunctionSignature = patterned(FUNCTION_SIGNATURE, 'a function signature such as transfer(address,uint256)');
export const querySelector = patterned(/^0x[0-9a-fA-F]{8}$/, 'a 4-byte selector such as 0xa9059cbb');

export function queryEnum<const T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback: T): T;
export function queryEnum<const T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined;
export function queryEnum<const T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback?: T): T | undefined {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!values.includes(raw as T)) throw badRequest(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

/** An RFC 3339 date-time (`as_of`, `from`, `to`), as Unix ms. Unix seconds are refused, as the reporting API does. */
export function queryTime(query: URLSearchParams, name: string, required: true): number;
export function queryTime(query: URLSearchParams, name: string, required?: false): number | undefined;
export function queryTime(query: URLSearchParams, name: string, required = false): number | undefined {
  const raw = query.get(name);
  if (raw === null) {
    if (required) throw badRequest(`${name} is required (an RFC 3339 date-time such as 2026-03-04T09:15:27Z)`);
    return undefined;
  }
  const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
  const time = rfc3339.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(time)) throw badRequest(`${name} must be an RFC 3339 date-time such as 2026-03-04T09:15:27Z, got ${JSON.stringify(raw)}`);
  return time;
}
