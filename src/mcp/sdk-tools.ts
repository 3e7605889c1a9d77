/**
 * The SDK's own work as tools, beside the operations: waits that poll
 * long-running work to its end (with a time limit the agent sets), the
 * latest reports of several streams decoded, and a report's signatures
 * verified offline. They only read.
 */
import { findApi, type CliApi } from '../cli/apis.js';
import { ToolInputError, type JsonSchema, type Tool, type ToolContext } from './tool.js';

const READ = { readOnlyHint: true, openWorldHint: true } as const;
const UUID = { type: 'string', format: 'uuid' } as const;
const FEED_ID = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } as const;
/** The longest wait an agent may ask for: a tool call should not hold its client for longer. */
const MAX_WAIT_SECONDS = 600;
const TIMEOUT = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: MAX_WAIT_SECONDS,
  default: 60,
  description: `How long to wait, in seconds (at most ${MAX_WAIT_SECONDS}); on time out the tool answers the last state seen.`,
} as const;

/** Said with every draft: the server holds no signing key, so signing is the user's step. */
export const SIGN_STEP =
  'The operation is a draft waiting for a signature (pending_signature). This server never holds a signing key: the user signs its digest with the wallet key, then calls channels_finalize_or_cancel_operation with body {"status":"accepted","digest":…,"signature":…}.';

function api(name: string): CliApi {
  return findApi(name)!;
}

function text(args: Record<string, unknown>, name: string, schema: { pattern?: string; format?: string }): string {
  const value = args[name];
  if (value === undefined) throw new ToolInputError(`${name} is required`);
  if (typeof value !== 'string') throw new ToolInputError(`${name}: expected a string, got ${JSON.stringify(value)}`);
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) throw new ToolInputError(`${name}: expected a string matching ${schema.pattern}, got ${JSON.stringify(value)}`);
  if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw new ToolInputError(`${name}: expected a UUID, got ${JSON.stringify(value)}`);
  return value;
}

function onlyKnown(args: Record<string, unknown>, schema: JsonSchema, tool: string): void {
  const known = Object.keys(schema.properties as object);
  for (const key of Object.keys(args)) if (!known.includes(key)) throw new ToolInputError(`${key}: not an argument of ${tool}`);
}

function timeoutMs(args: Record<string, unknown>): number {
  const seconds = args.timeout_seconds ?? 60;
  if (typeof seconds !== 'number' || !(seconds > 0) || seconds > MAX_WAIT_SECONDS) {
    throw new ToolInputError(`timeout_seconds: expected a number of seconds > 0 and ≤ ${MAX_WAIT_SECONDS}, got ${JSON.stringify(seconds)}`);
  }
  return seconds * 1000;
}

/** A wait that ran out of time answers the last state seen (not an error: the agent may wait again). */
async function waited<R>(wait: () => Promise<R>): Promise<{ value: unknown; note?: string }> {
  const { PollTimeoutError, PollFailedError } = await import('../core/poll.js');
  try {
    return { value: await wait() };
  } catch (error) {
    if (error instanceof PollTimeoutError) return { value: { timedOut: true, lastStatus: error.lastStatus ?? null, last: error.lastResource ?? null }, note: `${error.message}; call again to keep waiting.` };
    if (error instanceof PollFailedError) return { value: { failed: true, status: error.status, resource: error.resource }, note: error.message };
    throw error;
  }
}

function tool(name: string, apiName: string, description: string, properties: Record<string, JsonSchema>, required: string[], run: (args: Record<string, unknown>, context: ToolContext) => Promise<{ value: unknown; note?: string }>): Tool {
  const inputSchema = { type: 'object', properties, required, additionalProperties: false };
  return {
    name,
    description,
    inputSchema,
    annotations: READ,
    api: api(apiName),
    run: (args, context) => {
      onlyKnown(args, inputSchema, name);
      return run(args, context);
    },
  };
}

const waitForOperation = tool(
  'wait_for_operation',
  'channels',
  'Waits for a channels operation to reach a status (confirmed by default, or cancelled), polling it; answers the operation. A draft waiting for the user\'s signature ends the wait at once: the user signs it, never this server.',
  {
    channel_id: { ...UUID, description: 'The channel of the operation.' },
    operation_id: { ...UUID, description: 'The operation.' },
    until: { type: 'string', enum: ['accepted', 'confirmed_latest', 'confirmed_safe', 'confirmed', 'cancelled'], default: 'confirmed', description: 'The status to wait for (or a later stage).' },
    timeout_seconds: TIMEOUT,
  },
  ['channel_id', 'operation_id'],
  async (args, context) => {
    const ref = { channel_id: text(args, 'channel_id', UUID), operation_id: text(args, 'operation_id', UUID) };
    const until = args.until ?? 'confirmed';
    const stages = (waitForOperation.inputSchema.properties as Record<string, { enum?: string[] }>).until!.enum!;
    if (typeof until !== 'string' || !stages.includes(until)) throw new ToolInputError(`until: expected one of ${stages.join(', ')}, got ${JSON.stringify(until)}`);
    const client = await context.clientFor(api('channels'));
    const operations = await import('../channels/operations.js');
    // A draft can only move when its user signs it: polling it would only run out the clock.
    const current = await operations.getOperation(client as never, ref, context.signal);
    if (current.status === 'pending_signature' && until !== 'cancelled') return { value: current, note: SIGN_STEP };
    return waited(() => operations.waitForOperation(client as never, ref, { until: until as never, timeoutMs: timeoutMs(args), ...(context.signal ? { signal: context.signal } : {}) }));
  },
);

