/**
 * What `inject({ route })` may name: an operationId or `METHOD
 * /path/template` of one of the sandbox's APIs (the router's tables, which
 * come from the specs). A route that names nothing would never fire, so a
 * user's retry test would pass without a fault; it is refused instead, with
 * the nearest known route when one is near.
 */
import { allRoutes } from './router.js';

const ROUTES = allRoutes();
/** Operation IDs repeat across APIs (`listWallets`); a route names each one that has it. */
const NAMES: readonly string[] = [...new Set(ROUTES.flatMap((route) => [route.operationId, `${route.method} ${route.template}`]))];

/** Why `route` names no operation, with a suggestion; `undefined` when it names one. */
export function unknownRouteProblem(route: string): string | undefined {
  if (NAMES.includes(route)) return undefined;
  const nearest = templateOf(route) ?? nearestName(route);
  const hint = nearest === undefined ? '' : `; did you mean '${nearest}'?`;
  return `route '${route.slice(0, 200)}' names no operation of the sandbox's APIs (give an operationId, e.g. 'getWallet', or 'METHOD /path/template', e.g. 'GET /wallets/{wallet_id}')${hint}`;
}

/** A concrete path (`GET /wallets/2c8e…`) stands for the template it matches, with the method it was given if that exists there. */
function templateOf(route: string): string | undefined {
  const parts = /^([A-Za-z]+)\s+(\/\S*)$/.exec(route.trim());
  if (parts === null) return undefined;
  const method = parts[1]!.toUpperCase();
  const path = parts[2]!.replace(/[?#].*$/, '');
  const matching = ROUTES.filter((candidate) => candidate.pattern.test(path));
  const found = matching.find((candidate) => candidate.method === method) ?? matching[0];
  return found === undefined ? undefined : `${found.method} ${found.template}`;
}

/** The known name closest in spelling (case aside), if within a third of the route's length: a typo, not another word. */
function nearestName(route: string): string | undefined {
  const wanted = route.toLowerCase();
  let nearest: string | undefined;
  let best = Math.max(2, Math.floor(route.length / 3)) + 1;
  for (const name of NAMES) {
    const distance = editDistance(wanted, name.toLowerCase(), best);
    if (distance < best) {
      best = distance;
      nearest = name;
    }
  }
  return nearest;
}

/** Levenshtein distance of `a` and `b`; stops early at `limit` (anything >= limit is as good as too far). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      rowBest = Math.min(rowBest, current[j]!);
    }
    if (rowBest >= limit) return limit;
    previous = current;
  }
  return previous[b.length]!;
}
