import { SdkError } from './errors.js';

/** The service answered a page whose "next" cursor is the one just read: following it would loop forever. */
export class PaginationCycleError extends SdkError {
  override name = 'PaginationCycleError';
  readonly cursor: unknown;
  constructor(cursor: unknown) {
    super(`pagination stopped: the service gave the cursor ${JSON.stringify(cursor)} as the next page of itself`);
    this.cursor = cursor;
  }
}

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
  while (cursor !== undefined && yielded < maxItems) {
    options.signal?.throwIfAborted();
    const page = await walk.fetchPage(cursor);
    const items = walk.itemsOf(page);
    for (const item of items) {
      if (yielded >= maxItems) return;
      yield item;
      yielded++;
    }
    const next: Cursor | undefined = items.length === 0 ? undefined : walk.nextCursor(page, cursor, items);
    if (next !== undefined && next === cursor) throw new PaginationCycleError(cursor);
    cursor = next;
  }
}

/** Collects an async iterable into an array (mind `maxItems` on large lists). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}
