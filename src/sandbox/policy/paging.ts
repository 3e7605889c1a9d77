/**
 * The two ways the policy APIs page. The coordinator: `page` and
 * `page_size`, answered `{total, total_pages, page}` beside the items.
 * Reporting: `page_size` and an opaque `page_token`, answered
 * `next_page_token` (`null` on the last page). Their bounds and defaults are
 * the spec's, applied by the generated request check.
 *
 * Reporting tokens are keyset cursors: the sort key of the last item sent,
 * plus a fingerprint of the query's filters. A list that grows between two
 * pages (new transactions arrive newest first) then neither repeats nor
 * skips an item, and a token sent with other filters than the ones that made
 * it is refused with `400`, as the spec tells clients not to do that.
 */
import type { SandboxRequest } from '../types.js';
import { keccakHex } from './hex.js';
import type { QueryValues } from './query.js';
import { badRequest } from './refusals.js';

export interface CoordinatorPage<T> {
  items: T[];
  total: number;
  total_pages: number;
  page: number;
}

/**
 * One page of a coordinator list; a page past the end is empty, with the true
 * counters. `page` and `page_size` come checked, with their declared defaults.
 */
export function coordinatorPage<T>(items: readonly T[], query: QueryValues): CoordinatorPage<T> {
  const page = query.page as number;
  const pageSize = query.page_size as number;
  const start = (page - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), total: items.length, total_pages: Math.ceil(items.length / pageSize), page };
}

/** A sort key: compared element by element, numbers as numbers, strings as text. */
export type SortKey = readonly (string | number)[];

export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** A chain selector as a sort key part: decimal strings compare as numbers once padded. */
export const chainKey = (chainSelector: string) => chainSelector.padStart(20, '0');

interface TokenContent {
  /** Fingerprint of the filters the token belongs to. */
  f: string;
  /** Sort key of the last item already sent. */
  k: SortKey;
}

/** The filters of a request: every parameter but the token itself. */
function fingerprint(scope: string, query: URLSearchParams): string {
  const pairs = [...query.entries()].filter(([name]) => name !== 'page_token').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return keccakHex(`${scope}?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`).slice(2, 18);
}

function encodeToken(content: TokenContent): string {
  return btoa(JSON.stringify(content)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function decodeToken(token: string): TokenContent | undefined {
  try {
    const content = JSON.parse(atob(token.replaceAll('-', '+').replaceAll('_', '/'))) as Partial<TokenContent>;
    const keyIsValid = Array.isArray(content.k) && content.k.every((part) => typeof part === 'string' || typeof part === 'number');
    return typeof content.f === 'string' && keyIsValid ? (content as TokenContent) : undefined;
  } catch {
    return undefined;
  }
}

export interface TokenPage<T> {
  items: T[];
  next_page_token: string | null;
}

/**
 * One page of a reporting list. `items` must be sorted by `keyOf` ascending
 * (descending orders negate their numbers in the key); keys must be unique.
 */
export function reportingPage<T>(scope: string, items: readonly T[], keyOf: (item: T) => SortKey, request: SandboxRequest): TokenPage<T> {
  const pageSize = request.queryParams.page_size as number;
  // The token's filters are the request's as sent, so a default the spec adds later changes no token.
  const filters = fingerprint(scope, request.query);
  const token = request.query.get('page_token');
  let start = 0;
  if (token !== null) {
    const content = token === '' ? undefined : decodeToken(token);
    if (content === undefined) throw badRequest('page_token is not a token this service issued');
    if (content.f !== filters) throw badRequest('page_token belongs to a request with other filters, sort or page_size');
    start = items.findIndex((item) => compareKeys(keyOf(item), content.k) > 0);
    if (start < 0) start = items.length;
  }
  const page = items.slice(start, start + pageSize);
  const more = start + pageSize < items.length;
  return { items: page, next_page_token: more ? encodeToken({ f: filters, k: keyOf(page[page.length - 1]!) }) : null };
}
