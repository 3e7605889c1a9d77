/**
 * Reporting's policies: each deployed policy contract in the version in force
 * at `as_of`, a version per configuration written onchain, and any version
 * by number (or `latest`).
 */
import type { OperationHandler } from '../types.js';
import { blockFields, isoTime } from './chain.js';
import type { Version } from './history.js';
import type { ReportingPolicy } from './model.js';
import { chainKey, reportingPage } from './paging.js';
import { queryText, queryBool, queryTime } from './query.js';
import { notFound } from './refusals.js';
import { byKey, chainAndAddress, periodEnd, same, splitKey } from './reporting-common.js';
import type { PolicyVersionValue, PolicyWorld } from './state.js';

function policyData(chain: string, address: string, version: Version<PolicyVersionValue>, details: boolean): ReportingPolicy {
  const { value } = version;
  return {
    chain_selector: chain,
    address,
    owner: value.owner,
    name: value.name,
    description: value.description,
    policy_engine_address: value.policyEngineAddress,
    version: version.number,
    state: details ? value.state : null,
    effective_from: isoTime(version.from),
    effective_to: periodEnd(version),
    ...blockFields(version.block),
  };
}

export function policyHandlers(world: PolicyWorld) {
  const { index } = world.state;
  const listPolicies: OperationHandler = (request) => {
    const query = request.queryParams;
    const asOf = queryTime(query, 'as_of')!;
    const engine = queryText(query, 'policy_engine_address');
    const owner = queryText(query, 'owner');
    const chain = queryText(query, 'chain_selector');
    const details = queryBool(query, 'include_policy_details');
    const items = index.policies
      .keys()
      .flatMap((key) => {
        const version = index.policies.at(key, asOf);
        const [keyChain, address] = splitKey(key) as [string, string];
        return version === undefined ? [] : [policyData(keyChain, address, version, details)];
      })
      .filter((policy) => (chain === undefined || policy.chain_selector === chain) && same(policy.policy_engine_address, engine) && same(policy.owner, owner))
      .sort(byKey((policy) => [chainKey(policy.chain_selector), policy.address]));
    const page = reportingPage('policies', items, (policy) => [chainKey(policy.chain_selector), policy.address], request);
    return { status: 200, body: { policies: page.items, next_page_token: page.next_page_token } };
  };
  const getPolicy: OperationHandler = (request) => {
    const query = request.queryParams;
    const asOf = queryTime(query, 'as_of')!;
    const details = queryBool(query, 'include_policy_details');
    const { chain, address } = chainAndAddress(request);
    const version = index.policies.at(`${chain}:${address}`, asOf);
    if (version === undefined) throw notFound(`no policy ${address} on chain ${chain} was in force at ${isoTime(asOf)}`);
    return { status: 200, body: policyData(chain, address, version, details) };
  };
  const getPolicyVersion: OperationHandler = (request) => {
    const { chain, address } = chainAndAddress(request);
    const wanted = request.pathParams.version!;
    const versions = index.policies.all(`${chain}:${address}`);
    const version = wanted === 'latest' ? versions.at(-1) : versions[Number(wanted) - 1];
    if (version === undefined) throw notFound(`policy ${address} on chain ${chain} has no version ${wanted}`);
    return { status: 200, body: policyData(chain, address, version, true) };
  };
  return { listPolicies, getPolicy, getPolicyVersion };
}
