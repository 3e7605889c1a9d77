/**
 * Helpers of the tests that stream live reports from a sandbox: a polling
 * wait with a deadline (never a bare sleep), and "stream until N reports
 * came", moving the sandbox's clock a second at a time.
 */
import type { Sandbox } from '../../src/sandbox/index.js';
import { streamReports, type Report, type ReportStreamEvent, type ReportStreamOptions, type StreamsClient } from '../../src/streams/index.js';

/** Polls `condition` every 10 ms; fails naming `what` after `timeoutMs` (generous: the suite also runs on a loaded machine). */
export async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
    await until(() => events.some((event) => event.type === 'connected'), 'a connection');
    await until(() => {
      if (received.length < count) sandbox.advance(1_000);
      return received.length >= count;
    }, `${count} reports`);
  } finally {
    await stream.close();
    await done;
  }
  return { received, events };
}
