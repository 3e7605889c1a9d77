/**
 * Policy engines, extractors and contract types: the resource kinds the
 * generic handlers serve, with what the spec says each does. An engine is
 * deployed on each of its chains (`creation_pending` → `created`); the
 * `system` engine, which the platform keeps to protect registries, cannot be
 * changed or archived; built-in contract types belong to the platform.
 */
import { engineAddress } from './addresses.js';
import { checkChains } from './chains-check.js';
import type { ContractType, ContractTypeFunction, Extractor, PolicyEngine } from './model.js';
import { policyIsArchived } from './policy-common.js';
import { queryText } from './query.js';
import { badRequest, conflict } from './refusals.js';
import { bodyOf, type CoordinatorBody } from './request-body.js';
import { isArchived, type ResourceKind } from './resources.js';
import type { PolicyWorld } from './state.js';

type EngineBody = CoordinatorBody<'createPolicyEngine'> | CoordinatorBody<'replacePolicyEngine'>;

/** Deploys every `creation_pending` deployment of the engine after the onchain delay. */
function deployEngine(world: PolicyWorld, engine: PolicyEngine): void {
  world.later(world.timings.onchainMs, () => {
    for (const deployment of engine.onchain_policy_engines ?? []) {
      if (deployment.status !== 'creation_pending') continue;
      deployment.status = 'created';
      deployment.address = engineAddress(engine.id, deployment.chain_selector);
    }
  });
}

/** Applies a create or replace body: chains, registered extractors, contract types. */
function applyEngineBody(world: PolicyWorld, engine: PolicyEngine, body: EngineBody): void {
  const { state } = world;
  const now = world.nowSeconds();
  const chains = body.onchain_policy_engines.map((entry) => entry.chain_selector);
  checkChains(world, chains, 'onchain_policy_engines');
  const extractors = (body.extractor_ids ?? []).map((id) => {
    const extractor = state.extractors.get(id);
    if (extractor === undefined || isArchived(extractor)) throw badRequest(`extractor_ids: no active extractor ${id}`);
    return extractor;
  });
  const contractTypes = (body.contract_type_ids ?? []).map((id) => {
    const contractType = state.contractTypes.get(id);
    if (contractType === undefined || isArchived(contractType)) throw badRequest(`contract_type_ids: no active contract type ${id}`);
    return { id: contractType.id, name: contractType.name };
  });
  const existing = engine.onchain_policy_engines ?? [];
  engine.name = body.name;
  if (body.description !== undefined) engine.description = body.description;
  engine.chain_selectors = chains;
  engine.onchain_policy_engines = chains.map(
    (chain) => existing.find((deployment) => deployment.chain_selector === chain) ?? { id: world.newId(), address: '', chain_selector: chain, status: 'creation_pending' },
  );
  engine.extractor_registrations = extractors.map((extractor) => {
    const previous = engine.extractor_registrations?.find((registration) => registration.extractor_id === extractor.id);
    return {
      id: previous?.id ?? world.newId(),
      extractor_id: extractor.id,
      policy_engine_id: engine.id,
      onchain_extractor_registrations: (extractor.onchain_extractors ?? [])
        .filter((onchain) => chains.includes(onchain.chain_selector))
        .map((onchain) => ({ id: world.newId(), chain_selector: onchain.chain_selector, status: 'active' as const, created_at: now, updated_at: now })),
      created_at: previous?.created_at ?? now,
      updated_at: now,
    };
  });
  engine.contract_types = contractTypes;
}

export const policyEngines: ResourceKind<PolicyEngine> = {
  noun: 'policy engine',
  idParam: 'policy_engine_id',
  listKey: 'policy_engines',
  items: (state) => state.engines,
  onchainFields: ['onchain_policy_engines'],
  create(raw, world) {
    const body = bodyOf('createPolicyEngine', raw);
    const taken = [...world.state.engines.values()].some((engine) => !isArchived(engine) && engine.name === body.name);
    if (taken) throw conflict(`a policy engine named ${JSON.stringify(body.name)} already exists`);
    const now = world.nowSeconds();
    const engine: PolicyEngine = { id: world.newId(), name: body.name, type: 'standard', chain_selectors: [], archived_at: null, created_at: now, updated_at: now };
    applyEngineBody(world, engine, body);
    deployEngine(world, engine);
    return engine;
  },
  replace(engine, raw, world) {
    applyEngineBody(world, engine, bodyOf('replacePolicyEngine', raw));
    deployEngine(world, engine);
  },
  frozen: (engine) => (engine.type === 'system' ? 'the system policy engine is managed by the platform and cannot be changed' : undefined),
  archive(engine, world) {
    const live = [...world.state.policies.values()].find((policy) => policy.policy_engine_id === engine.id && !policyIsArchived(policy));
    if (live !== undefined) throw badRequest(`policy engine ${engine.id} still has a policy that is not archived (${live.id})`);
  },
};

