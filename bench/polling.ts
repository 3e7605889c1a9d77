/**
 * 5. Polling: how long after the server's state change `waitForOperation`
 * resolves, and how many GETs it spent, with the default schedule
 * (DEFAULT_POLL: 1 s, ×1.5 per wait, at most 10 s) and with `intervalMs: 100`
 * (same backoff). Several operations flip at different moments, all waited
 * on at once (the waits are mostly asleep, so they do not disturb each other).
 *
 * The bound: a poller cannot see a change before its next read, so the
 * latency is at most the wait in effect when the change happened; the goal
 * is that it never takes longer than that (plus 50 ms for the read itself
 * and a loaded machine's timer lateness).
 */
import { createChannelsClient, waitForOperation } from '../src/channels/index.js';
import { DEFAULT_POLL } from '../src/core/poll.js';
import { median, quantile } from './measure.js';
import { epochMs, type BenchServer } from './server.js';
import type { Row } from './table.js';

const BENCH = '5 polling';
/** When each operation flips, ms after its wait starts. */
export const FLIP_DELAYS_MS = [600, 1_300, 2_000, 3_200, 4_300, 5_500] as const;
const SLACK_MS = 50;

interface Schedule {
  intervalMs: number;
  backoff: number;
  maxIntervalMs: number;
}

/** The wait in effect at `t` ms after the first read, and the number of reads up to the one after `t`. */
export function expectedAt(t: number, s: Schedule): { waitMs: number; reads: number } {
  let readAt = 0;
  let wait = s.intervalMs;
  let reads = 1;
  while (readAt + wait <= t) {
    readAt += wait;
    wait = Math.min(s.maxIntervalMs, wait * s.backoff);
    reads++;
  }
  return { waitMs: wait, reads: reads + 1 };
}

interface Trial {
  flipMs: number;
  latencyMs: number;
  reads: number;
  boundMs: number;
  expectedReads: number;
}

async function trials(server: BenchServer, intervalMs: number | undefined): Promise<Trial[]> {
  const channels = createChannelsClient({ apiKey: 'bench-api-key', baseUrl: `${server.url}/v1` });
  const schedule: Schedule = { ...DEFAULT_POLL, ...(intervalMs === undefined ? {} : { intervalMs }) };
  return Promise.all(
    FLIP_DELAYS_MS.map(async (flipMs) => {
      const op = await server.createOperation(flipMs);
      const start = epochMs();
      await waitForOperation(
        channels,
        { channel_id: op.channelId, operation_id: op.operationId },
        intervalMs === undefined ? {} : { intervalMs },
      );
      const resolvedAt = epochMs();
      const reads = await server.operationReads(op.operationId);
      const expected = expectedAt(op.flipAtEpochMs - start, schedule);
      return { flipMs, latencyMs: resolvedAt - op.flipAtEpochMs, reads, boundMs: expected.waitMs, expectedReads: expected.reads };
    }),
  );
}

function rowsOf(name: string, list: Trial[]): Row[] {
  const latencies = list.map((t) => t.latencyMs).sort((a, b) => a - b);
  const over = list.filter((t) => t.latencyMs > t.boundMs + SLACK_MS);
  const detail = list.map((t) => `${t.flipMs}→${t.latencyMs.toFixed(0)} ms/${t.reads} req`).join(', ');
  const extraReads = list.reduce((n, t) => n + (t.reads - t.expectedReads), 0);
  return [
    {
      bench: BENCH,
      name: `${name}: change → resolve (${list.length} flips at ${FLIP_DELAYS_MS[0]}–${FLIP_DELAYS_MS.at(-1)} ms)`,
      medianNs: median(latencies) * 1e6,
      p99Ns: quantile(latencies, 0.99) * 1e6,
      goal: `≤ wait in effect + ${SLACK_MS} ms`,
      pass: over.length === 0,
      note: detail,
    },
    {
      bench: BENCH,
      name: `${name}: requests per wait`,
      value: median(list.map((t) => t.reads)),
      unit: 'req',
      note: `median; ${list.map((t) => t.reads).join('/')} for the flips above; ${extraReads === 0 ? 'as the schedule predicts' : `${extraReads} more than the schedule predicts`}`,
    },
  ];
}

export async function benchPolling(server: BenchServer): Promise<Row[]> {
  const [byDefault, fast] = await Promise.all([trials(server, undefined), trials(server, 100)]);
  return [
    ...rowsOf(`waitForOperation, default (${DEFAULT_POLL.intervalMs} ms ×${DEFAULT_POLL.backoff})`, byDefault),
    ...rowsOf(`waitForOperation, intervalMs: 100 (×${DEFAULT_POLL.backoff})`, fast),
  ];
}
