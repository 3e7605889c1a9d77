/**
 * What `inject({ route })` may name, and `sandbox.routes()`: every operation
 * of the sandbox's APIs (the router's tables, which come from the specs), by
 * its operationId, its `METHOD /path/template`, or the name of the SDK helper
 * that calls it (`finalizeOperation` is the spec's `finalizeOrCancelOperation`).
 * A route that names nothing would never fire, so a user's retry test would
 * pass without a fault; it is refused instead, with the closest names.
 */
import { editDistance } from '../core/edit-distance.js';
import { allRoutes } from './router.js';
import type { SandboxApi } from './types.js';

/** One operation the sandbox serves, with every name `inject({ route })` takes for it. */
export interface SandboxRoute {
  api: SandboxApi;
  operationId: string;
  method: string;
  /** The path template below the API's base URL, e.g. `/wallets/{wallet_id}`. */
  path: string;
  /** The operationId, `METHOD /path`, and the SDK helpers that call this operation. */
  names: readonly string[];
}

/**
 * The SDK helpers whose name is not their operation's operationId, and the
 * one operation each calls (a wait reads its resource; a paginator, calling
 * many list operations, names none). A unit test checks that each is
 * exported by its entry point and each operation exists.
 */
export const HELPER_OPERATIONS: Readonly<Record<string, { api: SandboxApi; operationId: string }>> = {
  finalizeOperation: { api: 'channels', operationId: 'finalizeOrCancelOperation' },
  cancelOperation: { api: 'channels', operationId: 'finalizeOrCancelOperation' },
  waitForOperation: { api: 'channels', operationId: 'getOperation' },
  waitForQuery: { api: 'channels', operationId: 'getQuery' },
  archiveWatcher: { api: 'channels', operationId: 'updateWatcher' },
  waitForWatcherArchive: { api: 'channels', operationId: 'getWatcher' },
  waitForEvent: { api: 'channels', operationId: 'listChannelEvents' },
  waitForOperationEvent: { api: 'channels', operationId: 'listChannelEvents' },
  waitForQueryEvent: { api: 'channels', operationId: 'listChannelEvents' },
  waitForWatcherArchiveEvent: { api: 'channels', operationId: 'listChannelEvents' },
  paginateReports: { api: 'streams', operationId: 'getReportsPage' },
  getEvaluation: { api: 'policy-evaluation', operationId: 'getEvaluationByPermitId' },
  waitForEvaluation: { api: 'policy-evaluation', operationId: 'getEvaluationByPermitId' },
};

/** Helpers that call more than one operation: a fault must name the one it means. */
const MULTI_OPERATION_HELPERS: Readonly<Record<string, readonly string[]>> = {
  executeWithDraft: ['createOperation', 'finalizeOrCancelOperation (or its helper finalizeOperation)'],
};

const ROUTES: readonly SandboxRoute[] = allRoutes().map((route) => ({
  api: route.api,
  operationId: route.operationId,
  method: route.method,
  path: route.template,
  names: [
    route.operationId,
    `${route.method} ${route.template}`,
    ...Object.entries(HELPER_OPERATIONS)
      .filter(([, target]) => target.api === route.api && target.operationId === route.operationId)
      .map(([helper]) => helper),
  ],
}));
const PATTERNS = allRoutes();

/** Every operation the sandbox serves, with its names, API by API. */
export function sandboxRoutes(): SandboxRoute[] {
  return ROUTES.map((route) => ({ ...route, names: [...route.names] }));
}

/** `api operationId` of each operation a route name stands for (operationIds repeat across APIs: `listWallets`). */
export function operationsNamed(route: string): Set<string> {
  return new Set(ROUTES.filter((candidate) => candidate.names.includes(route)).map((candidate) => operationKey(candidate.api, candidate.operationId)));
}

export function operationKey(api: SandboxApi, operationId: string): string {
  return `${api} ${operationId}`;
}

const NAMES: readonly string[] = [...new Set(ROUTES.flatMap((route) => route.names))];
const ROUTES_POINTER = 'sandbox.routes() lists every operation with the names inject() takes';

/** Why `route` names no operation, with the closest names; `undefined` when it names one. */
export function unknownRouteProblem(route: string): string | undefined {
  if (NAMES.includes(route)) return undefined;
  const shown = `route '${route.slice(0, 200)}'`;
  const several = MULTI_OPERATION_HELPERS[route];
  if (several !== undefined) return `${shown} is an SDK helper that calls several operations: name the one to fault, ${several.join(' or ')}`;
  const template = templateOf(route);
  const nearest = template === undefined ? nearestNames(route) : [template];
  const hint = nearest.length === 0 ? '' : `; did you mean ${nearest.map((name) => `'${name}'`).join(', ')}?`;
  return (
    `${shown} names no operation of the sandbox's APIs (give an operationId, e.g. 'getWallet', an SDK helper's name, e.g. 'finalizeOperation', ` +
    `or 'METHOD /path/template', e.g. 'GET /wallets/{wallet_id}')${hint} ${ROUTES_POINTER}`
  );
}

/** A concrete path (`GET /wallets/2c8e…`) stands for the template it matches, with the method it was given if that exists there. */
function templateOf(route: string): string | undefined {
  const parts = /^([A-Za-z]+)\s+(\/\S*)$/.exec(route.trim());
  if (parts === null) return undefined;
  const method = parts[1]!.toUpperCase();
  const path = parts[2]!.replace(/[?#].*$/, '');
  const matching = PATTERNS.filter((candidate) => candidate.pattern.test(path));
  const found = matching.find((candidate) => candidate.method === method) ?? matching[0];
  return found === undefined ? undefined : `${found.method} ${found.template}`;
}

/** How many names a suggestion offers at most. */
const SUGGESTIONS = 3;

/**
 * The known names closest to `route` (case aside): typos within a third of
 * its length, and names that contain it or that it contains (`finalize`,
 * `getOperations`), nearest first. Names far from it are no help.
 */
function nearestNames(route: string): string[] {
  const wanted = route.toLowerCase();
  const limit = Math.max(2, Math.floor(route.length / 3)) + 1;
  const scored: { name: string; score: number }[] = [];
  for (const name of NAMES) {
    const lower = name.toLowerCase();
    const distance = editDistance(wanted, lower, limit);
    const contains = wanted.length >= 4 && (lower.includes(wanted) || wanted.includes(lower));
    if (distance < limit) scored.push({ name, score: distance });
    else if (contains) scored.push({ name, score: limit + Math.abs(lower.length - wanted.length) });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, SUGGESTIONS)
    .map(({ name }) => name);
}
