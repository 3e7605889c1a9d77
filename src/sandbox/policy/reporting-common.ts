/** What the reporting handlers share: path and filter checks, key and period helpers. */
import type { SandboxRequest } from '../types.js';
import { isoTime } from './chain.js';
import { compareKeys, type SortKey } from './paging.js';
import { badRequest } from './refusals.js';

export const lower = (text: string) => text.toLowerCase();
export const same = (a: string, b: string | undefined) => b === undefined || lower(a) === lower(b);

/** `org_id` is for admin keys; a tenant key's answers are always its own organisation's, so it is only checked. */
export function checkOrgId(query: URLSearchParams): void {
  if (query.get('org_id') === '') throw badRequest('org_id must not be empty');
}

export const periodEnd = (version: { to: number | null }) => (version.to === null ? null : isoTime(version.to));

/** `chain:address` keys split back. */
export const splitKey = (key: string) => key.split(':');

export function chainAndAddress(request: SandboxRequest): { chain: string; address: string } {
  const chain = request.pathParams.chain_selector ?? '';
  const address = request.pathParams.address ?? '';
  if (!/^[0-9]{1,20}$/.test(chain)) throw badRequest(`chain_selector must be a decimal chain selector, got ${JSON.stringify(chain)}`);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw badRequest(`address must be a 0x-prefixed 20-byte address, got ${JSON.stringify(address)}`);
  return { chain, address: lower(address) };
}

export const byKey =
  <T>(keyOf: (item: T) => SortKey) =>
  (a: T, b: T) =>
    compareKeys(keyOf(a), keyOf(b));
