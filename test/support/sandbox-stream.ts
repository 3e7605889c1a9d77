/**
 * Helpers of the tests that stream live reports from a sandbox: how long
 * they wait for an event (with report-stream.ts's `waitFor`, never a bare
 * sleep), and "stream until N reports came", moving the sandbox's clock a
 * second at a time.
 */
import type { Sandbox } from '../../src/sandbox/index.js';
import { waitFor } from './report-stream.js';
import { streamReports, type Report, type ReportStreamEvent, type ReportStreamOptions, type StreamsClient } from '../../src/streams/index.js';

/** How long a sandbox stream test waits for an event (generous: the suite also runs on a loaded machine). */
export const STREAM_WAIT_MS = 15_000;

/**
 * Streams `feedIDs` on `client` until `count` reports arrived, moving
 * `sandbox`'s clock a second at a time once the stream is connected; closes
 * the stream and returns the reports and the stream's events.
 */
export async function streamFromSandbox(
  sandbox: Sandbox,
  client: StreamsClient,
  feedIDs: readonly string[],
  count: number,
  options: ReportStreamOptions = {},
): Promise<{ received: Report[]; events: ReportStreamEvent[] }> {
  const events: ReportStreamEvent[] = [];
  const stream = streamReports(client, [...feedIDs], { onStatus: (event) => events.push(event), ...options });
  const received: Report[] = [];
  const done = (async () => {
    for await (const report of stream) received.push(report);
  })();
  try {
    await waitFor(() => events.some((event) => event.type === 'connected'), 'a connection', STREAM_WAIT_MS);
    await waitFor(() => {
      if (received.length < count) sandbox.advance(1_000);
      return received.length >= count;
    }, `${count} reports`, STREAM_WAIT_MS);
  } finally {
    await stream.close();
    await done;
  }
  return { received, events };
}
