import type { ArrayItemOf, GetOperation, ListInitArgs, ListPaths, OkJson } from '../core/list-types.js';
import { offsetPaging, paginateWith, streamPositionPaging } from '../core/paging-strategies.js';
import type { ChannelsClient, ChannelsPaths } from './client.js';

type Paging = 'limit' | 'offset';

/** Every channels list: `limit`/`offset` in, `{…items, has_more}` out. */
export type ChannelsListPath = ListPaths<ChannelsPaths, Paging, 'has_more'>;
/** The item type of a channels list path (`ChannelsListItem<'/wallets'>` is a wallet). */
export type ChannelsListItem<P extends ChannelsListPath> = ArrayItemOf<OkJson<GetOperation<ChannelsPaths, P>>>;

/** On the event endpoints `offset` is a stream position (`headers.offset`), elsewhere a count of items skipped. */
function isEventStream(path: string): boolean {
  return /\/events(\/search)?$/.test(path);
}

/**
 * Every item of a channels list, page after page, following `has_more`.
 *
 *     for await (const wallet of paginate(channels, '/wallets', { params: { query: { status: ['deployed'] } } })) …
 *     const watchers = await collect(paginate(channels, '/channels/{channel_id}/watchers', { params: { path: { channel_id } }, maxItems: 500 }));
 */
export function paginate<P extends ChannelsListPath>(
  client: ChannelsClient,
  path: P,
  ...[init]: ListInitArgs<GetOperation<ChannelsPaths, P>, Paging>
): AsyncGenerator<ChannelsListItem<P>, void, undefined> {
  const strategy = isEventStream(path as string) ? streamPositionPaging : offsetPaging;
  return paginateWith(strategy, client, path as string, init) as AsyncGenerator<ChannelsListItem<P>, void, undefined>;
}
