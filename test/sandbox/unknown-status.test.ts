import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createChannelsClient,
  hasReachedStage,
  UnknownStatusError,
  waitForOperation,
  waitForOperationEvent,
  waitForQuery,
  waitForQueryEvent,
  waitForWatcherArchive,
  waitForWatcherArchiveEvent,
  type ChannelsClient,
  type OperationStatus,
} from '../../src/channels/index.js';
import { createPolicyClient, requestEvaluation, waitForEvaluation, type Evaluation, type EvaluationStatus } from '../../src/policy/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { channelOperation } from '../support/channel-operation.js';
import { transferEvaluation } from '../support/policy-requests.js';
import { readmeClaim } from '../support/readme-claim.js';

// A service that adds a status before the SDK knows it: a fetch wrapper
// around the sandbox rewrites the status of the answers one wait reads. The
// waits run on a stopped fake clock: one that pauses for its next read never
// settles, so settling at all means ending within one poll interval, however
// slowly the machine runs.

const TOKEN = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
const INTERVAL_MS = 10_000;
const POLL = { intervalMs: INTERVAL_MS, timeoutMs: 10 * INTERVAL_MS };

let sandbox: Sandbox;

beforeEach(() => {
  sandbox = createSandbox({ pace: 0 });
});

afterEach(() => {
  vi.useRealTimers();
  sandbox.close();
});

/**
 * The sandbox's fetch, with the `status` of every JSON answer to a GET whose
 * path matches `path` replaced by `status` (in each event's payload for an
 * event list).
 */
function answeringStatus(path: RegExp, status: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await sandbox.fetch(request);
    if (request.method !== 'GET' || !path.test(new URL(request.url).pathname) || !response.ok) return response;
    const body = (await response.json()) as { status?: string; events?: { payload: { status?: string } }[] };
    if (body.events) {
      for (const event of body.events) if (event.payload.status !== undefined) event.payload.status = status;
    } else {
      body.status = status;
    }
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
}

/**
 * Settles `wait` with the fake clock stopped: the event loop turns (so the
 * sandbox's answers arrive), but no timer of the wait ever fires, so a wait
 * that pauses for its next read stays pending and this throws.
 */
async function settleBeforeNextRead<T>(wait: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  let outcome: { value?: T; error?: unknown } | undefined;
  wait.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  for (let turn = 0; turn < 20_000 && outcome === undefined; turn++) await new Promise((resolve) => setImmediate(resolve));
  if (outcome === undefined) throw new Error(`the wait was still pending with ${vi.getTimerCount()} timer(s) set: it paused for a next read`);
  return outcome;
}

function channelsClient(fetch: typeof globalThis.fetch = sandbox.fetch): ChannelsClient {
  return createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch, retry: false });
}

