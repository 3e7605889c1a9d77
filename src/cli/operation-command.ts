/**
 * `service-sdk <api> <operation> [flags]`: one operation of the spec. Every
 * flag is checked against the table before anything is sent; then the typed
 * client makes the call (or `--dry-run` shows it, `--all` walks its pages,
 * `--wait` follows the work it started).
 */
import type { CliApi } from './apis.js';
import { isSet, lastValue, parseArgs, type ParsedArgs } from './argv.js';
import { operationFlags } from './flags.js';
import { readBody } from './body.js';
import { makeClient, type LooseClient } from './clients.js';
import { wantsColour } from './colour.js';
import { resolveSettings } from './credentials.js';
import { conventionFetch, parseHeaders } from './http-conventions.js';
import { settingFlags } from './setting-flags.js';
import type { CapturedRequest } from './dry-run.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { compileFilter, outputFormat, printAnswerHead, printApiErrorBody, printResult } from './output.js';
import { checkedRequest } from './spec-check.js';
import { maxItemsOf, pagingOf } from './paging.js';
import type { ApiSettings } from './profiles.js';
import type { CliOperation } from './spec-table.js';
import { parseDuration } from './duration.js';
import { waitFlowOf } from './waits.js';



/** Why a flag of the command line does not apply to `operation`, for the error that refuses it. */
function whyNotHere(api: CliApi, operation: CliOperation, flag: string): string | undefined {
  if (flag === 'all' || flag === 'max-items') return `--all: ${operation.name} is not a list that pages`;
  if (flag.startsWith('wait')) return `--${flag}: ${operation.name} starts no work to wait for`;
  if (flag === 'data') return `--data: ${operation.name} takes no request body`;
  if ((flag === 'api-secret' || flag === 'network') && api.credentials !== 'streams') return `--${flag}: only the streams API takes it`;
  return undefined;
}

/** How long `--wait` waits unless `--wait-timeout` says otherwise. */
const DEFAULT_WAIT_TIMEOUT = '10m';
/** The first pause of `--wait` unless `--wait-interval` says otherwise. */
const DEFAULT_WAIT_INTERVAL = '1s';


export async function runOperation(api: CliApi, operation: CliOperation, rest: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(rest, operationFlags(api, operation), (flag) => whyNotHere(api, operation, flag));
  if (isSet(args, 'help')) {
    const { operationHelp } = await import('./help.js');
    io.stdout.write(operationHelp(api, operation));
    return 0;
  }
  if (args.positionals.length > 0) {
    throw new CliUsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}: parameters are given as --<name> <value>`);
  }
  const dataSpec = lastValue(args, 'data');
  if (dataSpec !== undefined && operation.body === undefined) throw new CliUsageError(`--data: ${operation.name} takes no request body`);
  if (dataSpec === undefined && operation.body?.required) throw new CliUsageError(`missing --data: ${operation.name} needs a JSON request body`);
  const outputGiven = lastValue(args, 'output') === undefined ? undefined : outputFormat(lastValue(args, 'output'));
  const format = outputGiven ?? 'json';
  const filter = await compileFilter(lastValue(args, 'filter'));
  const all = isSet(args, 'all');
  const wait = isSet(args, 'wait');
  const dryRun = isSet(args, 'dry-run');
  const paging = all ? pagingOf(api, operation) : undefined;
  const maxItems = maxItemsOf(args, all);
  if (all && paging === undefined) throw new CliUsageError(`--all: ${operation.name} is not a list that pages`);
  for (const flag of ['wait-interval', 'wait-timeout']) {
    if (!wait && args.flags.has(flag)) throw new CliUsageError(`--${flag}: only with --wait`);
  }
  const waitFlow = wait ? waitFlowOf(api.spec, operation.id) : undefined;
  if (wait && waitFlow === undefined) throw new CliUsageError(`--wait: ${operation.name} starts no work to wait for`);
  // --wait-interval took plain milliseconds before it took durations: a bare number still means ms.
  const waitInterval = parseDuration('wait-interval', lastValue(args, 'wait-interval') ?? DEFAULT_WAIT_INTERVAL, { bareMilliseconds: true });
  const waitTimeoutText = lastValue(args, 'wait-timeout') ?? DEFAULT_WAIT_TIMEOUT;
  const waitTimeout = parseDuration('wait-timeout', waitTimeoutText);
  const body = dataSpec === undefined ? undefined : await readBody(dataSpec, io);
  const params = await checkedRequest(api, operation, args, body);

  const settings = await resolveSettings(api, await settingFlags(args, io), lastValue(args, 'profile'), io);
  const captured: CapturedRequest[] = [];
  // What only some commands use is imported when used: each module read costs every command's start-up.
  const dry = dryRun ? await import('./dry-run.js') : undefined;
  const http = conventionFetch({ headers: parseHeaders(args.flags.get('header') ?? []), verbose: isSet(args, 'verbose') }, io, dry?.capturingFetch(captured));
  const client = await makeClient(api, settings, http.fetch);
  const init = { params, ...(body === undefined ? {} : { body }), signal: io.signal };

  if (dry !== undefined) {
    await client[operation.method]!(operation.path, init);
    await dry.printCaptured(captured, api, io);
    return 0;
  }

  if (paging !== undefined) {
    const { walkAll } = await import('./walk-all.js');
    return walkAll(client, operation, paging, params, io, { format: outputGiven, filter, maxItems });
  }

  const { unwrap } = await import('../core/unwrap.js');
  const result = client[operation.method]!(operation.path, init);
  let value: unknown;
  try {
    await unwrap(result);
    // A HEAD answer is its headers.
    value = operation.method === 'HEAD' ? Object.fromEntries((await result).response.headers) : await unwrap(result);
    if (isSet(args, 'include')) await printAnswerHead(io.stdout, http.lastAnswerHead());
  } catch (error) {
    await printApiErrorBody(io.stdout, error, format, isSet(args, 'include') ? http.lastAnswerHead() : undefined);
    throw error;
  }
  let code = 0;
  if (waitFlow !== undefined) {
    const { followWork } = await import('./follow-work.js');
    const followed = await followWork(waitFlow, client, value as Record<string, unknown>, params.path, body, { intervalMs: waitInterval, timeoutMs: waitTimeout, timeoutText: waitTimeoutText }, io);
    value = followed.value;
    code = followed.code;
  }
  await printResult(io.stdout, value, format, filter, operation.listFields, wantsColour(io));
  return code;
}
