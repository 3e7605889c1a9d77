import { SdkError } from './errors.js';

/**
 * The service's pages stopped making progress, so following them would loop
 * forever: a page with no item not seen lately in this walk, a position that
 * does not move forward, or a page token already followed in this walk.
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

/** Page tokens remembered to catch a cycle (A → B → A): the last 500 to 1,000 (see RecentWindow), so memory stays bounded on endless walks. */
const TOKEN_WINDOW = 1_000;
/** Item identities remembered to catch pages that come back (A, B, A, B): the last 5,000 to 10,000. */
const ITEM_WINDOW = 10_000;

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
  const recentItems = new RecentWindow<number>(ITEM_WINDOW);
  const recentTokens = new RecentWindow(TOKEN_WINDOW);
  while (cursor !== undefined && yielded < maxItems) {
    options.signal?.throwIfAborted();
    const page = await walk.fetchPage(cursor);
    const items = walk.itemsOf(page);
    const keys = items.map(itemKey);
    if (keys.length > 0 && keys.every((key) => recentItems.has(key))) {
      throw new PaginationCycleError(cursor, 'no item on this page is new: the service answered items of earlier pages again');
    }
    for (const key of keys) recentItems.add(key);
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
function checkProgress(cursor: unknown, next: unknown, recentTokens: RecentWindow): void {
  if (typeof next === 'number' && typeof cursor === 'number' && !(next > cursor)) {
    throw new PaginationCycleError(cursor, `the next position ${next} is not past the current one`);
  }
  if (typeof next === 'string') {
    if (next === cursor || recentTokens.has(next)) throw new PaginationCycleError(cursor, 'the service gave a page token already followed');
    recentTokens.add(next);
  }
}

/**
 * The keys added lately: at least the last `size / 2` and at most the last
 * `size`, in two generations (when the newer one is full it becomes the
 * older one and the old older one is dropped whole). Cycle checks with
 * bounded memory on endless walks, with no per-key deletion: a set that
 * deletes as it adds keeps the holes until it is rebuilt.
 */
class RecentWindow<K extends string | number = string> {
  #newer = new Set<K>();
  #older = new Set<K>();
  constructor(readonly size: number) {}
  has(key: K): boolean {
    return this.#newer.has(key) || this.#older.has(key);
  }
  add(key: K): void {
    if (this.#newer.size >= this.size / 2) {
      this.#older = this.#newer;
      this.#newer = new Set<K>();
    }
    this.#newer.add(key);
  }
}

/**
 * Fields that hold a list item's own ID in the five specs, most specific
 * first: an operation also names its channel and wallet, a watcher its
 * channel. Foreign keys shared by many items (`org_id`, `chain_id`) are not
 * here: taken for IDs, they would make a real next page look like a repeat.
 */
const ID_FIELDS = ['operation_id', 'query_id', 'watcher_id', 'channel_id', 'wallet_id', 'permit_id', 'id'] as const;

/**
 * An item's identity for the cycle check: its own ID where the item has one
 * (so an item that comes back with a changed field still counts as seen),
 * else the item itself. Events are identified by `headers.event_id`, reports
 * by stream and observation time.
 */
function itemIdentity(item: unknown): string {
  if (typeof item !== 'object' || item === null) return `value:${String(item)}`;
  const record = item as Record<string, unknown>;
  const eventId = (record.headers as { event_id?: unknown } | undefined)?.event_id;
  if (isIdValue(eventId)) return `event_id:${eventId}`;
  for (const field of ID_FIELDS) {
    const value = record[field];
    if (isIdValue(value)) return `${field}:${value}`;
  }
  if (isIdValue(record.feedID) && isIdValue(record.observationsTimestamp)) return `report:${record.feedID}@${record.observationsTimestamp}`;
  return `item:${JSON.stringify(item, bigintAsText)}`;
}

/**
 * An item's identity as a 53-bit number: the window of 10,000 then holds
 * numbers (about 40 bytes each with the set's entry), not strings of IDs
 * (about 200): 0.4 MB at most instead of 2 MB, whatever the items.
 */
function itemKey(item: unknown): number {
  return hash53(itemIdentity(item));
}

/**
 * Two 32-bit FNV-1a hashes with different seeds, joined into 53 bits. An
 * item mistaken for one in the window has a chance of about 10^-12, and a
 * page is taken for a repeat only when every item on it is.
 */
function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

function isIdValue(value: unknown): value is string | number {
  return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

/** Decoded reports hold bigints, which JSON cannot write by itself. */
function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** Collects an async iterable into an array (mind `maxItems` on large lists). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}
