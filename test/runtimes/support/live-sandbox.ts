// The sandbox, listening on 127.0.0.1 in the test process, for the runtimes
// that stream reports live (Node, Bun, Deno): `streamReports` in the user
// script connects to its WebSocket host (two origins) and reads its REST API.
// And what the user script's sandbox checks must find: the reports the
// sandbox publishes are a function of the stream and the second alone, so
// Node's copy of the sandbox says which report any runtime must have received.
import { createSandbox, type Sandbox, type SandboxListener } from '../../../src/sandbox/index.js';
import { findStream, reportAt, SANDBOX_STREAMS } from '../../../src/sandbox/streams/index.js';
import { decodeReport } from '../../../src/reports/index.js';
import { canonical } from './canonical.mjs';
import type { LiveStreamTarget } from './user-script.mjs';

/** ETH/USD, a V3 stream with a report every second. */
export const LIVE_FEED_ID = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

/**
 * Sandbox ms per real ms: a new report every 100 ms (the socket server's
 * tick), so two arrive in a few hundred ms. Signatures are checked against the
 * real clock, so the pace does not affect them.
 */
const PACE = 10;

export interface LiveSandbox {
  target: LiveStreamTarget;
  /** Stops the listener and the sandbox. */
  close(): Promise<void>;
}

export async function startLiveSandbox(): Promise<LiveSandbox> {
  const sandbox: Sandbox = createSandbox({ pace: PACE });
  let listener: SandboxListener;
  try {
    listener = await sandbox.listen();
  } catch (error) {
    sandbox.close();
    throw error;
  }
  return {
    target: {
      streamsUrl: listener.baseUrls.streams,
      wsUrl: listener.url.replace(/^http/, 'ws'),
      ...sandbox.credentials.streams,
      feedID: LIVE_FEED_ID,
    },
    async close() {
      await listener.close();
      sandbox.close();
    },
  };
}

/** The first stream discovery lists to a signed client (hidden streams are listed only when asked for). */
export const FIRST_DISCOVERED_FEED_ID = SANDBOX_STREAMS.find((stream) => stream.record.hidden !== true)!.record.feedID;

/** What the user script returns for a sandbox report it got: the sandbox's report of that second, and its decoding as Node decodes it. */
export function sandboxReport(feedID: string, observationsTimestamp: number): { fullReport: string; decoded: string } {
  const { fullReport } = reportAt(findStream(feedID)!, observationsTimestamp);
  return { fullReport, decoded: canonical(decodeReport(fullReport, feedID)) };
}
