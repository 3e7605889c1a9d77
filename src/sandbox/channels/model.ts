/**
 * The channels API's resources as the spec types them (generated from the
 * bundle), so every record the sandbox stores and answers is checked against
 * the spec at compile time as well as by the answer validator at run time.
 */
import type { components } from '../../../generated/types/channels.js';

type Schemas = components['schemas'];

export type Network = Schemas['Network'];
export type Wallet = Schemas['Wallet'];
export type WalletStatus = Schemas['WalletStatus'];
export type Channel = Schemas['Channel'];
export type Watcher = Schemas['Watcher'];
export type WatcherStatus = Schemas['WatcherStatus'];
export type Operation = Schemas['Operation'];
export type OperationStatus = Schemas['OperationStatus'];
export type Transaction = Schemas['Transaction'];
export type Subject = Schemas['Subject'];
export type Query = Schemas['Query'];
export type QueryStatus = Schemas['QueryStatus'];
export type ChannelEvent = Schemas['Event'];
export type EventType = Schemas['EventType'];
export type OcrProof = Schemas['OcrProof'];
export type ErrorCode = Schemas['ApplicationErrorCode'];

export type CreateWallet = Schemas['CreateWallet'];
export type UpdateWallet = Schemas['UpdateWallet'];
export type CreateChannel = Schemas['CreateChannel'];
export type PatchChannel = Schemas['PatchChannel'];
export type CreateWatcher = Schemas['CreateWatcher'];
export type UpdateWatcher = Schemas['UpdateWatcher'];
export type CreateOperation = Schemas['CreateOperation'];
export type PatchOperation = Schemas['PatchOperation'];
export type CreateQuery = Schemas['CreateQuery'];

export const EVENT_TYPES: readonly EventType[] = ['operation.status', 'query.status', 'watcher.status', 'watcher.event', 'wallet.status'];
export const WALLET_STATUSES: readonly WalletStatus[] = ['pending', 'deploying', 'deployed', 'archived', 'failed'];
export const WATCHER_STATUSES: readonly WatcherStatus[] = ['pending', 'active', 'failed', 'archiving', 'archived', 'archive_failed'];
export const QUERY_STATUSES: readonly QueryStatus[] = ['accepted', 'sending', 'sent', 'completed', 'failed', 'expired'];
export const OPERATION_STATUSES: readonly OperationStatus[] = [
  'accepted',
  'pending_signature',
  'sending',
  'sent',
  'broadcasting',
  'confirmed_latest',
  'confirmed_safe',
  'confirmed',
  'cancelled',
  'expired',
  'failed',
];
export const WALLET_TYPES: readonly Schemas['WalletType'][] = ['ecdsa', 'rsa', 'protected_ecdsa', 'protected_rsa'];
export const SUBJECT_TYPES: readonly Schemas['SubjectType'][] = ['api_key', 'user'];
export const CHAIN_ENVIRONMENTS: readonly Schemas['ChainEnvironment'][] = ['mainnet', 'testnet'];
export const QUERY_KINDS: readonly Schemas['QueryKind'][] = ['evm_call'];

/** Sandbox milliseconds to the spec's Unix seconds. */
export function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}
