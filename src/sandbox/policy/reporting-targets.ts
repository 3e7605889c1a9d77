/**
 * Reporting's targets: each protected contract as of `as_of`, with its
 * engine attachments, defaults, protected functions, their extractor and
 * the policies that run on them (each in the version in force then).
 */
import type { OperationHandler } from '../types.js';
import { blockFields, isoTime } from './chain.js';
import type { Version } from './history.js';
import type { ReportingTarget } from './model.js';
import { chainKey, reportingPage } from './paging.js';
import { queryText, queryBool, queryTime } from './query.js';
import { notFound } from './refusals.js';
import { byKey, chainAndAddress, lower, periodEnd, same, splitKey } from './reporting-common.js';
import type { PolicyState, PolicyWorld, ProtectedMethodValue } from './state.js';

/** The versions of `key` that form one unbroken period around `version` (a detach and re-attach starts a new one). */
function periodAround<V>(versions: readonly Version<V>[], version: Version<V>): { first: Version<V>; last: Version<V> } {
  let start = versions.indexOf(version);
  let end = start;
  while (start > 0 && versions[start - 1]!.to === versions[start]!.from) start--;
  while (end < versions.length - 1 && versions[end]!.to === versions[end + 1]!.from) end++;
  return { first: versions[start]!, last: versions[end]! };
}

function targetData(state: PolicyState, chain: string, address: string, asOf: number, details: boolean): ReportingTarget | undefined {
  const { index } = state;
  const prefix = `${chain}:${address}:`;
  const engines = index.attachments.keys().flatMap((key) => {
    if (!key.startsWith(prefix)) return [];
    const version = index.attachments.at(key, asOf);
    if (version === undefined) return [];
    const { first, last } = periodAround(index.attachments.all(key), version);
    const methods = index.methods
      .keys()
      .filter((methodKey) => methodKey.startsWith(`${key}:`))
      .flatMap((methodKey) => {
        const method = index.methods.at(methodKey, asOf);
        return method === undefined ? [] : [protectedMethod(state, chain, methodKey, method, asOf, details)];
      });
    return [
      {
        policy_engine_address: splitKey(key)[2]!,
        attached_at: isoTime(first.from),
        detached_at: periodEnd(last),
        engine_default_behavior: version.value.engineDefault,
        target_default_behavior: version.value.targetDefault,
        protected_methods: methods.length === 0 ? null : methods,
        ...blockFields(first.block),
      },
    ];
  });
  return engines.length === 0 ? undefined : { chain_selector: chain, address, policy_engines: engines };
}

function protectedMethod(state: PolicyState, chain: string, methodKey: string, method: Version<ProtectedMethodValue>, asOf: number, details: boolean) {
  const { index } = state;
  const extractor = method.value.extractor;
  // The extractor was replaced at the first later version that names another one, or when the function stopped being protected.
  const later = index.methods.all(methodKey).filter((version) => version.from > method.from);
  const replacedAt = later.find((version) => version.value.extractor?.address !== extractor?.address)?.from ?? null;
  const endedAt = replacedAt ?? (later.length === 0 ? method.to : later.at(-1)!.to);
  return {
    method_selector: splitKey(methodKey)[3]!,
    extractor:
      extractor === null
        ? null
        : { address: extractor.address, effective_from: isoTime(extractor.block.time), effective_to: endedAt === null ? null : isoTime(endedAt), ...blockFields(extractor.block) },
    policies: method.value.policies.flatMap((entry) => {
      const version = index.policies.at(`${chain}:${lower(entry.address)}`, asOf);
      if (version === undefined) return [];
      return [
        {
          policy_address: entry.address,
          policy_name: version.value.name,
          parameter_names: entry.parameterNames,
          mapper: null,
          version: version.number,
          state: details ? version.value.state : null,
          effective_from: isoTime(version.from),
          effective_to: periodEnd(version),
          ...blockFields(version.block),
        },
      ];
    }),
  };
}

export function targetHandlers(world: PolicyWorld) {
  const { state } = world;
  const listTargets: OperationHandler = (request) => {
    const query = request.queryParams;
    const asOf = queryTime(query, 'as_of')!;
    const engine = queryText(query, 'policy_engine_address');
    const chain = queryText(query, 'chain_selector');
    const details = queryBool(query, 'include_policy_details');
    const places = new Set(state.index.attachments.keys().map((key) => splitKey(key).slice(0, 2).join(':')));
    const items = [...places]
      .flatMap((place) => {
        const [keyChain, address] = splitKey(place) as [string, string];
        const target = chain === undefined || keyChain === chain ? targetData(state, keyChain, address, asOf, details) : undefined;
        if (target === undefined) return [];
        if (engine !== undefined && !target.policy_engines.some((attachment) => same(attachment.policy_engine_address, engine))) return [];
        return [target];
      })
      .sort(byKey((target) => [chainKey(target.chain_selector), target.address]));
    const page = reportingPage('targets', items, (target) => [chainKey(target.chain_selector), target.address], request);
    return { status: 200, body: { targets: page.items, next_page_token: page.next_page_token } };
  };
  const getTarget: OperationHandler = (request) => {
    const query = request.queryParams;
    const asOf = queryTime(query, 'as_of')!;
    const details = queryBool(query, 'include_policy_details');
    const { chain, address } = chainAndAddress(request);
    const target = targetData(state, chain, address, asOf, details);
    if (target === undefined) throw notFound(`no target ${address} on chain ${chain} was attached at ${isoTime(asOf)}`);
    return { status: 200, body: target };
  };
  return { listTargets, getTarget };
}
