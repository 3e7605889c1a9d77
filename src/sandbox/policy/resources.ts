/**
 * The coordinator's generic resource handlers: one list, get, create,
 * replace and archive serving every resource of the resource table. What
 * differs between resources (their body, what a change does, what blocks an
 * archive, their list filters) is in each resource's `ResourceKind`; what is
 * the same (404s, paging, `include_onchains`, the archive body and its
 * "already archived" refusal, timestamps) is written once here.
 */
import type { OperationHandler, SandboxRequest } from '../types.js';
import { coordinatorPage } from './paging.js';
import { queryBool, type QueryValues } from './query.js';
import { badRequest, notFound } from './refusals.js';
import type { PolicyState, PolicyWorld } from './state.js';

export interface Stored {
  id: string;
  archived_at?: number | null;
  /** Unix seconds on most resources; offchain ones keep RFC 3339 strings, which are left alone. */
  updated_at?: unknown;
}

export interface ResourceKind<T extends Stored> {
  /** For messages: `policy engine`. */
  noun: string;
  /** The path parameter naming one item. */
  idParam: string;
  /** The items array of the list answer. */
  listKey: string;
  items(state: PolicyState): Map<string, T>;
  /** For a sub-resource: the path parameter of its parent, and whether an item belongs to that parent. */
  parent?: { param: string; owns(item: T, parentId: string): boolean };
  /** Fields left out of list items with `include_onchains=false`. */
  onchainFields?: readonly string[];
  /** The list's filters: whether `item` passes them (a malformed filter throws `400`). */
  matches?(item: T, query: QueryValues, world: PolicyWorld): boolean;
  /** Checks the list's query before filtering (e.g. a registry filter the organisation may not see). */
  checkQuery?(query: QueryValues, world: PolicyWorld): void;
  /** An item as a list or a get answers it (e.g. with fields that depend on the query). */
  view?(item: T, query: QueryValues, world: PolicyWorld): unknown;
  /** Builds a new item from a create body (checking it and its references), and starts its onchain work. */
  create?(body: unknown, world: PolicyWorld): T;
  /** Applies a replace body to `item`. */
  replace?(item: T, body: unknown, world: PolicyWorld): void;
  /** Why `item` may not be changed or archived at all (e.g. the `system` engine); `undefined` when it may. */
  frozen?(item: T, world: PolicyWorld): string | undefined;
  /**
   * Checks and starts an archive. Returns `'deferred'` when the item is
   * archived later (once its onchain removal is done), else it is archived now.
   */
  archive?(item: T, world: PolicyWorld): 'deferred' | void;
}

/** The item named by the request's path, or the resource's `404`. */
export function findItem<T extends Stored>(kind: ResourceKind<T>, request: SandboxRequest, world: PolicyWorld): T {
  const id = request.pathParams[kind.idParam] ?? '';
  const item = kind.items(world.state).get(id.toLowerCase());
  const parentId = kind.parent === undefined ? undefined : (request.pathParams[kind.parent.param] ?? '').toLowerCase();
  if (item === undefined || (parentId !== undefined && !kind.parent!.owns(item, parentId))) {
    throw notFound(`no ${kind.noun} ${id}${parentId === undefined ? ' in this organisation' : ` under ${parentId}`}`);
  }
  return item;
}

export function isArchived(item: object): boolean {
  const archivedAt = (item as { archived_at?: unknown }).archived_at;
  return archivedAt !== undefined && archivedAt !== null;
}

export function touch(item: Stored, world: PolicyWorld): void {
  if (typeof item.updated_at === 'number') item.updated_at = world.nowSeconds();
}

function withoutFields(item: unknown, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || fields.length === 0) return item;
  const copy = { ...(item as Record<string, unknown>) };
  for (const field of fields) delete copy[field];
  return copy;
}

