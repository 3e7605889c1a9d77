/**
 * `watcher.event`: once an operation is final onchain, every active watcher
 * (of any channel) that follows a contract the operation called, on the same
 * chain, sees one contract event: the first event name it watches, in the
 * operation's transaction. The event goes to the watcher's own channel.
 */
import { base64Json, hashOf, ocrProof, randomHex } from './hex.js';
import { seconds, type Operation } from './model.js';
import { blockNumberAt } from './networks.js';
import type { ChannelsWorld } from './state.js';

export function publishContractEvents(world: ChannelsWorld, operation: Operation, time: number): void {
  const called = new Set(operation.transactions.map((transaction) => transaction.to.toLowerCase()));
  const txHash = hashOf('tx', operation.operation_id);
  for (const watcher of world.state.watchers.values()) {
    if (watcher.status !== 'active' || watcher.chain_selector !== operation.chain_selector) continue;
    if (!called.has(watcher.address.toLowerCase())) continue;
    const eventName = watcher.events[0]!;
    const verifiable = {
      event: eventName,
      address: watcher.address,
      block_number: blockNumberAt(operation.chain_selector, time),
      tx_hash: txHash,
    };
    const eventHash = hashOf('watcher-event', watcher.watcher_id, txHash);
    world.state.events.append(
      watcher.channel_id,
      'watcher.event',
      {
        watcher_id: watcher.watcher_id,
        chain_selector: watcher.chain_selector,
        event_hash: eventHash,
        verifiable_event: base64Json(verifiable),
        timestamp: seconds(time),
        ...(watcher.workflow_id === undefined ? {} : { workflow_id: watcher.workflow_id }),
        workflow_execution_id: randomHex(32),
      },
      {
        addresses: [watcher.address.toLowerCase()],
        eventName,
        ...(watcher.service === undefined ? {} : { service: watcher.service }),
      },
      [ocrProof(eventHash)],
    );
  }
}