function applyExtractorBody(world: PolicyWorld, extractor: Extractor, body: CoordinatorBody<'createExtractor'> | CoordinatorBody<'replaceExtractor'>): void {
  const now = world.nowSeconds();
  const onchain = body.onchain_extractors ?? [];
  checkChains(world, onchain.map((entry) => entry.chain_selector), 'onchain_extractors');
  extractor.name = body.name;
  extractor.supported_function_signatures = body.supported_function_signatures;
  extractor.outputs = body.outputs.map((output) => {
    const previous = extractor.outputs.find((candidate) => candidate.name === output.name);
    return { id: previous?.id ?? world.newId(), extractor_id: extractor.id, name: output.name, type: output.type, created_at: previous?.created_at ?? now, updated_at: now };
  });
  extractor.onchain_extractors = onchain.map((entry) => ({ id: world.newId(), extractor_id: extractor.id, ...entry, created_at: now, updated_at: now }));
  extractor.chain_selectors = onchain.map((entry) => entry.chain_selector);
}

export const extractors: ResourceKind<Extractor> = {
  noun: 'extractor',
  idParam: 'extractor_id',
  listKey: 'extractors',
  items: (state) => state.extractors,
  onchainFields: ['onchain_extractors'],
  matches(extractor, query, world) {
    const engineId = queryText(query, 'policy_engine_id');
    const signature = queryText(query, 'function_signature');
    const engine = engineId === undefined ? undefined : world.state.engines.get(engineId);
    if (engineId !== undefined && !engine?.extractor_registrations?.some((registration) => registration.extractor_id === extractor.id)) return false;
    return signature === undefined || extractor.supported_function_signatures.includes(signature);
  },
  view(extractor, _query, world) {
    const assigned = [...world.state.contractTypes.values()]
      .filter((contractType) => world.state.contractTypeExtractors.get(contractType.id)?.includes(extractor.id))
      .map((contractType) => ({ id: contractType.id, name: contractType.name }));
    return { ...extractor, assigned_contract_types: assigned };
  },
  create(raw, world) {
    const now = world.nowSeconds();
    const extractor: Extractor = {
      id: world.newId(),
      name: '',
      org_id: world.state.organization.id,
      supported_function_signatures: [],
      outputs: [],
      chain_selectors: [],
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    applyExtractorBody(world, extractor, bodyOf('createExtractor', raw));
    return extractor;
  },
  replace: (extractor, raw, world) => applyExtractorBody(world, extractor, bodyOf('replaceExtractor', raw)),
};

type FunctionAbi = CoordinatorBody<'createContractType'>['contract_type_functions']['function_abis'][number];
type AbiParameter = FunctionAbi['inputs'][number];

/** The canonical ABI type of a parameter: tuples spelled out as `(type,type)`, array suffixes kept. */
function canonicalType(parameter: AbiParameter): string {
  if (!parameter.type.startsWith('tuple')) return parameter.type;
  return `(${(parameter.components ?? []).map(canonicalType).join(',')})${parameter.type.slice('tuple'.length)}`;
}

export function contractTypeFunction(world: PolicyWorld, abi: FunctionAbi): ContractTypeFunction {
  const now = world.nowSeconds();
  return {
    id: world.newId(),
    function_signature: `${abi.name}(${abi.inputs.map(canonicalType).join(',')})`,
    type: abi.state_mutability === 'view' || abi.state_mutability === 'pure' ? 'view' : 'write',
    function_abi: abi,
    created_at: now,
    updated_at: now,
  };
}

export const contractTypes: ResourceKind<ContractType> = {
  noun: 'contract type',
  idParam: 'contract_type_id',
  listKey: 'contract_types',
  items: (state) => state.contractTypes,
  matches(contractType, query, world) {
    const engineId = queryText(query, 'policy_engine_id');
    if (engineId === undefined) return true;
    return world.state.engines.get(engineId)?.contract_types?.some((summary) => summary.id === contractType.id) ?? false;
  },
  view(contractType, _query, world) {
    const ids = world.state.contractTypeExtractors.get(contractType.id) ?? [];
    return { ...contractType, extractors: ids.flatMap((id) => world.state.extractors.get(id) ?? []) };
  },
  create(raw, world) {
    const body = bodyOf('createContractType', raw);
    const extractorIds = body.extractor_ids ?? [];
    for (const id of extractorIds) {
      if (!world.state.extractors.has(id)) throw badRequest(`extractor_ids: no extractor ${id}`);
    }
    const now = world.nowSeconds();
    const contractType: ContractType = {
      id: world.newId(),
      name: body.name,
      description: body.description ?? null,
      org_id: world.state.organization.id,
      contract_type_functions: body.contract_type_functions.function_abis.map((abi) => contractTypeFunction(world, abi)),
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    world.state.contractTypeExtractors.set(contractType.id, extractorIds);
    return contractType;
  },
  frozen: (contractType) => (contractType.org_id === undefined ? 'built-in contract types belong to the platform and cannot be archived' : undefined),
};
