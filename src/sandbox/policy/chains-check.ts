/** The chains a coordinator request may name: networks the coordinator supports, mainnets only for organisations allowed on them. */
import { badRequest } from './refusals.js';
import type { PolicyWorld } from './state.js';

export function checkChains(world: PolicyWorld, chains: readonly string[], what: string): void {
  // One deployment per chain: the same chain twice is refused, whatever the schema allows.
  if (new Set(chains).size !== chains.length) throw badRequest(`${what}: each value may appear only once`);
  for (const chain of chains) {
    const network = world.state.networks.get(chain);
    if (network === undefined) throw badRequest(`${what}: chain ${chain} is not a network the coordinator supports (see GET /networks)`);
    if (network.is_testnet === false && !world.state.organization.mainnet_allowed) {
      throw badRequest(`${what}: the organisation may not create onchain resources on mainnet (${network.name})`);
    }
  }
}
