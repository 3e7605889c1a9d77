/**
 * Reporting's identities: each CCID registered at `as_of`, its registry
 * memberships and wallet addresses, and (on request) its credentials.
 */
import type { OperationHandler } from '../types.js';
import { blockFields, isoTime } from './chain.js';
import type { Version } from './history.js';
import { jsonToHex } from './hex.js';
import type { ReportingIdentity } from './model.js';
import { reportingPage } from './paging.js';
import { queryText, queryBool, queryTime } from './query.js';
import { notFound } from './refusals.js';
import { byKey, lower, periodEnd, same, splitKey } from './reporting-common.js';
import type { IdentityAddressValue, PolicyState, PolicyWorld } from './state.js';

function identityData(state: PolicyState, ccid: string, asOf: number, details: boolean): ReportingIdentity | undefined {
  const { index } = state;
  const addresses = index.identityAddresses.inForceAt(asOf).filter((version) => version.value.ccid === ccid);
  const credentials = index.credentials.inForceAt(asOf).filter((version) => version.value.ccid === ccid);
  // An identity is on record while it is registered somewhere; credentials alone do not make one.
  if (addresses.length === 0) return undefined;
  const registries = new Map<string, Version<IdentityAddressValue>[]>();
  for (const version of addresses) {
    const key = `${version.value.chainSelector}:${lower(version.value.registryAddress)}`;
    registries.set(key, [...(registries.get(key) ?? []), version]);
  }
  return {
    ccid,
    registries: [...registries.values()].map((versions) => {
      const first = versions.reduce((earliest, version) => (version.from < earliest.from ? version : earliest));
      return {
        registry_address: first.value.registryAddress,
        chain_selector: first.value.chainSelector,
        addresses: versions.map((version) => ({
          address: version.value.address,
          effective_from: isoTime(version.from),
          effective_to: periodEnd(version),
          ...blockFields(version.block),
        })),
        block_timestamp: isoTime(first.block.time),
        ...blockFields(first.block),
      };
    }),
    credentials: !details
      ? null
      : credentials.map((version) => {
          const { value } = version;
          const registry = index.registryContracts.get(`${value.chainSelector}:${lower(value.registryAddress)}`)?.block ?? version.block;
          return {
            credential_type_id: value.credentialTypeHash,
            credential_registry: {
              address: value.registryAddress,
              chain_selector: value.chainSelector,
              block_timestamp: isoTime(registry.time),
              ...blockFields(registry),
            },
            expires_at: value.expiresAt === null ? null : isoTime(value.expiresAt * 1000),
            credential_data: value.data === null || value.data === undefined ? null : jsonToHex(value.data),
            effective_from: isoTime(version.from),
            effective_to: periodEnd(version),
            ...blockFields(version.block),
          };
        }),
  };
}

export function identityHandlers(world: PolicyWorld) {
  const { state } = world;
  const listIdentities: OperationHandler = (request) => {
    const query = request.queryParams;
    const asOf = queryTime(query, 'as_of')!;
    const address = queryText(query, 'address');
    const identityRegistry = queryText(query, 'identity_registry');
    const credentialRegistry = queryText(query, 'credential_registry');
    const credentialType = queryText(query, 'credential_type_id');
    const chain = queryText(query, 'chain_selector');
    const details = queryBool(query, 'include_credential_details');
    const ccids = new Set([...state.index.identityAddresses.keys(), ...state.index.credentials.keys()].map((key) => splitKey(key)[0]!));
    const items = [...ccids]
      .flatMap((ccid) => {
        const identity = identityData(state, ccid, asOf, true);
        if (identity === undefined) return [];
        const inRegistry = identity.registries.filter((entry) => chain === undefined || entry.chain_selector === chain);
        const held = (identity.credentials ?? []).filter((credential) => chain === undefined || credential.credential_registry.chain_selector === chain);
        const matches =
          (chain === undefined || inRegistry.length > 0 || held.length > 0) &&
          (address === undefined || inRegistry.some((entry) => entry.addresses.some((info) => same(info.address, address)))) &&
          (identityRegistry === undefined || inRegistry.some((entry) => same(entry.registry_address, identityRegistry))) &&
          (credentialRegistry === undefined || held.some((credential) => same(credential.credential_registry.address, credentialRegistry))) &&
          (credentialType === undefined || held.some((credential) => same(credential.credential_type_id, credentialType)));
        return matches ? [details ? identity : { ...identity, credentials: null }] : [];
      })
      .sort(byKey((identity) => [identity.ccid]));
    const page = reportingPage('identities', items, (identity) => [identity.ccid], request);
    return { status: 200, body: { identities: page.items, next_page_token: page.next_page_token } };
  };
  const getIdentityByCCID: OperationHandler = (request) => {
    const query = request.queryParams;
    const asOf = queryTime(query, 'as_of')!;
    const details = queryBool(query, 'include_credential_details');
    const ccid = request.pathParams.ccid!;
    const identity = identityData(state, lower(ccid), asOf, details);
    if (identity === undefined) throw notFound(`no identity ${ccid} was registered at ${isoTime(asOf)}`);
    return { status: 200, body: identity };
  };
  return { listIdentities, getIdentityByCCID };
}
