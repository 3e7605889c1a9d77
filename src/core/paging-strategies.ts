import type { SdkClient } from './typed-client.js';
import { expectBody } from './shape.js';
import { unwrap } from './unwrap.js';
import { walkPages } from './paginate.js';

/** How one API pages: which query parameters move the cursor, and where the next cursor comes from. */
export interface PagingStrategy<Cursor> {
  first: Cursor;
  /** Query parameters for the page at `cursor`. */
  query(cursor: Cursor, pageSize: number | undefined): Record<string, unknown>;
  /** The cursor after `page` (whose items are `items`), or `undefined` at the end. */
  next(page: Record<string, unknown>, cursor: Cursor, items: readonly unknown[]): Cursor | undefined;
}

/** `{data, has_more}` with `limit`/`offset` (channels). */
export const offsetPaging: PagingStrategy<number> = {
  first: 0,
  query: (offset, pageSize) => (pageSize === undefined ? { offset } : { offset, limit: pageSize }),
  next: (page, offset, items) => (page.has_more === true ? offset + items.length : undefined),
};

/**
 * Event streams (channels events): `offset` is a stream position, not a
 * count, so the next page starts one past the last event's `headers.offset`.
 */
export const streamPositionPaging: PagingStrategy<number> = {
  first: 0,
  query: (offset, pageSize) => (pageSize === undefined ? { offset } : { offset, limit: pageSize }),
  next: (page, _offset, items) => {
    if (page.has_more !== true) return undefined;
    const last = items[items.length - 1] as { headers?: { offset?: unknown } } | undefined;
    const position = last?.headers?.offset;
    return typeof position === 'number' ? position + 1 : undefined;
  },
};

/** `{total, total_pages, page, <items>}` with `page`/`page_size` (coordinator). */
export const pageNumberPaging: PagingStrategy<number> = {
  first: 1,
  query: (page, pageSize) => (pageSize === undefined ? { page } : { page, page_size: pageSize }),
  next: (answer, page) => (typeof answer.total_pages === 'number' && page < answer.total_pages ? page + 1 : undefined),
};

/** `{<items>, next_page_token}` with `page_size`/`page_token` (reporting). The first page has no token. */
export const pageTokenPaging: PagingStrategy<string | null> = {
  first: null,
  query: (token, pageSize) => ({
    ...(token === null ? {} : { page_token: token }),
    ...(pageSize === undefined ? {} : { page_size: pageSize }),
  }),
  next: (answer) =>
    typeof answer.next_page_token === 'string' && answer.next_page_token !== '' ? answer.next_page_token : undefined,
};

/** The items of a list answer: its `data` array, or else its one array-valued property. */
function itemsOf(page: Record<string, unknown>): readonly unknown[] | undefined {
  if (Array.isArray(page.data)) return page.data;
  for (const value of Object.values(page)) if (Array.isArray(value)) return value;
  return undefined;
}

interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  pageSize?: number;
  maxItems?: number;
  signal?: AbortSignal;
}

type LooseGet = (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Walks every page of `path` with `strategy`, yielding items; throws ApiError
 * on the first failed page. The typed per-API `paginate` functions call this.
 */
export function paginateWith<Cursor>(
  strategy: PagingStrategy<Cursor>,
  client: SdkClient<any>,
  path: string,
  init: LooseInit = {},
): AsyncGenerator<unknown, void, undefined> {
  const get = client.GET as unknown as LooseGet;
  const { params = {}, pageSize, signal } = init;
  return walkPages<Record<string, unknown>, unknown, Cursor>(
    {
      first: strategy.first,
      fetchPage: async (cursor) =>
        expectBody<Record<string, unknown>>(
          await unwrap(get(path, { params: { ...params, query: { ...params.query, ...strategy.query(cursor, pageSize) } }, signal })),
          `GET ${path}`,
          'a page of items',
          (page) => itemsOf(page) !== undefined,
        ),
      itemsOf: (page) => itemsOf(page)!,
      nextCursor: (page, cursor, items) => strategy.next(page, cursor, items),
    },
    init,
  );
}
