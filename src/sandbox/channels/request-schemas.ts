/**
 * The channels request bodies, restated from the spec's schemas
 * (`CreateWallet`, `UpdateWallet`, `CreateChannel`, `PatchChannel`,
 * `CreateWatcher`, `UpdateWatcher`, `CreateOperation`, `PatchOperation`,
 * `CreateQuery`) for `schema-check.ts`. Keep them in step with
 * `openapi/channels/components/schemas/`.
 */
import { QUERY_KINDS, WALLET_TYPES } from './model.js';
import type { Rule } from './schema-check.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const CHAIN_SELECTOR = /^[0-9]{1,20}$/;
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const uuid: Rule = { kind: 'string', pattern: UUID, what: 'a UUID' };
const chainSelector: Rule = { kind: 'string', pattern: CHAIN_SELECTOR, what: 'a chain selector (a decimal string)' };
const evmAddress: Rule = { kind: 'string', pattern: EVM_ADDRESS, what: 'a 0x-prefixed 20-byte address' };
const name: Rule = { kind: 'string', min: 1, max: 255 };
/** A new name must hold a non-blank character (`pattern: .*\S.*`). */
const newName: Rule = { kind: 'string', min: 1, max: 255, pattern: /\S/, what: 'a non-blank string of 1 to 255 characters' };
const description: Rule = { kind: 'string', max: 255 };
const archived: Rule = { kind: 'string', values: ['archived'] };
const anyObject: Rule = { kind: 'any-object' };

const rsaPublicKey: Rule = {
  kind: 'object',
  required: ['e', 'n'],
  properties: {
    e: { kind: 'string', pattern: /^0x[a-fA-F0-9]{2,34}$/, what: 'a 0x-prefixed exponent of 1 to 17 bytes' },
    n: { kind: 'string', pattern: /^0x[a-fA-F0-9]{512,}$/, what: 'a 0x-prefixed modulus of at least 2048 bits' },
  },
};

export const CREATE_WALLET: Rule = {
  kind: 'object',
  closed: true,
  required: ['name', 'wallet_owner_address', 'chain_selector', 'wallet_type'],
  properties: {
    name,
    description,
    wallet_owner_address: evmAddress,
    chain_selector: chainSelector,
    wallet_type: { kind: 'string', values: WALLET_TYPES },
    configuration: anyObject,
    allowed_rsa_signers: { kind: 'array', items: rsaPublicKey, max: 10, unique: true },
    allowed_ecdsa_signers: { kind: 'array', items: evmAddress, max: 10, unique: true },
    status_channel_id: uuid,
  },
};

export const UPDATE_WALLET: Rule = {
  kind: 'object',
  closed: true,
  minProperties: 1,
  properties: { name: newName, description, status: archived },
};

export const CREATE_CHANNEL: Rule = { kind: 'object', closed: true, required: ['name'], properties: { name, description } };

export const PATCH_CHANNEL: Rule = UPDATE_WALLET;

const watcherBase = {
  name: { kind: 'string', min: 4 },
  chain_selector: chainSelector,
  address: { kind: 'string', min: 1 },
  events: { kind: 'array', min: 1, items: { kind: 'string' } },
} satisfies Record<string, Rule>;

const eventAbi: Rule = {
  kind: 'object',
  required: ['anonymous', 'inputs', 'name', 'type'],
  properties: {
    anonymous: { kind: 'boolean' },
    inputs: {
      kind: 'array',
      items: {
        kind: 'object',
        required: ['indexed', 'internalType', 'name', 'type'],
        properties: { indexed: { kind: 'boolean' }, internalType: { kind: 'string' }, name: { kind: 'string' }, type: { kind: 'string' } },
      },
    },
    name: { kind: 'string' },
    type: { kind: 'string', values: ['event'] },
  },
};

const watcherWithService: Rule = {
  kind: 'object',
  closed: true,
  required: ['name', 'chain_selector', 'address', 'service', 'events'],
  properties: { ...watcherBase, service: { kind: 'string', min: 1 }, service_config: anyObject },
};

const watcherWithAbi: Rule = {
  kind: 'object',
  closed: true,
  required: ['name', 'chain_selector', 'address', 'events', 'abi'],
  properties: { ...watcherBase, abi: { kind: 'array', min: 1, items: eventAbi } },
};

