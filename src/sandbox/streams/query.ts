/**
 * The query arguments of the report API, read and checked against their
 * schemas in the spec; anything missing or malformed is the spec's `400`
 * (`INVALID_QUERY_ARGUMENT`, or `MISSING_QUERY_ARGUMENT`) naming the argument.
 */
import { SandboxHttpError } from '../types.js';

const FEED_ID = /^0x[0-9a-fA-F]{64}$/;
const UNSIGNED = /^[0-9]+$/;
const MAX_UNIX_SECONDS = 4_294_967_295;

function missing(name: string): SandboxHttpError {
  return new SandboxHttpError(400, 'BAD_REQUEST', `the query argument ${name} is required`, 'MISSING_QUERY_ARGUMENT');
}

function invalid(name: string, problem: string): SandboxHttpError {
  return new SandboxHttpError(400, 'BAD_REQUEST', `${name} ${problem}`, 'INVALID_QUERY_ARGUMENT');
}

function checkFeedId(name: string, value: string): string {
  if (!FEED_ID.test(value)) throw invalid(name, 'must be 32 bytes of 0x-prefixed hex');
  return value.toLowerCase();
}

/** A required stream ID, lowercased. */
export function feedIdArgument(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null) throw missing(name);
  return checkFeedId(name, value);
}

/** The required comma-separated stream IDs (`feedIDs`), lowercased, each once, in the order asked. */
export function feedIdsArgument(query: URLSearchParams, name: string): string[] {
  const value = query.get(name);
  if (value === null) throw missing(name);
  if (value === '') throw invalid(name, 'must list at least one stream ID');
  return [...new Set(value.split(',').map((id) => checkFeedId(name, id)))];
}

function unixSeconds(name: string, value: string): number {
  if (!UNSIGNED.test(value) || Number(value) > MAX_UNIX_SECONDS) {
    throw invalid(name, `must be Unix time in whole seconds, from 0 to ${MAX_UNIX_SECONDS}`);
  }
  return Number(value);
}

/** A required Unix-seconds argument. */
export function secondsArgument(query: URLSearchParams, name: string): number {
  const value = query.get(name);
  if (value === null) throw missing(name);
  return unixSeconds(name, value);
}

/** An optional Unix-seconds argument. */
export function optionalSecondsArgument(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  return value === null ? undefined : unixSeconds(name, value);
}

/** An optional integer of at least `minimum`. */
export function optionalIntegerArgument(query: URLSearchParams, name: string, minimum: number): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!UNSIGNED.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < minimum) {
    throw invalid(name, `must be an integer of at least ${minimum}`);
  }
  return Number(value);
}

/** An optional non-empty string. */
export function optionalTextArgument(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  if (value === '') throw invalid(name, 'must not be empty');
  return value ?? undefined;
}

/** An optional boolean, `true` or `false`. */
export function optionalBooleanArgument(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (value !== 'true' && value !== 'false') throw invalid(name, 'must be true or false');
  return value === 'true';
}
