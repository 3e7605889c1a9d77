/**
 * `--wait`: after an operation that starts asynchronous work, poll it to a
 * terminal status with the SDK's waits, printing each status seen and when
 * on stderr. Which operations, and what they wait for:
 * - channels createOperation / finalizeOrCancelOperation: the operation, to
 *   `confirmed` (or `cancelled` when the body cancels it);
 * - channels createQuery: the query, to `completed`;
 * - evaluation requestEvaluation: the evaluation, to `ready`.
 *
 * A status only the caller can move (a draft's `pending_signature`) ends the
 * wait at once: polling it could only run out the clock.
 */
import type { PollOptions } from '../core/poll.js';
import type { LooseClient } from './clients.js';
import { writeMessage, type CliOutput } from './io.js';

/** Polls the work one operation started, with the SDK's wait for it. */
export type WaitRun = (
  client: LooseClient,
  started: Record<string, unknown>,
  path: Record<string, unknown>,
  body: unknown,
  options: PollOptions<string>,
) => Promise<unknown>;

/** What `--wait` does after one operation. */
export interface WaitFlow {
  /** What the command did to it, for stderr: `created`. */
  verb: string;
  /** What is waited on, for stderr: `operation <id>`. */
  what: (started: Record<string, unknown>, path: Record<string, unknown>) => string;
  /** The status waited for, for stderr. */
  goal: (body: unknown) => string;
  /** Statuses only the caller can move, each with what the caller does next. */
  callerStatuses: Readonly<Record<string, string>>;
  run: WaitRun;
}

const cancelling = (body: unknown) => (body as { status?: unknown } | undefined)?.status === 'cancelled';

const SIGN_DRAFT = 'it waits for your signature (sign it, then service-sdk channels finalize-or-cancel-operation --data \'{"status":"accepted","digest":…,"signature":…}\')';

const WAITS: Record<string, WaitFlow> = {
  'channels.createOperation': {
    verb: 'created',
    what: (started) => `operation ${String(started.operation_id)}`,
    goal: () => 'confirmed',
    callerStatuses: { pending_signature: SIGN_DRAFT },
    run: async (client, started, path, _body, options) => {
      const { waitForOperation } = await import('../channels/operations.js');
      return waitForOperation(client as never, { channel_id: path.channel_id as string, operation_id: started.operation_id as string }, options as never);
    },
  },
  'channels.finalizeOrCancelOperation': {
    verb: 'updated',
    what: (_started, path) => `operation ${String(path.operation_id)}`,
    goal: (body) => (cancelling(body) ? 'cancelled' : 'confirmed'),
    callerStatuses: { pending_signature: SIGN_DRAFT },
    run: async (client, _started, path, body, options) => {
      const { waitForOperation } = await import('../channels/operations.js');
      return waitForOperation(
        client as never,
        { channel_id: path.channel_id as string, operation_id: path.operation_id as string },
        { ...(options as object), until: cancelling(body) ? 'cancelled' : 'confirmed' },
      );
    },
  },
  'channels.createQuery': {
    verb: 'created',
    what: (started) => `query ${String(started.query_id)}`,
    goal: () => 'completed',
    callerStatuses: {},
    run: async (client, started, path, _body, options) => {
      const { waitForQuery } = await import('../channels/queries.js');
      return waitForQuery(client as never, { channel_id: path.channel_id as string, query_id: started.query_id as string }, options as never);
    },
  },
  'policy-evaluation.requestEvaluation': {
    verb: 'requested',
    what: (started) => `evaluation ${String(started.permit_id)}`,
    goal: () => 'ready',
    callerStatuses: {},
    run: async (client, started, _path, _body, options) => {
      const { waitForEvaluation } = await import('../policy/evaluation.js');
      // waitForEvaluation reads through a PolicyClient; the evaluation client is the part it uses.
      return waitForEvaluation({ evaluation: client } as never, started.permit_id as string, options as never);
    },
  },
};

/** The wait of an operation, if it starts work to wait for. */
export function waitFlowOf(spec: string, operationId: string): WaitFlow | undefined {
  return WAITS[`${spec}.${operationId}`];
}

/** The operations of a spec that `--wait` applies to. */
export function waitableOperations(spec: string): string[] {
  return Object.keys(WAITS)
    .filter((key) => key.startsWith(`${spec}.`))
    .map((key) => key.slice(spec.length + 1));
}

/** Prints `HH:MM:SS.mmm  +1.2s  <status>` lines on stderr as statuses change. */
export function statusPrinter(stderr: CliOutput): (status: string) => void {
  const started = Date.now();
  return (status) => {
    const now = Date.now();
    writeMessage(stderr, `${new Date(now).toISOString().slice(11, 23)}  +${((now - started) / 1000).toFixed(1)}s  ${status}`);
  };
}