/** `oneOf` of two closed variants: `abi` picks one, `service` the other, both at once neither. */
export const CREATE_WATCHER: Rule = {
  kind: 'variant',
  choose: (body) => {
    if (body.abi !== undefined && body.service !== undefined) return 'give either `service` or `abi`, not both';
    return body.abi !== undefined ? watcherWithAbi : watcherWithService;
  },
};

export const UPDATE_WATCHER: Rule = { kind: 'object', closed: true, minProperties: 1, properties: { name: newName, status: archived } };

const transactionRequest: Rule = {
  kind: 'object',
  closed: true,
  required: ['to', 'value', 'data'],
  properties: {
    to: evmAddress,
    value: { kind: 'string', pattern: /^[0-9]+$/, what: 'a non-negative integer as a decimal string' },
    data: { kind: 'string', pattern: /^(0x)?([a-fA-F0-9]{2})*$/, what: 'even-length hex calldata' },
    preview: {
      kind: 'object',
      closed: true,
      required: ['function_signature'],
      properties: { function_signature: { kind: 'string' }, metadata: anyObject },
    },
  },
};

const signature: Rule = {
  kind: 'string',
  pattern: /^0x([0-9a-fA-F]{130}|[0-9a-fA-F]{512})$/,
  what: 'a 0x-prefixed signature of 65 or 256 bytes',
};

export const CREATE_OPERATION: Rule = {
  kind: 'object',
  closed: true,
  required: ['chain_selector', 'address', 'wallet_operation_id', 'deadline', 'transactions'],
  properties: {
    chain_selector: chainSelector,
    address: evmAddress,
    wallet_operation_id: { kind: 'string', pattern: /^[0-9]{1,78}$/, what: 'an unsigned integer as a decimal string' },
    deadline: { kind: 'integer', min: 0 },
    transactions: { kind: 'array', min: 1, max: 16, items: transactionRequest },
    signature,
  },
};

const finalizeOperation: Rule = {
  kind: 'object',
  closed: true,
  required: ['status', 'signature', 'digest'],
  properties: {
    status: { kind: 'string', values: ['accepted'] },
    signature,
    digest: { kind: 'string', pattern: /^0x[0-9a-fA-F]{64}$/, what: 'a 0x-prefixed bytes32' },
  },
};

const cancelOperation: Rule = { kind: 'object', closed: true, required: ['status'], properties: { status: { kind: 'string', values: ['cancelled'] } } };

/** Discriminated by `status`. */
export const PATCH_OPERATION: Rule = {
  kind: 'variant',
  choose: (body) => {
    if (body.status === 'accepted') return finalizeOperation;
    if (body.status === 'cancelled') return cancelOperation;
    return '`status` must be `accepted` (finalize) or `cancelled` (cancel)';
  },
};

const namedBlock: Rule = { kind: 'object', closed: true, required: ['type'], properties: { type: { kind: 'string' } } };
const numberedBlock: Rule = {
  kind: 'object',
  closed: true,
  required: ['type', 'block_number'],
  properties: { type: { kind: 'string' }, block_number: { kind: 'string', pattern: /^[0-9]+$/, what: 'a decimal block number' } },
};

/** Discriminated by `type`. */
const blockSelection: Rule = {
  kind: 'variant',
  choose: (body) => {
    if (body.type === 'latest' || body.type === 'finalized') return namedBlock;
    if (body.type === 'block_number') return numberedBlock;
    return '`type` must be `latest`, `finalized` or `block_number`';
  },
};

export const CREATE_QUERY: Rule = {
  kind: 'object',
  closed: true,
  required: ['idempotency_key', 'query_kind', 'chain_selector', 'params'],
  properties: {
    idempotency_key: { kind: 'string', min: 1, max: 255 },
    query_kind: { kind: 'string', values: QUERY_KINDS },
    chain_selector: chainSelector,
    params: {
      kind: 'object',
      closed: true,
      required: ['contract_address', 'call_data', 'block_selection'],
      properties: {
        contract_address: evmAddress,
        call_data: { kind: 'string', pattern: /^0x([0-9a-fA-F]{2})*$/, what: '0x-prefixed even-length hex' },
        block_selection: blockSelection,
        from_address: evmAddress,
      },
    },
    metadata: anyObject,
  },
};
