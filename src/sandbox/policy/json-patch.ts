/**
 * RFC 6902 JSON Patch over a configuration document, as the coordinator's
 * configuration `PATCH`es apply it. The document is copied first; a failing
 * operation (a missing path, a failed `test`) refuses the whole patch with
 * `400` and leaves the configuration as it was.
 */
import type { JsonPatchOperation } from './model.js';
import { badRequest } from './refusals.js';

type Json = unknown;
type Container = Record<string, Json> | Json[];

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw badRequest(`JSON Pointer ${JSON.stringify(pointer)} must start with "/"`);
  return pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

const isContainer = (value: Json): value is Container => value !== null && typeof value === 'object';

/** The parent container of `pointer` and the last token, or a `400` when the parent does not exist. */
function locate(document: Json, pointer: string): { parent: Container; key: string } {
  const path = tokens(pointer);
  if (path.length === 0) throw badRequest('a patch cannot act on the whole document');
  let node = document;
  for (const token of path.slice(0, -1)) {
    const next = isContainer(node) ? (node as Record<string, Json>)[token] : undefined;
    if (!isContainer(next)) throw badRequest(`path ${pointer} does not exist in the configuration`);
    node = next;
  }
  if (!isContainer(node)) throw badRequest(`path ${pointer} does not exist in the configuration`);
  return { parent: node, key: path[path.length - 1]! };
}

function arrayIndex(parent: Json[], key: string, forInsert: boolean, pointer: string): number {
  if (forInsert && key === '-') return parent.length;
  const index = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : -1;
  if (index < 0 || index > parent.length - (forInsert ? 0 : 1)) throw badRequest(`path ${pointer}: no such array index`);
  return index;
}

function read(document: Json, pointer: string): Json {
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, false, pointer)];
  if (!(key in parent)) throw badRequest(`path ${pointer} does not exist in the configuration`);
  return parent[key];
}

function remove(document: Json, pointer: string): Json {
  const value = read(document, pointer);
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false, pointer), 1);
  else delete parent[key];
  return value;
}

function add(document: Json, pointer: string, value: Json): void {
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, pointer), 0, value);
  else parent[key] = value;
}

/** The patched copy of `document`. */
export function applyJsonPatch(document: Record<string, unknown>, operations: readonly JsonPatchOperation[]): Record<string, unknown> {
  const result = structuredClone(document);
  for (const [index, operation] of operations.entries()) {
    const needsValue = operation.op === 'add' || operation.op === 'replace' || operation.op === 'test';
    if (needsValue && !('value' in operation)) throw badRequest(`patches[${index}]: ${operation.op} needs a value`);
    if ((operation.op === 'move' || operation.op === 'copy') && operation.from === undefined) throw badRequest(`patches[${index}]: ${operation.op} needs from`);
    switch (operation.op) {
      case 'add':
        add(result, operation.path, structuredClone(operation.value));
        break;
      case 'remove':
        remove(result, operation.path);
        break;
      case 'replace':
        remove(result, operation.path);
        add(result, operation.path, structuredClone(operation.value));
        break;
      case 'move':
        add(result, operation.path, remove(result, operation.from!));
        break;
      case 'copy':
        add(result, operation.path, structuredClone(read(result, operation.from!)));
        break;
      case 'test':
        if (JSON.stringify(read(result, operation.path)) !== JSON.stringify(operation.value)) {
          throw badRequest(`patches[${index}]: test failed at ${operation.path}`);
        }
        break;
    }
  }
  return result;
}
