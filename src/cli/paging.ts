/**
 * `--all`: which operations page, and how: each API's paging strategy (the
 * paginators' own), chosen from the operation's query parameters. The walk
 * holds one page at a time.
 */
import type { PagingStrategy } from '../core/paging-strategies.js';
import type { CliApi } from './apis.js';
import { lastValue, type ParsedArgs } from './argv.js';
import { CliUsageError } from './errors.js';
import type { CliOperation } from './spec-table.js';

export interface Paging {
  /** The query parameter that sets the page size (`limit`, `page_size`). */
  sizeParam: string;
  /** The query parameter holding the starting position a user may give (`offset`, `page`, `startTimestamp`). */
  startParam: string | undefined;
  strategy: (start: unknown) => Promise<PagingStrategy<any>>;
}

/**
 * The streams API pages by time: the next page starts one second past the
 * last report (as `paginateReports` does), and an empty page ends the walk.
 */
function reportTimePaging(start: number): PagingStrategy<number> {
  return {
    first: start,
    query: (startTimestamp, pageSize) => (pageSize === undefined ? { startTimestamp } : { startTimestamp, limit: pageSize }),
    next: (_page, _cursor, items) => {
      const last = items[items.length - 1] as { observationsTimestamp?: unknown } | undefined;
      return typeof last?.observationsTimestamp === 'number' ? last.observationsTimestamp + 1 : undefined;
    },
  };
}

/** The strategy from the start position the user gave (`--offset`, `--page`, `--page-token`), or from its own first page. */
function startingAt<Cursor>(strategy: PagingStrategy<Cursor>, start: unknown): PagingStrategy<Cursor> {
  return start === undefined ? strategy : { ...strategy, first: start as Cursor };
}

/** `--max-items` (only with `--all`): an integer ≥ 1, or no limit when not given. */
export function maxItemsOf(args: ParsedArgs, all: boolean): number {
  const text = lastValue(args, 'max-items');
  if (text === undefined) return Number.POSITIVE_INFINITY;
  if (!all) throw new CliUsageError('--max-items: only with --all');
  const maxItems = Number(text);
  if (!(Number.isInteger(maxItems) && maxItems >= 1)) throw new CliUsageError(`--max-items: expected an integer ≥ 1, got ${JSON.stringify(text)}`);
  return maxItems;
}

export function pagingOf(api: CliApi, operation: CliOperation): Paging | undefined {
  if (operation.method !== 'GET') return undefined;
  const names = new Set(operation.params.filter((param) => param.in === 'query').map((param) => param.name));
  const strategies = () => import('../core/paging-strategies.js');
  if (api.spec === 'streams' && names.has('startTimestamp')) {
    return { sizeParam: 'limit', startParam: 'startTimestamp', strategy: async (start) => reportTimePaging(start as number) };
  }
  if (names.has('offset') && names.has('limit')) {
    const events = /\/events(\/search)?$/.test(operation.path);
    return {
      sizeParam: 'limit',
      startParam: 'offset',
      strategy: async (start) => {
        const { offsetPaging, streamPositionPaging } = await strategies();
        return startingAt(events ? streamPositionPaging : offsetPaging, start);
      },
    };
  }
  if (names.has('page') && names.has('page_size')) {
    return {
      sizeParam: 'page_size',
      startParam: 'page',
      strategy: async (start) => startingAt((await strategies()).pageNumberPaging, start),
    };
  }
  if (names.has('page_token')) {
    return {
      sizeParam: 'page_size',
      startParam: 'page_token',
      strategy: async (start) => startingAt((await strategies()).pageTokenPaging, start),
    };
  }
  return undefined;
}