const waitForEvaluation = tool(
  'wait_for_evaluation',
  'evaluation',
  'Waits for a policy evaluation (by its permit_id, from evaluation_request_evaluation) to end: ready, rejected or error; answers the evaluation.',
  { permit_id: { type: 'string', minLength: 1, description: 'The evaluation\'s permit_id.' }, timeout_seconds: TIMEOUT },
  ['permit_id'],
  async (args, context) => {
    const permitId = text(args, 'permit_id', {});
    const limit = timeoutMs(args);
    const client = await context.clientFor(api('evaluation'));
    const { waitForEvaluation: wait } = await import('../policy/evaluation.js');
    // waitForEvaluation reads through a PolicyClient; the evaluation client is the part it uses.
    return waited(() => wait({ evaluation: client } as never, permitId, { timeoutMs: limit, ...(context.signal ? { signal: context.signal } : {}) }));
  },
);

const latestReports = tool(
  'latest_reports',
  'streams',
  'The latest signed report of each stream, decoded into human units (prices as decimals, times as ISO 8601), with its fullReport for verify_report; with verify, each report\'s signatures checked against the trusted oracle configurations.',
  {
    feed_ids: { type: 'array', items: FEED_ID, minItems: 1, maxItems: 20, description: 'The streams\' feed IDs.' },
    verify: { type: 'boolean', default: false, description: 'Also verify each report (needs the server\'s trust: --trust, or --sandbox).' },
  },
  ['feed_ids'],
  async (args, context) => {
    const feedIDs = args.feed_ids;
    if (!Array.isArray(feedIDs) || feedIDs.length === 0) throw new ToolInputError('feed_ids: expected a list of at least one feed ID');
    for (const [index, feedID] of feedIDs.entries()) {
      if (typeof feedID !== 'string' || !new RegExp(FEED_ID.pattern).test(feedID)) throw new ToolInputError(`feed_ids[${index}]: expected 0x and 64 hex digits, got ${JSON.stringify(feedID)}`);
    }
    const verify = args.verify === true;
    const trust = verify ? await context.trust() : undefined;
    if (verify && trust === undefined) throw new ToolInputError('verify: the server has no trust to verify against: start it with --trust <json|@file> (or --sandbox)');
    const client = await context.clientFor(api('streams'));
    const { getLatestReport } = await import('../streams/reports.js');
    const { inHumanUnits } = await import('../cli/report-units.js');
    const { verifyReport } = await import('../reports/verify.js');
    const reports = [];
    for (const feedID of feedIDs as string[]) {
      const report = await getLatestReport(client as never, feedID, { decode: true, ...(context.signal ? { signal: context.signal } : {}) });
      const { decoded, ...rest } = report as unknown as { decoded: object; feedID: string; fullReport: string };
      reports.push({ ...rest, decoded: inHumanUnits({ feedID, decoded }), ...(verify ? { verification: verifyReport(rest.fullReport, trust!) } : {}) });
    }
    return { value: { reports } };
  },
);

const verifyReportTool = tool(
  'verify_report',
  'streams',
  'Checks a report\'s signatures offline, as the on-chain verifier would, against the trusted oracle configurations (the server\'s, or trust given here); answers { valid, configDigest, signers } or { valid: false, reason, message }.',
  {
    full_report: { type: 'string', pattern: '^0x[0-9a-fA-F]+$', description: 'The report\'s fullReport hex.' },
    trust: { type: 'object', description: 'Config digest → { f, signers }, as the verifier contract emitted them. Default: the server\'s.' },
  },
  ['full_report'],
  async (args, context) => {
    const fullReport = text(args, 'full_report', { pattern: '^0x[0-9a-fA-F]+$' });
    let trust = args.trust === undefined ? await context.trust() : undefined;
    if (args.trust !== undefined) {
      const { checkReportTrust } = await import('../reports/verify-config.js');
      const { ConfigurationError } = await import('../core/errors.js');
      try {
        trust = checkReportTrust(args.trust, 'trust');
      } catch (error) {
        if (error instanceof ConfigurationError) throw new ToolInputError(`${error.option}: ${error.message.replace(/^Invalid option `[^`]*`: /, '')}`);
        throw error;
      }
    }
    if (trust === undefined) throw new ToolInputError('trust is required: the server has none (start it with --trust or --sandbox)');
    const { verifyReport } = await import('../reports/verify.js');
    return { value: verifyReport(fullReport, trust) };
  },
);

export const SDK_TOOLS: readonly Tool[] = [waitForOperation, waitForEvaluation, latestReports, verifyReportTool];
