/**
 * Runs a `--wait` (src/cli/waits.ts) so that it never traps and loses
 * nothing: the ID of what was started is on stderr before the wait; a status
 * only the caller can move ends it at once (exit 0); `--wait-timeout` ends
 * it with the last state seen (exit 4); Ctrl-C ends it with the last state
 * seen (exit 130); a failure status ends it with that resource (exit 1).
 * Each way, the resource is printed as any result is, after `--filter` and
 * in the `--output` format.
 */
import { EXIT } from './errors.js';
import type { LooseClient } from './clients.js';
import { writeMessage, type CliIo } from './io.js';
import { statusPrinter, type WaitFlow } from './waits.js';

/** How `--wait` polls: the first pause and the time limit. */
export interface FollowOptions {
  intervalMs: number;
  timeoutMs: number;
  /** The timeout as the user gave it (`10m`), for stderr. */
  timeoutText: string;
}

/** What a wait ends with: the resource to print and the exit code. */
export interface Followed {
  /** The resource to print: the settled one, or the last state seen. */
  value: unknown;
  code: number;
}

/** Why the wait was stopped from inside, told apart from Ctrl-C. */
class CallerStatus extends Error {}

/** Follows the work `started` began with `flow`, as the module comment says. */
export async function followWork(
  flow: WaitFlow,
  client: LooseClient,
  started: Record<string, unknown>,
  path: Record<string, unknown>,
  body: unknown,
  options: FollowOptions,
  io: CliIo,
): Promise<Followed> {
  const what = flow.what(started, path);
  const atOnce = callerStatusOf(flow, started);
  if (atOnce !== undefined) {
    writeMessage(io.stderr, `${flow.verb} ${what}; not waiting: it is ${atOnce.status}: ${atOnce.advice}`);
    return { value: started, code: EXIT.ok };
  }
  writeMessage(io.stderr, `${flow.verb} ${what}; waiting for ${flow.goal(body)} (--wait-timeout ${options.timeoutText}; Ctrl-C stops waiting and prints the last state)`);

  let last: unknown = started;
  const recording = recordReads(client, (data) => (last = data));
  const stop = new AbortController();
  const signal = io.signal === undefined ? stop.signal : AbortSignal.any([io.signal, stop.signal]);
  const printStatus = statusPrinter(io.stderr);
  try {
    const value = await flow.run(recording, started, path, body, {
      intervalMs: options.intervalMs,
      maxIntervalMs: Math.max(options.intervalMs, 1_000),
      timeoutMs: options.timeoutMs,
      signal,
      onStatus: (status) => {
        printStatus(status);
        if (flow.callerStatuses[status] !== undefined) stop.abort(new CallerStatus(status));
      },
    });
    return { value, code: EXIT.ok };
  } catch (error) {
    if (stop.signal.aborted) {
      const status = (stop.signal.reason as CallerStatus).message;
      writeMessage(io.stderr, `${what} is ${status}: ${flow.callerStatuses[status]}; not waiting`);
      return { value: last, code: EXIT.ok };
    }
    if (io.signal?.aborted) {
      io.stderr.write('interrupted: the last state seen is on stdout\n');
      return { value: last, code: EXIT.interrupted };
    }
    const { PollFailedError, PollTimeoutError } = await import('../core/poll.js');
    if (error instanceof PollFailedError) {
      writeMessage(io.stderr, `service-sdk: ${error.message}`);
      return { value: error.resource, code: EXIT.apiError };
    }
    if (error instanceof PollTimeoutError) {
      writeMessage(io.stderr, `service-sdk: ${error.message}; the last state seen is on stdout (a longer --wait-timeout waits more)`);
      return { value: error.lastResource ?? last, code: EXIT.waitTimeout };
    }
    throw error;
  }
}

function callerStatusOf(flow: WaitFlow, resource: Record<string, unknown>): { status: string; advice: string } | undefined {
  const status = resource.status;
  if (typeof status !== 'string') return undefined;
  const advice = flow.callerStatuses[status];
  return advice === undefined ? undefined : { status, advice };
}

/** The client, with every read's data handed to `seen`: the last state is at hand whenever the wait stops. */
function recordReads(client: LooseClient, seen: (data: unknown) => void): LooseClient {
  return {
    ...client,
    GET: async (path, init) => {
      const result = await client.GET(path, init);
      if (result.data !== undefined) seen(result.data);
      return result;
    },
  };
}
