import { SdkError } from './errors.js';

/**
 * The service's pages stopped making progress, so following them would loop
 * forever: a page that repeats the previous one, a position that does not
 * move forward, or a page token already followed in this walk.
 */
export class PaginationCycleError extends SdkError {
  override name = 'PaginationCycleError';
  readonly cursor: unknown;
  constructor(cursor: unknown, problem: string) {
    super(`pagination stopped at cursor ${describeCursor(cursor)}: ${problem}`);
    this.cursor = cursor;
  }
}

function describeCursor(cursor: unknown): string {
  if (typeof cursor === 'string') return JSON.stringify(cursor.length > 60 ? `${cursor.slice(0, 60)}…` : cursor);
  return String(cursor);
}

/** Page tokens remembered to catch a cycle (A → B → A): a window, so memory stays bounded on endless walks. */
const TOKEN_WINDOW = 1_000;

/** Options of every paginator. */
export interface PageOptions {
  /** Items per request (each API maps it to its own page-size parameter). */
  pageSize?: number;
  /** Stop after this many items in all. */
  maxItems?: number;
  signal?: AbortSignal;
}

export interface PageWalk<Page, Item, Cursor> {
  first: Cursor;
  /** Fetches one page at `cursor` (throws on an API error). */
  fetchPage: (cursor: Cursor) => Promise<Page>;
  itemsOf: (page: Page) => readonly Item[];
  /** The cursor of the next page, or `undefined` when this was the last. */
  nextCursor: (page: Page, cursor: Cursor, items: readonly Item[]) => Cursor | undefined;
}

/**
 * Walks pages one at a time, yielding their items: memory stays bounded by
 * one page whatever the total. Each API's paginator supplies how its cursor
 * advances (offset, page number, page token or time).
 */
export async function* walkPages<Page, Item, Cursor>(
  walk: PageWalk<Page, Item, Cursor>,
  options: PageOptions = {},
): AsyncGenerator<Item, void, undefined> {
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  if (!(maxItems >= 0)) throw new RangeError('maxItems must be a number >= 0');
  let yielded = 0;
  let cursor: Cursor | undefined = walk.first;
  let previousItems: ReadonlySet<string> | undefined;
  const recentTokens = new Set<string>();
  while (cursor !== undefined && yielded < maxItems) {
    options.signal?.throwIfAborted();
    const page = await walk.fetchPage(cursor);
    const items = walk.itemsOf(page);
    const keys = new Set(items.map(itemKey));
    if (items.length > 0 && previousItems !== undefined && [...keys].every((key) => previousItems!.has(key))) {
      throw new PaginationCycleError(cursor, 'the service answered the previous page again');
    }
    previousItems = keys;
    for (const item of items) {
      if (yielded >= maxItems) return;
      yield item;
      yielded++;
    }
    if (yielded >= maxItems) return;
    const next: Cursor | undefined = items.length === 0 ? undefined : walk.nextCursor(page, cursor, items);
    if (next !== undefined) checkProgress(cursor, next, recentTokens);
    cursor = next;
  }
}

/** A numeric position (offset, page, time) must move forward; a token must not come back. */
function checkProgress(cursor: unknown, next: unknown, recentTokens: Set<string>): void {
  if (typeof next === 'number' && typeof cursor === 'number' && !(next > cursor)) {
    throw new PaginationCycleError(cursor, `the next position ${next} is not past the current one`);
  }
  if (typeof next === 'string') {
    if (next === cursor || recentTokens.has(next)) throw new PaginationCycleError(cursor, 'the service gave a page token already followed');
    recentTokens.add(next);
    if (recentTokens.size > TOKEN_WINDOW) recentTokens.delete(recentTokens.values().next().value as string);
  }
}

/** Decoded reports hold bigints, which JSON cannot write by itself. */
function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** An item's identity for the repeat check: its JSON (list items carry their IDs, so equal JSON is the same item). */
function itemKey(item: unknown): string {
  return typeof item === 'object' && item !== null ? JSON.stringify(item, bigintAsText) : String(item);
}

/** Collects an async iterable into an array (mind `maxItems` on large lists). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}
