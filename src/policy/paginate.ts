import type { SdkClient } from '../core/typed-client.js';
import type { ArrayItemOf, GetOperation, ListInitArgs, ListPaths, OkJson } from '../core/list-types.js';
import { pageNumberPaging, pageTokenPaging, paginateWith } from '../core/paging-strategies.js';
import type { CoordinatorPaths, ReportingPaths } from './client.js';

type CoordinatorPaging = 'page' | 'page_size';
type ReportingPaging = 'page_token' | 'page_size';

/** Coordinator lists: `page`/`page_size`, answered `{total, total_pages, page, <items>}`. */
export type CoordinatorListPath = ListPaths<CoordinatorPaths, CoordinatorPaging, 'total_pages'>;
/** Reporting lists: `page_size`/`page_token`, answered `{<items>, next_page_token}`. */
export type ReportingListPath = ListPaths<ReportingPaths, ReportingPaging, 'next_page_token'>;

type CoordinatorItem<P extends CoordinatorListPath> = ArrayItemOf<OkJson<GetOperation<CoordinatorPaths, P>>>;
type ReportingItem<P extends ReportingListPath> = ArrayItemOf<OkJson<GetOperation<ReportingPaths, P>>>;

/**
 * Every item of a coordinator list, page after page (`page` 1, 2, … up to
 * `total_pages`).
 *
 *     for await (const engine of paginateCoordinator(policy.coordinator, '/policy-engines')) …
 */
export function paginateCoordinator<P extends CoordinatorListPath>(
  client: SdkClient<CoordinatorPaths>,
  path: P,
  ...[init]: ListInitArgs<GetOperation<CoordinatorPaths, P>, CoordinatorPaging>
): AsyncGenerator<CoordinatorItem<P>, void, undefined> {
  return paginateWith(pageNumberPaging, client, path as string, init) as AsyncGenerator<CoordinatorItem<P>, void, undefined>;
}

/**
 * Every item of a reporting list, following `next_page_token` until the
 * service sends none. Filters (e.g. `from`/`to` on `/transactions`) go in
 * `params.query` and are repeated on every page, as the service requires.
 */
export function paginateReporting<P extends ReportingListPath>(
  client: SdkClient<ReportingPaths>,
  path: P,
  ...[init]: ListInitArgs<GetOperation<ReportingPaths, P>, ReportingPaging>
): AsyncGenerator<ReportingItem<P>, void, undefined> {
  return paginateWith(pageTokenPaging, client, path as string, init) as AsyncGenerator<ReportingItem<P>, void, undefined>;
}
