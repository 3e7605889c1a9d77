/**
 * Data validators, wallets, networks, the organisation and the health
 * check. A data validator deploys per chain (`creation_pending` → `created`)
 * and takes configuration patches with optimistic concurrency (`409` on a
 * stale version, a deployment that is not `created`, or a change already in
 * flight); wallets deploy per chain, one per chain.
 */
import type { OperationHandler } from '../types.js';
import { dataValidatorAddress, walletAddress } from './addresses.js';
import { checkChains } from './chains-check.js';
import { configsByChain, groupConfigs, type ConfigGroup } from './config-groups.js';
import { applyJsonPatch } from './json-patch.js';
import type { CoordinatorWallet, DataValidator, Network } from './model.js';
import { queryText, queryBool, queryEnum } from './query.js';
import { badRequest, conflict, notFound } from './refusals.js';
import { bodyOf, type CoordinatorBody } from './request-body.js';
import { findItem, isArchived, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

/** Deploys every `creation_pending` chain, and writes every `update_pending` one, after the onchain delay. */
function settleValidator(world: PolicyWorld, validator: DataValidator, written?: Map<string, Record<string, unknown>>): void {
  world.later(world.timings.onchainMs, () => {
    const configs = configsByChain(validator.onchain_configs as ConfigGroup[], validator.chain_selectors);
    for (const deployment of validator.onchain_data_validators ?? []) {
      if (deployment.status === 'creation_pending') {
        deployment.status = 'created';
        deployment.address = dataValidatorAddress(validator.id, deployment.chain_selector);
      } else if (deployment.status === 'update_pending' && written?.has(deployment.chain_selector)) {
        deployment.status = 'created';
        deployment.data_validator_config_version = String(Number(deployment.data_validator_config_version) + 1);
        configs.set(deployment.chain_selector, written.get(deployment.chain_selector)!);
      }
    }
    validator.onchain_configs = groupConfigs(() => world.newId(), validator.onchain_configs as ConfigGroup[], configs);
    if (written !== undefined) validator.ongoing_config_changes = [];
  });
}

function addDeployments(world: PolicyWorld, validator: DataValidator, inputs: readonly NonNullable<CoordinatorBody<'createDataValidator'>['onchain_data_validators']>[number][]): void {
  const added = inputs.filter((input) => !validator.chain_selectors.includes(input.chain_selector));
  checkChains(world, inputs.map((input) => input.chain_selector), 'onchain_data_validators');
  const configs = configsByChain(validator.onchain_configs as ConfigGroup[], validator.chain_selectors);
  for (const input of added) configs.set(input.chain_selector, input.initial_config ?? {});
  validator.onchain_data_validators = [
    ...(validator.onchain_data_validators ?? []),
    ...added.map((input) => ({ id: world.newId(), chain_selector: input.chain_selector, data_validator_config_version: '1', status: 'creation_pending' as const })),
  ];
  validator.chain_selectors = [...validator.chain_selectors, ...added.map((input) => input.chain_selector)];
  validator.onchain_configs = groupConfigs(() => world.newId(), validator.onchain_configs as ConfigGroup[], configs);
  settleValidator(world, validator);
}

export const dataValidators: ResourceKind<DataValidator> = {
  noun: 'data validator',
  idParam: 'data_validator_id',
  listKey: 'data_validators',
  items: (state) => state.dataValidators,
  onchainFields: ['onchain_data_validators'],
  matches(validator, query) {
    const status = queryEnum(query, 'status');
    const implementationId = queryText(query, 'data_validator_implementation_id')?.toLowerCase();
    const chain = queryText(query, 'chain_selector');
    const address = queryText(query, 'address')?.toLowerCase();
    const name = queryText(query, 'name')?.toLowerCase();
    const deployments = (validator.onchain_data_validators ?? []).filter(
      (deployment) =>
        (status === undefined || deployment.status === status) &&
        (chain === undefined || deployment.chain_selector === chain) &&
        (address === undefined || deployment.address?.toLowerCase() === address),
    );
    const byDeployment = status !== undefined || chain !== undefined || address !== undefined;
    return (
      (!byDeployment || deployments.length > 0) &&
      (implementationId === undefined || validator.data_validator_implementation_id === implementationId) &&
      (name === undefined || validator.name.toLowerCase().includes(name))
    );
  },
  create(raw, world) {
    const body = bodyOf('createDataValidator', raw);
    const implementationId = body.data_validator_implementation_id.toLowerCase();
    if (!world.state.dataValidatorImplementations.has(implementationId)) throw notFound(`no data validator implementation ${implementationId}`);
    const validator: DataValidator = {
      id: world.newId(),
      name: body.name,
      description: body.description ?? '',
      data_validator_implementation_id: implementationId,
      onchain_configs: [],
      onchain_data_validators: [],
      chain_selectors: [],
      ongoing_config_changes: [],
      archived_at: null,
    };
    addDeployments(world, validator, body.onchain_data_validators ?? []);
    return validator;
  },
  replace(validator, raw, world) {
    const body = bodyOf('replaceDataValidator', raw);
    if (body.name !== undefined) validator.name = body.name;
    if (body.description !== undefined) validator.description = body.description;
    if (body.onchain_data_validators !== undefined) addDeployments(world, validator, body.onchain_data_validators);
  },
  archive(validator) {
    if ((validator.onchain_data_validators ?? []).some((deployment) => deployment.status === 'creation_pending')) {
      throw conflict(`data validator ${validator.id} is still being deployed`);
    }
    if ((validator.ongoing_config_changes ?? []).length > 0) throw conflict(`data validator ${validator.id} has a configuration change in flight`);
  },
};

export function patchDataValidatorConfigsHandler(world: PolicyWorld): OperationHandler {
  return (request) => {
    const validator = findItem(dataValidators, request, world);
    const body = bodyOf('patchDataValidatorConfigs', request.body);
    if (body.on_chains === undefined) throw badRequest('on_chains: name at least one chain to apply the patch on');
    if (isArchived(validator)) throw badRequest(`data validator ${validator.id} is archived`);
    if ((validator.ongoing_config_changes ?? []).length > 0) throw conflict(`data validator ${validator.id} has a configuration change in flight`);
    const configs = configsByChain(validator.onchain_configs as ConfigGroup[], validator.chain_selectors);
    const patches = body.patches ?? [];
    const written = new Map<string, Record<string, unknown>>();
    for (const { chain_selector: chain, current_config_version: expected } of body.on_chains) {
      const deployment = validator.onchain_data_validators?.find((candidate) => candidate.chain_selector === chain);
      if (deployment === undefined) throw badRequest(`on_chains: data validator ${validator.id} is not deployed on chain ${chain}`);
      if (deployment.status !== 'created') throw conflict(`on_chains: the deployment on chain ${chain} is ${deployment.status}`);
      if (deployment.data_validator_config_version !== expected) {
        throw conflict(`on_chains: chain ${chain} holds configuration version ${deployment.data_validator_config_version}, not ${expected}`);
      }
      written.set(chain, applyJsonPatch(configs.get(chain) ?? {}, patches));
    }
    validator.ongoing_config_changes = [{ chain_selectors: [...written.keys()], patches }];
    for (const deployment of validator.onchain_data_validators ?? []) if (written.has(deployment.chain_selector)) deployment.status = 'update_pending';
    settleValidator(world, validator, written);
    return { status: 200, body: validator };
  };
}

export function walletHandlers(world: PolicyWorld): Record<'listWallets' | 'createWallets', OperationHandler> {
  return {
    listWallets: () => ({ status: 200, body: { wallets: [...world.state.wallets.values()] } }),
    createWallets: (request) => {
      const body = bodyOf('createWallets', request.body);
      const chains = body.wallets.map((wallet) => wallet.chain_selector);
      const twice = chains.find((chain, index) => chains.indexOf(chain) !== index);
      if (twice !== undefined) throw conflict(`wallets: chain ${twice} is listed twice; a chain has at most one wallet`);
      checkChains(world, chains, 'wallets');
      const held = [...world.state.wallets.values()].find((wallet) => chains.includes(wallet.chain_selector) && wallet.status !== 'creation_failed');
      if (held !== undefined) throw conflict(`chain ${held.chain_selector} already has wallet ${held.id}`);
      const now = world.nowSeconds();
      const created = body.wallets.map((input): CoordinatorWallet => {
        const id = world.newId();
        return {
          id,
          org_id: world.state.organization.id,
          chain_selector: input.chain_selector,
          owner_address: input.owner_address,
          wallet_address: walletAddress(id, input.chain_selector),
          status: 'creation_pending',
          created_at: now,
          updated_at: now,
        };
      });
      for (const wallet of created) world.state.wallets.set(wallet.id, wallet);
      world.later(world.timings.onchainMs, () => {
        for (const wallet of created) {
          wallet.status = 'created';
          wallet.updated_at = world.nowSeconds();
        }
      });
      return { status: 200, body: { wallets: created } };
    },
  };
}

export const networks: ResourceKind<Network> = {
  noun: 'network',
  idParam: 'chain_selector',
  listKey: 'networks',
  items: (state) => state.networks,
  matches(network, query, world) {
    const chainId = queryText(query, 'chain_id');
    const family = queryText(query, 'chain_family');
    const showUnavailable = queryBool(query, 'show_unavailable');
    const usable = network.is_testnet !== false || world.state.organization.mainnet_allowed;
    return (usable || showUnavailable) && (chainId === undefined || network.chain_id === chainId) && (family === undefined || network.chain_family === family);
  },
};

export function platformHandlers(world: PolicyWorld): Record<'getHealthCheck' | 'getOrganization', OperationHandler> {
  return {
    getHealthCheck: () => ({ status: 200, body: { status: 'ok' } }),
    getOrganization: () => ({ status: 200, body: world.state.organization }),
  };
}
