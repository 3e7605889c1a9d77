/**
 * `service-sdk <api> request <METHOD> <path> [--data …]`: a raw request by
 * path, as `gh api /path` takes one, through the same typed client (signed,
 * retried, its errors typed and exit codes as for any operation). The path
 * must be one the API documents, and the request is checked as its
 * operation's command checks it (src/cli/spec-check.ts: path and query
 * parameters, -H headers, the body), before anything is sent: an unknown
 * path is refused with the nearest documented one. `--no-check` is the
 * escape hatch `gh api` users expect: the request goes out as given, and the
 * service's own answer says what it thinks of it.
 */
import type { CliApi } from './apis.js';
import { isSet, lastValue, nearest, parseArgs, type FlagSpec } from './argv.js';
import { readBody } from './body.js';
import { makeClient } from './clients.js';
import { wantsColour } from './colour.js';
import { resolveSettings } from './credentials.js';
import { CliUsageError } from './errors.js';
import { FLAGS, optionsHelp, type FlagName } from './flags.js';
import { conventionFetch, parseHeaders } from './http-conventions.js';
import type { CliIo } from './io.js';
import { compileFilter, outputFormat, printAnswerHead, printApiErrorBody, printResult } from './output.js';
import { settingFlags } from './setting-flags.js';
import { checkRawRequest } from './spec-check.js';
import { loadTable, type CliOperation } from './spec-table.js';
import { maxItemsOf, pagingOf } from './paging.js';
import type { CapturedRequest } from './dry-run.js';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD'] as const;

function flagNames(api: CliApi): FlagName[] {
  return [
    'help',
    'data',
    'no-check',
    'dry-run',
    'all',
    'paginate',
    'max-items',
    'output',
    'filter',
    'base-url',
    'api-key',
    'profile',
    'verbose',
    'include',
    'header',
    ...(api.credentials === 'streams' ? (['api-secret', 'network'] as const) : []),
  ];
}

/** `service-sdk <api> request --help` (and `service-sdk help <api> request`). */
export function requestHelp(api: CliApi): string {
  return `usage: service-sdk ${api.name} request <METHOD> <path> [--data <json|@file|@->] [options]

A request by path (a path the API documents, with its query string), sent
through the same client as the operations: signed, retried, typed errors.
Its parameters, headers and body are checked against the spec before sending,
as its operation's command checks them (exit 2, nothing sent); --no-check
sends it as given. --dry-run prints it as curl and sends nothing;
--all (or --paginate, as gh api calls it) walks every page of a documented
list, as its operation's --all does.

${optionsHelp(flagNames(api))}
`;
}

