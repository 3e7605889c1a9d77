/** `onchain_configs` of policies and data validators: chains holding the same configuration, grouped under one configuration log. */

export interface ConfigGroup {
  id: string;
  chain_selectors: string[];
  config_json: Record<string, unknown>;
}

/** Groups `configs` (chain → configuration); a group whose configuration existed before keeps its id. */
export function groupConfigs(newId: () => string, previous: readonly ConfigGroup[], configs: ReadonlyMap<string, Record<string, unknown>>): ConfigGroup[] {
  const groups = new Map<string, ConfigGroup>();
  for (const [chain, config] of configs) {
    const key = JSON.stringify(config);
    const group = groups.get(key);
    if (group !== undefined) group.chain_selectors.push(chain);
    else groups.set(key, { id: previous.find((existing) => JSON.stringify(existing.config_json) === key)?.id ?? newId(), chain_selectors: [chain], config_json: config });
  }
  return [...groups.values()];
}

/** Each chain's configuration, read back from the groups. */
export function configsByChain(groups: readonly ConfigGroup[], chains: readonly string[]): Map<string, Record<string, unknown>> {
  return new Map(chains.map((chain) => [chain, groups.find((group) => group.chain_selectors.includes(chain))?.config_json ?? {}]));
}
