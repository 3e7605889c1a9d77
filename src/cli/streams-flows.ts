/**
 * The streams API's two flows beyond its operations:
 * - `streams latest <feedID>… [--decode]`: each stream's latest report, always
 *   as one array (in the order given), however many feed IDs: a stream that
 *   fails or is not verified is told on stderr and left out (exit 1), so
 *   `[]` when none is printed;
 * - `streams watch <feedID>…`: the live stream as NDJSON until Ctrl-C (or `--count`).
 * With `--verify --trust …`, both print only the reports whose signatures the
 * trust vouches for; each other one is told on stderr with its reason.
 */
import type { CliApi } from './apis.js';
import { isSet, lastValue, parseArgs, type ParsedArgs } from './argv.js';
import { makeClient } from './clients.js';
import { resolveSettings } from './credentials.js';
import { CliUsageError, EXIT } from './errors.js';
import { writeLine, writeMessage, type CliIo } from './io.js';
import { optionsHelp, streamsFlowFlagNames, streamsFlowFlags } from './flags.js';
import { verifyOption } from './report-trust.js';
import { settingFlags } from './setting-flags.js';
import { conventionFetch, parseHeaders } from './http-conventions.js';
import { compileFilter, outputFormat, printResult, toJson } from './output.js';
import { checkedValue } from './spec-check.js';
import { inHumanUnits } from './report-units.js';
import { findOperation, loadTable } from './spec-table.js';

export const STREAMS_FLOWS = ['latest', 'watch'] as const;

/** Failed connections in a row, per origin, before `watch` gives up (exit 3). */
const DEFAULT_RECONNECT_ATTEMPTS = 10;

const LATEST_HELP = `usage: service-sdk streams latest <feedID>… [--decode] [options]

The latest report of each stream, as one array in the order given (one
feed ID or several); --decode adds its values in human units (prices as
decimals, times as ISO 8601). A stream that fails is told on stderr and
left out, exit 1. With --verify, only reports whose signatures --trust
vouches for; each other one is told on stderr, exit 1 ([] if none is).

${optionsHelp(streamsFlowFlagNames('latest'))}
`;
const WATCH_HELP = `usage: service-sdk streams watch <feedID>… [--count N] [--ws-url URL] [options]

The live report stream, one decoded report per line (NDJSON), until Ctrl-C
or --count reports. Connection events go to stderr. With --verify, only
reports whose signatures --trust vouches for; the others are told on stderr.

${optionsHelp(streamsFlowFlagNames('watch'))}
`;

/** The feed IDs given as arguments (and, for watch, with --feed-ids), each checked against the spec's feedID. */
async function feedIDsOf(api: CliApi, args: ParsedArgs): Promise<string[]> {
  const listed = (args.flags.get('feed-ids') ?? []).flatMap((text) => text.split(','));
  if (args.positionals.length === 0 && listed.length === 0) throw new CliUsageError('expected at least one feed ID (0x followed by 64 hex digits)');
  const latest = findOperation(await loadTable(api), 'getLatestReport')!;
  const param = latest.params.find((candidate) => candidate.name === 'feedID')!;
  const checked: string[] = [];
  for (const feedID of args.positionals) checked.push((await checkedValue(api, latest, param, feedID, `feed ID ${JSON.stringify(feedID)}`)) as string);
  for (const feedID of listed) checked.push((await checkedValue(api, latest, param, feedID, '--feed-ids')) as string);
  return checked;
}