/** The documented operation whose method and path template match `path` (no query), and the path's parameters. */
function matching(operations: readonly CliOperation[], method: string, path: string): { operation: CliOperation; pathParams: Record<string, string> } | undefined {
  for (const operation of operations) {
    if (operation.method !== method) continue;
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const template = new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`);
    const found = template.exec(path);
    if (found === null) continue;
    return { operation, pathParams: Object.fromEntries(names.map((name, i) => [name, decodedSegment(found[i + 1]!)])) };
  }
  return undefined;
}

/** A path segment as the service reads it (`%20` is a space); one that is not valid percent-encoding stays as typed. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Runs `<api> request <METHOD> <path>`; its exit code. */
export async function runRequest(api: CliApi, rest: readonly string[], io: CliIo): Promise<number> {
  const names = flagNames(api);
  const args = parseArgs(rest, new Map<string, FlagSpec>(names.map((name) => [name, FLAGS[name] as FlagSpec])));
  if (isSet(args, 'help')) {
    io.stdout.write(requestHelp(api));
    return 0;
  }
  const [methodText, target, ...extra] = args.positionals;
  if (methodText === undefined || target === undefined || extra.length > 0) throw new CliUsageError('request: expected <METHOD> <path>', requestHelp(api));
  const method = methodText.toUpperCase() as (typeof METHODS)[number];
  if (!METHODS.includes(method)) throw new CliUsageError(`request: expected a method among ${METHODS.join(', ')}, got ${JSON.stringify(methodText)}`);
  if (!target.startsWith('/')) throw new CliUsageError(`request: the path starts with /, got ${JSON.stringify(target)}`);
  const [path, queryText = ''] = target.split(/\?(.*)/s) as [string, string?];
  const format = outputFormat(lastValue(args, 'output'));
  const filter = await compileFilter(lastValue(args, 'filter'));
  const dataSpec = lastValue(args, 'data');
  const body = dataSpec === undefined ? undefined : await readBody(dataSpec, io);
  const headers = parseHeaders(args.flags.get('header') ?? []);
  const all = isSet(args, 'all') || isSet(args, 'paginate');
  const maxItems = maxItemsOf(args, all);
  if (all && isSet(args, 'no-check')) throw new CliUsageError('--all: walks a documented list only; not with --no-check');
  let walk: { operation: CliOperation; params: Record<'path' | 'query' | 'header', Record<string, unknown>> } | undefined;
  if (!isSet(args, 'no-check')) {
    const table = await loadTable(api);
    const found = matching(table.operations, method, path);
    if (found === undefined) {
      const near = nearest(`${method} ${path}`, table.operations.map((operation) => `${operation.method} ${operation.path}`));
      throw new CliUsageError(`${method} ${path} is not a documented ${api.name} path${near ? ` (did you mean ${near}?)` : ''}; service-sdk ${api.name} --help lists the operations (--no-check sends it anyway)`);
    }
    const query = new URLSearchParams(queryText);
    const checked = await checkRawRequest(api, found.operation, { pathParams: found.pathParams, query, headers: new Headers(headers), body });
    if (all) {
      // What the user typed only: the check also fills in the spec's defaults.
      const given = Object.fromEntries(Object.entries(checked.query).filter(([name]) => query.has(name)));
      walk = { operation: found.operation, params: { path: { ...checked.path }, query: given, header: {} } };
    }
  }
  // Even unchecked, a request HTTP cannot carry is refused here rather than failing inside fetch.
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) throw new CliUsageError(`--data: a ${method} request carries no body`);
  const settings = await resolveSettings(api, await settingFlags(args, io), lastValue(args, 'profile'), io);
  const captured: CapturedRequest[] = [];
  const dry = isSet(args, 'dry-run') ? await import('./dry-run.js') : undefined;
  const http = conventionFetch({ headers, verbose: isSet(args, 'verbose') }, io, dry?.capturingFetch(captured));
  const client = await makeClient(api, settings, http.fetch);
  if (dry !== undefined) {
    await client[method]!(target, { ...(body === undefined ? {} : { body }), signal: io.signal });
    await dry.printCaptured(captured, api, io);
    return 0;
  }
  if (walk !== undefined) {
    const paging = pagingOf(api, walk.operation);
    if (paging === undefined) throw new CliUsageError(`--all: ${method} ${path} (${walk.operation.name}) is not a list that pages`);
    const { walkAll } = await import('./walk-all.js');
    const given = lastValue(args, 'output');
    return walkAll(client, walk.operation, paging, walk.params, io, { format: given === undefined ? undefined : format, filter, maxItems });
  }
  const { unwrap } = await import('../core/unwrap.js');
  let value: unknown;
  try {
    // The concrete path, query included: openapi-fetch fills no template in it.
    value = await unwrap(client[method]!(target, { ...(body === undefined ? {} : { body }), signal: io.signal }));
  } catch (error) {
    await printApiErrorBody(io.stdout, error, format, isSet(args, 'include') ? http.lastAnswerHead() : undefined);
    throw error;
  }
  if (isSet(args, 'include')) await printAnswerHead(io.stdout, http.lastAnswerHead());
  await printResult(io.stdout, value, format, filter, undefined, wantsColour(io));
  return 0;
}