export function listHandler<T extends Stored>(kind: ResourceKind<T>, world: PolicyWorld): OperationHandler {
  return (request) => {
    const query = request.queryParams;
    // Only lists with per-chain fields take `include_onchains`; elsewhere it is an unknown parameter, ignored.
    const includeOnchains = kind.onchainFields === undefined || queryBool(query, 'include_onchains');
    kind.checkQuery?.(query, world);
    const parentId = kind.parent === undefined ? undefined : (request.pathParams[kind.parent.param] ?? '').toLowerCase();
    const all = [...kind.items(world.state).values()].filter(
      (item) => (parentId === undefined || kind.parent!.owns(item, parentId)) && (kind.matches?.(item, query, world) ?? true),
    );
    const page = coordinatorPage(all, query);
    const items = page.items.map((item) => {
      const shown = kind.view?.(item, query, world) ?? item;
      return includeOnchains ? shown : withoutFields(shown, kind.onchainFields);
    });
    return { status: 200, body: { [kind.listKey]: items, total: page.total, total_pages: page.total_pages, page: page.page } };
  };
}

export function getHandler<T extends Stored>(kind: ResourceKind<T>, world: PolicyWorld): OperationHandler {
  return (request) => {
    const item = findItem(kind, request, world);
    return { status: 200, body: kind.view?.(item, request.queryParams, world) ?? item };
  };
}

export function createHandler<T extends Stored>(kind: ResourceKind<T>, world: PolicyWorld): OperationHandler {
  return (request) => {
    const item = kind.create!(request.body, world);
    kind.items(world.state).set(item.id, item);
    return { status: 200, body: kind.view?.(item, request.queryParams, world) ?? item };
  };
}

/** Refuses a change to an item that is archived or that the platform keeps to itself. */
export function assertChangeable<T extends Stored>(kind: ResourceKind<T>, item: T, world: PolicyWorld): void {
  const reason = kind.frozen?.(item, world);
  if (reason !== undefined) throw badRequest(reason);
  if (isArchived(item)) throw badRequest(`${kind.noun} ${item.id} is archived and cannot be changed`);
}

export function replaceHandler<T extends Stored>(kind: ResourceKind<T>, world: PolicyWorld): OperationHandler {
  return (request) => {
    const item = findItem(kind, request, world);
    if (request.body === undefined) throw badRequest('a JSON request body is required');
    assertChangeable(kind, item, world);
    kind.replace!(item, request.body, world);
    touch(item, world);
    return { status: 200, body: kind.view?.(item, request.queryParams, world) ?? item };
  };
}

/** Archives `item` as the archive `PATCH` does (the body already checked). */
export function archiveItem<T extends Stored>(kind: ResourceKind<T>, item: T, world: PolicyWorld): void {
  const reason = kind.frozen?.(item, world);
  if (reason !== undefined) throw badRequest(reason);
  if (isArchived(item)) throw badRequest(`${kind.noun} ${item.id} is already archived`);
  if (kind.archive?.(item, world) !== 'deferred') item.archived_at = world.nowSeconds();
  touch(item, world);
}

export function archiveHandler<T extends Stored>(kind: ResourceKind<T>, world: PolicyWorld): OperationHandler {
  return (request) => {
    const item = findItem(kind, request, world);
    archiveItem(kind, item, world);
    return { status: 202, body: kind.view?.(item, request.queryParams, world) ?? item };
  };
}

/** The five generic handlers of a resource, under its operationIds. */
export function resourceHandlers<T extends Stored>(
  kind: ResourceKind<T>,
  world: PolicyWorld,
  operations: Partial<Record<'list' | 'get' | 'create' | 'replace' | 'archive', string>>,
): Record<string, OperationHandler> {
  const make = { list: listHandler, get: getHandler, create: createHandler, replace: replaceHandler, archive: archiveHandler };
  return Object.fromEntries(
    Object.entries(operations).map(([verb, operationId]) => [operationId, make[verb as keyof typeof make](kind, world)]),
  );
}
