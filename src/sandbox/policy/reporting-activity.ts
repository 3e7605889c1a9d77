/**
 * Reporting's activity: policy-checked transactions, stored permits and
 * registry uses, filtered on the block time (`from`/`to`, inclusive) and
 * sorted by chain, then block, newest first unless `sort` says otherwise.
 */
import type { OperationHandler } from '../types.js';
import type { ReportingTransaction } from './model.js';
import { chainKey, reportingPage, type SortKey } from './paging.js';
import { queryText, queryBool, queryEnum, queryTime, type QueryValues } from './query.js';
import { badRequest, notFound } from './refusals.js';
import { byKey, lower, same } from './reporting-common.js';
import type { PolicyWorld } from './state.js';

/** Reads `from`, `to` and `sort`, shared by the lists ordered by block. */
function timeRange(query: QueryValues) {
  const from = queryTime(query, 'from');
  const to = queryTime(query, 'to');
  if (from !== undefined && to !== undefined && from > to) throw badRequest('from must not be after to');
  const newestFirst = queryEnum(query, 'sort') === 'chain_selector,-block_number';
  const within = (timestamp: string) => {
    const time = Date.parse(timestamp);
    return (from === undefined || time >= from) && (to === undefined || time <= to);
  };
  /** Chain ascending, then block (and position in it) in the asked direction. */
  const keyOf = (item: { chain_selector: string; block_number: number; log_index: number; tx_hash: string }): SortKey => {
    const direction = newestFirst ? -1 : 1;
    return [chainKey(item.chain_selector), direction * item.block_number, direction * item.log_index, item.tx_hash];
  };
  return { within, keyOf };
}

function withoutPolicyDetails(transaction: ReportingTransaction): ReportingTransaction {
  return {
    ...transaction,
    policy_runs: transaction.policy_runs.map((run) => ({
      on_chain: { ...run.on_chain, policies: run.on_chain.policies?.map((policy) => ({ ...policy, policy_state: null })) ?? null },
    })),
  };
}

export function activityHandlers(world: PolicyWorld) {
  const { index } = world.state;
  const txKeyFields = (transaction: ReportingTransaction) => ({ ...transaction, log_index: transaction.policy_runs[0]?.on_chain.log_index ?? 0 });
  const listTransactions: OperationHandler = (request) => {
    const query = request.queryParams;
    const chain = queryText(query, 'chain_selector');
    const fromAddress = queryText(query, 'from_address');
    const toAddress = queryText(query, 'to_address');
    const target = queryText(query, 'target_contract_address');
    const selector = queryText(query, 'function_selector');
    const policy = queryText(query, 'policy_address');
    const engine = queryText(query, 'policy_engine_address');
    const details = queryBool(query, 'include_policy_details');
    const { within, keyOf } = timeRange(query);
    const runs = (transaction: ReportingTransaction) => transaction.policy_runs.map((run) => run.on_chain);
    const items = index.transactions
      .filter(
        (transaction) =>
          (chain === undefined || transaction.chain_selector === chain) &&
          within(transaction.block_timestamp) &&
          same(transaction.from_address, fromAddress) &&
          (toAddress === undefined || (transaction.to_address !== null && transaction.to_address !== undefined && same(transaction.to_address, toAddress))) &&
          runs(transaction).some(
            (run) =>
              same(run.target_contract_address, target) &&
              same(run.method.selector, selector) &&
              same(run.engine_address, engine) &&
              (policy === undefined || (run.policies ?? []).some((entry) => same(entry.address, policy))),
          ),
      )
      .sort(byKey((transaction) => keyOf(txKeyFields(transaction))));
    const page = reportingPage('transactions', items, (transaction) => keyOf(txKeyFields(transaction)), request);
    return { status: 200, body: { transactions: details ? page.items : page.items.map(withoutPolicyDetails), next_page_token: page.next_page_token } };
  };
  const getTransaction: OperationHandler = (request) => {
    const details = queryBool(request.queryParams, 'include_policy_details');
    const chain = request.pathParams.chain_selector!;
    const hash = request.pathParams.tx_hash!;
    const transaction = index.transactions.find((candidate) => candidate.chain_selector === chain && same(candidate.tx_hash, hash));
    if (transaction === undefined) throw notFound(`no policy-checked transaction ${hash} on chain ${chain}`);
    return { status: 200, body: details ? transaction : withoutPolicyDetails(transaction) };
  };
  const listPermits: OperationHandler = (request) => {
    const query = request.queryParams;
    const chain = queryText(query, 'chain_selector');
    const policy = queryText(query, 'policy_address');
    const permitId = queryText(query, 'permit_id');
    const { within, keyOf } = timeRange(query);
    if (policy !== undefined) {
      const onChain = (key: string) => chain === undefined || key.startsWith(`${chain}:`);
      const known =
        index.policies.keys().some((key) => onChain(key) && key.endsWith(`:${lower(policy)}`)) ||
        index.permits.some((permit) => (chain === undefined || permit.chain_selector === chain) && same(permit.policy_address, policy));
      if (!known) throw notFound(`the organisation has no policy ${policy}${chain === undefined ? '' : ` on chain ${chain}`}`);
    }
    const items = index.permits
      .filter(
        (permit) =>
          (chain === undefined || permit.chain_selector === chain) &&
          same(permit.policy_address, policy) &&
          same(permit.permit_id, permitId) &&
          within(permit.block_timestamp),
      )
      .sort(byKey(keyOf));
    const page = reportingPage('permits', items, keyOf, request);
    return { status: 200, body: { permits: page.items, next_page_token: page.next_page_token } };
  };
  const listRegistryUsageEvents: OperationHandler = (request) => {
    const query = request.queryParams;
    const type = queryEnum<'credential' | 'identity'>(query, 'registry_type');
    const chain = queryText(query, 'chain_selector');
    const registry = queryText(query, 'registry_address');
    const ccid = queryText(query, 'ccid');
    if (type === undefined || chain === undefined || registry === undefined) throw badRequest('registry_type, chain_selector and registry_address are required');
    const { within, keyOf } = timeRange(query);
    if (index.registryContracts.get(`${chain}:${lower(registry)}`)?.type !== type) {
      throw notFound(`the organisation has no ${type} registry ${registry} on chain ${chain}`);
    }
    const items = index.usage
      .filter(
        (event) =>
          event.registry_type === type && event.chain_selector === chain && same(event.registry_address, registry) && same(event.ccid, ccid) && within(event.block_timestamp),
      )
      .sort(byKey(keyOf));
    const page = reportingPage('registry-usage', items, keyOf, request);
    return { status: 200, body: { events: page.items, next_page_token: page.next_page_token } };
  };
  return { listTransactions, getTransaction, listPermits, listRegistryUsageEvents };
}
