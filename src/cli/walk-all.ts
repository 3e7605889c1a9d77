/**
 * `--all`: every item of every page, written as pages arrive, in the
 * `--output` format: NDJSON (the default with `--all`: one item per line),
 * one JSON array (`--output json`, opened before the first item and closed
 * after the last, so a walk of any length is never held whole), or a table
 * (one header, then a row per item; the columns sized on the first page and,
 * on a terminal, fitted to it, a later longer cell cut to its column so the
 * columns hold; in a pipe no cell is cut, and a longer one widens its own
 * row only). `--max-items N`
 * stops after N items. A progress count goes to a terminal's stderr.
 *
 * A page's items go out in one write when the walk next waits (for the
 * following page), and a full stdout is waited on before reading on: memory
 * holds about one page, whatever the total, and stdout only ever gets whole
 * lines (Ctrl-C included: the array is closed).
 */
import type { LooseClient } from './clients.js';
import type { CliIo } from './io.js';
import { columnWidths, headerCells, tableHeader, tableLine, tableRow, terminalColumns, toJson, type Filter, type OutputFormat } from './output.js';
import type { Paging } from './paging.js';
import type { CliOperation } from './spec-table.js';

/** Turns items into text in one format: `item` per item, `page` when a page is done, `end` after the last. */
interface ItemWriter {
  item(value: unknown): string;
  page(): string;
  end(): string;
}

function ndjsonWriter(): ItemWriter {
  return { item: (value) => `${toJson(value, false)}\n`, page: () => '', end: () => '' };
}

function jsonArrayWriter(): ItemWriter {
  let count = 0;
  return {
    item: (value) => `${count++ === 0 ? '[\n' : ',\n'}${toJson(value, false)}`,
    page: () => '',
    end: () => (count === 0 ? '[]\n' : '\n]\n'),
  };
}

function tableWriter(fields: readonly string[] | undefined, maxWidth: number | undefined): ItemWriter {
  const cut = maxWidth !== undefined;
  let firstPage: unknown[] | undefined = [];
  let header: string[] = [];
  let widths: number[] = [];
  const startTable = (): string => {
    const rows = firstPage!;
    firstPage = undefined;
    header = tableHeader(rows, fields);
    const body = rows.map((row) => tableRow(row, header));
    const titles = headerCells(header);
    widths = columnWidths(titles, body, maxWidth);
    return [tableLine(titles, widths, cut), ...body.map((row) => tableLine(row, widths, cut))].map((line) => `${line}\n`).join('');
  };
  return {
    item: (value) => {
      if (firstPage !== undefined) {
        firstPage.push(value);
        return '';
      }
      return `${tableLine(tableRow(value, header), widths, cut)}\n`;
    },
    page: () => (firstPage !== undefined && firstPage.length > 0 ? startTable() : ''),
    end: () => (firstPage !== undefined ? startTable() : ''),
  };
}

function itemWriter(format: OutputFormat | undefined, fields: readonly string[] | undefined, maxWidth: number | undefined): ItemWriter {
  if (format === 'json') return jsonArrayWriter();
  if (format === 'table') return tableWriter(fields, maxWidth);
  return ndjsonWriter();
}

/** How `--all` prints: the format asked for, the filter, and where to stop. */
export interface WalkOptions {
  /** The `--output` given, if any (NDJSON when none). */
  format: OutputFormat | undefined;
  filter: Filter | undefined;
  /** `--max-items`: stop after this many. */
  maxItems: number;
}

/** Walks every page of `operation` and prints its items as they arrive; the exit code. */
export async function walkAll(
  client: LooseClient,
  operation: CliOperation,
  paging: Paging,
  params: Record<'path' | 'query' | 'header', Record<string, unknown>>,
  io: CliIo,
  { format, filter, maxItems }: WalkOptions,
): Promise<number> {
  const { paginateWith } = await import('../core/paging-strategies.js');
  const { [paging.sizeParam]: size, ...query } = params.query;
  const start = paging.startParam === undefined ? undefined : query[paging.startParam];
  if (paging.startParam !== undefined) delete query[paging.startParam];
  const strategy = await paging.strategy(start);
  const items = paginateWith(strategy, client as never, operation.path, {
    params: { ...params, query },
    ...(typeof size === 'number' ? { pageSize: size } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  const writer = itemWriter(format, filter ? undefined : operation.listFields, terminalColumns(io.stdout));
  const progress = io.stderr.isTTY === true;
  let count = 0;
  let pending = '';
  let flushScheduled = false;
  let drained: Promise<void> | undefined;
  // The progress count shown last: blanked before rows are written, as stdout and stderr often share one terminal.
  let shown = '';
  const showProgress = (text: string) => {
    io.stderr.write(`\r${shown === '' ? '' : `${' '.repeat(shown.length)}\r`}${text}`);
    shown = text;
  };
  const flush = (last = false) => {
    flushScheduled = false;
    const chunk = pending + writer.page() + (last ? writer.end() : '');
    pending = '';
    if (chunk === '') return;
    if (progress && shown !== '') showProgress('');
    if (!io.stdout.write(chunk) && io.stdout.once !== undefined) {
      drained = new Promise<void>((resolve) => io.stdout.once!('drain', () => resolve()));
    }
    if (progress && !last) showProgress(`${count} items…`);
  };
  try {
    for await (const item of items) {
      if (drained !== undefined) {
        await drained;
        drained = undefined;
      }
      pending += writer.item(filter ? filter(item) : item);
      count++;
      if (count >= maxItems) break;
      // A page's items arrive without I/O in between; the flush runs once the walk waits for the next page.
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    }
  } finally {
    flush(true);
    if (progress) showProgress(`${count} items\n`);
  }
  return 0;
}
