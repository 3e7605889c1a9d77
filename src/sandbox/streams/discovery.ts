/**
 * Discovery: the catalog, filtered by every filter the spec lists. Text
 * filters match whole values, ignoring case (the service publishes no
 * values, and `eth` finding nothing where `ETH` finds a stream would only
 * surprise). Date filters are strict (`created_after=T` excludes a stream
 * created at T), and a stream without the date never matches them. Hidden
 * streams are listed only when the caller is authenticated and asks with
 * `hidden=true`.
 */
import type { CatalogStream, StreamRecord } from './catalog.js';
import { optionalBooleanArgument, optionalSecondsArgument, optionalTextArgument } from './query.js';

const TEXT_FILTERS = ['base_asset', 'quote_asset', 'asset_class', 'feed_type', 'attribute_type', 'status', 'network_type'] as const;

const DATE_FILTERS = [
  ['created_after', 'created_at', 'after'],
  ['created_before', 'created_at', 'before'],
  ['expected_decommission_after', 'expected_decommission_at', 'after'],
  ['expected_decommission_before', 'expected_decommission_at', 'before'],
  ['decommissioned_after', 'decommissioned_at', 'after'],
  ['decommissioned_before', 'decommissioned_at', 'before'],
] as const;

type Predicate = (record: StreamRecord) => boolean;

/** The streams a discovery request selects, in catalog order. Throws the spec's 400 for a malformed filter. */
export function discover(catalog: readonly CatalogStream[], query: URLSearchParams, authenticated: boolean): StreamRecord[] {
  const predicates: Predicate[] = [];
  for (const name of TEXT_FILTERS) {
    const wanted = optionalTextArgument(query, name)?.toLowerCase();
    if (wanted !== undefined) predicates.push((record) => record[name]?.toLowerCase() === wanted);
  }
  for (const [name, field, side] of DATE_FILTERS) {
    const bound = optionalSecondsArgument(query, name);
    if (bound === undefined) continue;
    predicates.push((record) => {
      const value = record[field];
      return typeof value === 'number' && (side === 'after' ? value > bound : value < bound);
    });
  }
  const hidden = optionalBooleanArgument(query, 'hidden');
  if (!(authenticated && hidden === true)) predicates.push((record) => record.hidden !== true);
  return catalog.map((stream) => stream.record).filter((record) => predicates.every((matches) => matches(record)));
}
