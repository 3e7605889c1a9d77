/**
 * How a chain query moves on after it is accepted, each step a scheduled
 * change at its own sandbox time:
 *
 *     accepted → sending → sent → completed | failed
 *
 * A query of `FAILING_ADDRESS` ends `failed`; one of `SILENT_ADDRESS` gets no
 * result. Any query without a result at its `expires_at` becomes `expired`.
 * Following the spec (`query.status`: "a query reached `completed` or
 * `failed`"), only the terminal statuses (`expired` included, which ends the
 * query as surely) are published as `query.status` events.
 */
import { base64Json, hashOf, ocrProof, randomHex, WORKFLOW_IDS } from './hex.js';
import { seconds, type QueryStatus } from './model.js';
import { blockNumberAt } from './networks.js';
import type { ChannelsWorld, StoredQuery } from './state.js';

const TERMINAL: readonly QueryStatus[] = ['completed', 'failed', 'expired'];

export function scheduleQuery(world: ChannelsWorld, stored: StoredQuery, accepted: number): void {
  const { timings } = world;
  const { query } = stored;
  const sending = accepted + timings.querySending;
  const sent = sending + timings.querySent;
  const result = sent + timings.queryResult;

  function step(from: QueryStatus, time: number, change: (time: number) => void): void {
    world.at(time, (at) => {
      if (query.status === from) change(at);
    });
  }

  step('accepted', sending, (time) => {
    query.status = 'sending';
    query.sending_at = query.updated_at = seconds(time);
  });
  step('sending', sent, (time) => {
    query.status = 'sent';
    query.sent_at = query.updated_at = seconds(time);
  });
  step('sent', result, (time) => {
    if (stored.outcome === 'silent') return;
    if (stored.outcome === 'fails') {
      query.failed_at = seconds(time);
      return finish(world, stored, 'failed', time);
    }
    const blockNumber = blockAt(stored, time);
    query.event_hash = hashOf('query-result', query.query_id);
    query.verifiable_result = base64Json({
      query_id: query.query_id,
      block_number: blockNumber,
      result: hashOf('call', query.chain_selector, query.target.toLowerCase(), stored.callData, blockNumber),
    });
    query.proof = ocrProof(query.event_hash);
    query.workflow_execution_id = randomHex(32);
    query.completed_at = seconds(time);
    finish(world, stored, 'completed', time);
  });
  world.at(query.expires_at! * 1000, (time) => {
    if (TERMINAL.includes(query.status)) return;
    query.expired_at = seconds(time);
    finish(world, stored, 'expired', time);
  });
}

function blockAt(stored: StoredQuery, time: number): string {
  const latest = BigInt(blockNumberAt(stored.query.chain_selector, time));
  if (stored.block === 'latest') return latest.toString();
  if (stored.block === 'finalized') return (latest > 2n ? latest - 2n : 0n).toString();
  return stored.block;
}

function finish(world: ChannelsWorld, stored: StoredQuery, status: QueryStatus, time: number): void {
  const { query } = stored;
  query.status = status;
  query.updated_at = seconds(time);
  world.state.events.append(
    query.channel_id,
    'query.status',
    {
      query_id: query.query_id,
      status,
      target: query.target,
      chain_selector: query.chain_selector,
      timestamp: seconds(time),
      ...(query.event_hash === undefined ? {} : { event_hash: query.event_hash }),
      ...(query.verifiable_result === undefined ? {} : { verifiable_result: query.verifiable_result }),
      workflow_id: WORKFLOW_IDS.query,
      ...(query.workflow_execution_id === undefined ? {} : { workflow_execution_id: query.workflow_execution_id }),
    },
    {},
    query.proof === undefined ? [] : [query.proof],
  );
}