export async function runStreamsFlow(api: CliApi, flow: (typeof STREAMS_FLOWS)[number], rest: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(rest, streamsFlowFlags(flow));
  if (isSet(args, 'help')) {
    io.stdout.write(flow === 'latest' ? LATEST_HELP : WATCH_HELP);
    return 0;
  }
  const feedIDs = await feedIDsOf(api, args);
  const format = outputFormat(lastValue(args, 'output'));
  // The live stream has no end to close an array or size a table at: one report a line.
  if (flow === 'watch' && format !== 'ndjson' && lastValue(args, 'output') !== undefined) {
    throw new CliUsageError(`--output ${format}: streams watch prints one report per line (ndjson) as they arrive; give --output ndjson or none`);
  }
  const filter = await compileFilter(lastValue(args, 'filter'));
  const countText = lastValue(args, 'count');
  const count = countText === undefined ? Number.POSITIVE_INFINITY : Number(countText);
  if (!(Number.isInteger(count) && count > 0) && count !== Number.POSITIVE_INFINITY) {
    throw new CliUsageError(`--count: expected an integer ≥ 1, got ${JSON.stringify(countText)}`);
  }
  const attemptsText = lastValue(args, 'reconnect-attempts');
  const reconnectAttempts = attemptsText === undefined ? DEFAULT_RECONNECT_ATTEMPTS : Number(attemptsText);
  if (!(Number.isInteger(reconnectAttempts) && reconnectAttempts >= 1)) {
    throw new CliUsageError(`--reconnect-attempts: expected an integer ≥ 1, got ${JSON.stringify(attemptsText)}`);
  }
  const trust = await verifyOption(args, io);
  const settings = await resolveSettings(api, await settingFlags(args, io), lastValue(args, 'profile'), io);
  const http = conventionFetch({ headers: parseHeaders(args.flags.get('header') ?? []), verbose: isSet(args, 'verbose') }, io);
  const client = await makeClient(api, settings, http.fetch);
  const streams = await import('../streams/index.js');

  if (flow === 'latest') {
    const decode = isSet(args, 'decode');
    const { ApiError } = await import('../core/errors.js');
    const { ReportVerificationError } = await import('../reports/verify-types.js');
    const reports = [];
    let failed = 0;
    // Each stream on its own: one that fails is told on stderr, and the others are still printed.
    for (const feedID of feedIDs) {
      try {
        const report = await streams.getLatestReport(client as never, feedID, { decode, ...(trust ? { verify: trust } : {}), ...(io.signal ? { signal: io.signal } : {}) });
        reports.push(decode ? inHumanUnits(report as never) : report);
      } catch (error) {
        if (!(error instanceof ApiError || error instanceof ReportVerificationError)) throw error;
        failed++;
        const why = error instanceof ApiError ? `${error.status} ${error.type}${error.code ? ` ${error.code}` : ''}: ${error.message}` : error.message;
        writeMessage(io.stderr, `service-sdk: ${feedID}: ${why}`);
      }
    }
    await printResult(io.stdout, reports, format, filter);
    return failed > 0 ? EXIT.apiError : EXIT.ok;
  }

  if (settings.apiKey === undefined) throw new CliUsageError('streams watch: the live stream is signed: give --api-key and --api-secret');
  let live: ReturnType<typeof streams.streamReports<true>>;
  let unverified = 0;
  try {
    live = streams.streamReports(client as never, feedIDs, {
      decode: true,
      ...(trust ? { verify: trust } : {}),
      ...(settings.wsUrl ? { wsUrl: settings.wsUrl } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      reconnect: { maxAttempts: reconnectAttempts },
      onStatus: (event) => {
        // A report the trust does not vouch for is said plainly, with the verification's reason.
        if (event.type === 'message-skipped' && event.error.problem === 'unverified') {
          unverified++;
          writeMessage(io.stderr, `service-sdk: report not verified: ${event.error.message}`);
          return;
        }
        writeMessage(io.stderr, `stream: ${describeEvent(event)}`);
      },
    });
  } catch (error) {
    // The stream refuses a base URL of its own with no WebSocket host: said here in the command line's words.
    if (error instanceof streams.ConfigurationError && error.option === 'wsUrl' && settings.wsUrl === undefined) {
      throw new CliUsageError(
        `streams watch: the REST base URL is ${settings.baseUrl}, not a deployment's: give --ws-url (or SERVICE_SDK_STREAMS_WS_URL) with the WebSocket host of that service`,
      );
    }
    throw error;
  }
  let seen = 0;
  try {
    for await (const report of live) {
      await writeLine(io.stdout, toJson(filter ? filter(inHumanUnits(report)) : inHumanUnits(report), false));
      if (++seen >= count) break;
    }
  } catch (error) {
    if (!(error instanceof streams.ReportStreamConnectionError)) throw error;
    // The reconnection budget is spent: the service is not there to answer.
    writeMessage(io.stderr, `service-sdk: no answer: ${error.message}; gave up (--reconnect-attempts ${reconnectAttempts})`);
    return EXIT.noAnswer;
  } finally {
    await live.close();
    if (unverified > 0) io.stderr.write(`service-sdk: ${unverified} report${unverified === 1 ? '' : 's'} not verified (skipped)\n`);
  }
  // Ctrl-C ends the stream cleanly, and the exit code says it was interrupted.
  return io.signal?.aborted ? EXIT.interrupted : EXIT.ok;
}

/** A status event on one line: its type and its plain fields (errors by message). */
function describeEvent(event: object & { type: string }): string {
  const fields = Object.entries(event as Record<string, unknown>)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => `${key}=${value instanceof Error ? JSON.stringify(value.message) : Array.isArray(value) ? value.join(',') : String(value)}`);
  return [event.type, ...fields].join(' ');
}