describe('a status the SDK does not know', () => {
  it(readmeClaim('`waitForOperation`, `waitForOperationEvent` and `waitForEvaluation` end at once with `UnknownStatusError` when they read a status this version of the SDK does not know, before their next read'), async () => {
    const ref = await channelOperation(channelsClient(), { channelName: 'unknown-status', to: TOKEN });
    const policy = createPolicyClient({
      apiKey: sandbox.credentials.policy.apiKey,
      fetch: answeringStatus(/\/evaluate\/[^/]+$/, 'queued_for_review'),
      retry: false,
    });
    const { permit_id } = await requestEvaluation(policy, transferEvaluation('unknown-status'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

    const byPolling = await settleBeforeNextRead(waitForOperation(channelsClient(answeringStatus(/\/operations\/[^/]+$/, 'reverted')), ref, POLL));
    expect(byPolling.error).toBeInstanceOf(UnknownStatusError);
    expect(byPolling.error).toMatchObject({ status: 'reverted', what: `operation ${ref.operation_id}` });
    expect(String((byPolling.error as Error).message)).toContain(`operation ${ref.operation_id} is in status \`reverted\``);

    const byEvents = await settleBeforeNextRead(
      waitForOperationEvent(channelsClient(answeringStatus(/\/events$/, 'reverted')), ref, 'confirmed', { ...POLL, fromOffset: 0 }),
    );
    expect(byEvents.error).toBeInstanceOf(UnknownStatusError);
    expect(byEvents.error).toMatchObject({ status: 'reverted', what: `operation ${ref.operation_id}` });

    const evaluation = await settleBeforeNextRead(waitForEvaluation(policy, permit_id, POLL));
    expect(evaluation.error).toBeInstanceOf(UnknownStatusError);
    expect(evaluation.error).toMatchObject({ status: 'queued_for_review', what: `evaluation ${permit_id}` });
    expect((evaluation.error as UnknownStatusError<Evaluation>).resource.permit_id).toBe(permit_id);
  });

  it(readmeClaim("With `onUnknownStatus: 'wait'` a wait reads on through such a status, until a status it knows ends it"), async () => {
    // A service of its own: `reverted` twice, then `confirmed`.
    const answers = ['reverted', 'reverted', 'confirmed'];
    const fetch: typeof globalThis.fetch = async () => Response.json({ operation_id: 'o', status: answers.shift() ?? 'confirmed' });
    const seen: OperationStatus[] = [];
    const done = await waitForOperation(channelsClient(fetch), { channel_id: 'c', operation_id: 'o' }, {
      intervalMs: 1,
      backoff: 1,
      onUnknownStatus: 'wait',
      onStatus: (status) => seen.push(status),
    });
    expect(done.status).toBe('confirmed');
    expect(seen).toEqual(['reverted', 'confirmed']);
  });

  it(readmeClaim("Either way the client's `logger` warns, once per such status."), async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (line: string) => warnings.push(line) };
    const answers = ['reverted', 'reverted', 'confirmed'];
    const fetch: typeof globalThis.fetch = async () => Response.json({ operation_id: 'o', status: answers.shift() ?? 'confirmed' });
    const ref = { channel_id: 'c', operation_id: 'o' };
    await waitForOperation(createChannelsClient({ apiKey: 'key', fetch, retry: false, logger }), ref, { intervalMs: 1, backoff: 1, onUnknownStatus: 'wait' });
    expect(warnings).toEqual(["operation o is in status `reverted`, which this version of the SDK does not know: waiting on (onUnknownStatus: wait)"]);

    const reverted: typeof globalThis.fetch = async () => Response.json({ operation_id: 'o', status: 'reverted' });
    await expect(waitForOperation(createChannelsClient({ apiKey: 'key', fetch: reverted, retry: false, logger }), ref)).rejects.toBeInstanceOf(UnknownStatusError);
    expect(warnings[1]).toBe('operation o is in status `reverted`, which this version of the SDK does not know: the wait ends with UnknownStatusError');
  });

  it(readmeClaim('so do `waitForQuery`, `waitForWatcherArchive` and the other event waits'), async () => {
    // A service of its own: every answer carries the status `reverted` (the waits read nothing else).
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const path = new URL(new Request(input, init).url).pathname;
      const event = (type: string, id: Record<string, string>) => ({ headers: { type, offset: 0 }, payload: { status: 'reverted', ...id } });
      if (path.endsWith('/events')) {
        return Response.json({ events: [event('query.status', { query_id: 'q' }), event('watcher.status', { watcher_id: 'w' })] });
      }
      return Response.json({ status: 'reverted' });
    };
    const client = channelsClient(fetch);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const waits = [
      ['query q', () => waitForQuery(client, { channel_id: 'c', query_id: 'q' }, POLL)],
      ['watcher w', () => waitForWatcherArchive(client, { channel_id: 'c', watcher_id: 'w' }, POLL)],
      ['query q', () => waitForQueryEvent(client, { channel_id: 'c', query_id: 'q' }, POLL)],
      ['watcher w', () => waitForWatcherArchiveEvent(client, { channel_id: 'c', watcher_id: 'w' }, POLL)],
    ] as const;
    for (const [what, wait] of waits) {
      const { error } = await settleBeforeNextRead<unknown>(wait());
      expect(error).toBeInstanceOf(UnknownStatusError);
      expect(error).toMatchObject({ status: 'reverted', what });
    }
  });

  it(readmeClaim('a documented value or any other string, so a `switch` over one needs a `default`'), () => {
    // describeStatus (below) is type-checked: its `default` cannot treat `status` as `never`.
    expect(describeStatus('queued_for_review')).toBe('unknown: queued_for_review');
    expect(describeStatus('ready')).toBe('ready');
  });

  it(readmeClaim('`hasReachedStage` answers `false` for a status it does not know'), () => {
    expect(hasReachedStage('reverted', 'accepted')).toBe(false);
    expect(hasReachedStage('confirmed', 'accepted')).toBe(true);
  });

  it('a misspelt onUnknownStatus is a ConfigurationError naming it', async () => {
    const client = channelsClient();
    const wait = waitForOperation(client, { channel_id: 'c', operation_id: 'o' }, { onUnknownStatus: 'skip' as never });
    await expect(wait).rejects.toThrow(/onUnknownStatus/);
  });
});

// The types: a switch over every known status still needs a default.
export function describeStatus(status: EvaluationStatus): string {
  switch (status) {
    case 'evaluating':
    case 'approving':
      return 'in progress';
    case 'ready':
      return 'ready';
    case 'rejected':
    case 'error':
      return 'refused';
    default: {
      // @ts-expect-error the service may add a status: `status` is not `never` here
      const none: never = status;
      return `unknown: ${none}`;
    }
  }
}
