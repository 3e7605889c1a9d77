/**
 * The shape of the generated command-line tables (`npm run generate` writes
 * them from the bundled specs), and its lazy loading: one API's table at a time.
 */
import type { CliApi } from './apis.js';

export interface ParamSchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array';
  format?: string;
  enum?: readonly (string | number)[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  items?: ParamSchema;
}

export interface CliParam {
  /** The spec's name (`wallet_id`, `feedID`). */
  name: string;
  /** The flag, kebab case (`wallet-id`, `feed-id`). */
  flag: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** `false` when an array travels as one comma-separated value. */
  explode?: boolean;
  schema: ParamSchema;
  description?: string;
  example?: unknown;
}

export interface CliOperation {
  /** The operationId (`listWallets`). */
  id: string;
  /** The command name, kebab case (`list-wallets`). */
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD';
  path: string;
  summary?: string;
  params: CliParam[];
  /** The item fields of a list answer, in the spec's order. */
  listFields?: string[];
  body?: { required: boolean; fields?: BodyField[]; example?: unknown };
}

/** A top-level field of a request body, for help. */
export interface BodyField {
  name: string;
  /** `string`, `array of object`, `string|null`… */
  type: string;
  required: boolean;
  enum?: readonly unknown[];
  description?: string;
}

export interface CliTable {
  api: string;
  version: string;
  title: string;
  operations: CliOperation[];
}

const loaders: Record<CliApi['spec'], () => Promise<{ table: unknown }>> = {
  channels: () => import('../../generated/cli/channels.js'),
  streams: () => import('../../generated/cli/streams.js'),
  'policy-coordinator': () => import('../../generated/cli/policy-coordinator.js'),
  'policy-evaluation': () => import('../../generated/cli/policy-evaluation.js'),
  'policy-reporting': () => import('../../generated/cli/policy-reporting.js'),
};

export async function loadTable(api: CliApi): Promise<CliTable> {
  return (await loaders[api.spec]()).table as CliTable;
}

/** An operation by its kebab-case name or its operationId. */
export function findOperation(table: CliTable, name: string): CliOperation | undefined {
  return table.operations.find((operation) => operation.name === name || operation.id === name);
}
