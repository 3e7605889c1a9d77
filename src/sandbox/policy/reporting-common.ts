/** What the reporting handlers share: path and filter checks, key and period helpers. */
import type { SandboxRequest } from '../types.js';
import { isoTime } from './chain.js';
import { compareKeys, type SortKey } from './paging.js';

export const lower = (text: string) => text.toLowerCase();
export const same = (a: string, b: string | undefined) => b === undefined || lower(a) === lower(b);

export const periodEnd = (version: { to: number | null }) => (version.to === null ? null : isoTime(version.to));

/** `chain:address` keys split back. */
export const splitKey = (key: string) => key.split(':');

export function chainAndAddress(request: SandboxRequest): { chain: string; address: string } {
  // Both fit their spec's patterns: the generated request check has refused any other.
  const chain = request.pathParams.chain_selector!;
  const address = request.pathParams.address!;
  return { chain, address: lower(address) };
}

export const byKey =
  <T>(keyOf: (item: T) => SortKey) =>
  (a: T, b: T) =>
    compareKeys(keyOf(a), keyOf(b));
