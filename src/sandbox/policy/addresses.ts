/**
 * Where the platform's contracts live, chain by chain. Derived from the
 * resource and the chain, so an address is known before its deployment is
 * done (the coordinator shows `""` until then) and the reporting API names
 * the same contract.
 */
import { addressOf } from './hex.js';

export const engineAddress = (engineId: string, chain: string) => addressOf('policy-engine', engineId, chain);
export const policyAddress = (policyId: string, chain: string) => addressOf('policy', policyId, chain);
export const validatorAddress = (policyId: string, chain: string) => addressOf('action-validator', policyId, chain);
export const identityRegistryAddress = (registryId: string, chain: string) => addressOf('identity-registry', registryId, chain);
export const credentialRegistryAddress = (registryId: string, chain: string) => addressOf('credential-registry', registryId, chain);
export const dataValidatorAddress = (validatorId: string, chain: string) => addressOf('data-validator', validatorId, chain);
export const walletAddress = (walletId: string, chain: string) => addressOf('wallet', walletId, chain);
export const implementationAddress = (name: string, chain: string) => addressOf('policy-implementation', name, chain);
/** The account that owns the organisation's policy contracts on a chain. */
export const ownerAddress = (orgId: string, chain: string) => addressOf('owner', orgId, chain);
