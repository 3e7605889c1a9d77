import type { StreamsClient } from '../client.js';
import { httpUrlOf } from './origins.js';
import { SANDBOX_PROBE_HEADER, sandboxRegistry, type SandboxStreamLink } from './sandbox-link.js';

/** Where a client's `fetch` led a probe: to a sandbox of this process, to something else that answered, or nowhere that can be told. */
export type ProbeResult =
  | { readonly kind: 'sandbox'; readonly link: SandboxStreamLink }
  | { readonly kind: 'elsewhere' }
  | { readonly kind: 'unknown'; readonly error: unknown };

let probes = 0;

/**
 * Sends `HEAD /` of the WebSocket host (the origins request, harmless
 * anywhere) through the client, so through its `fetch` and whatever wraps
 * it, with a fresh token in `SANDBOX_PROBE_HEADER`. A sandbox of this
 * process that receives it hands over its link (in-process-link.ts), even
 * if it then answers with a fault. An answer no sandbox saw means the
 * `fetch` leads elsewhere; a failure no sandbox saw cannot be told apart.
 */
export async function probeForSandbox(client: StreamsClient, wsUrl: string, signal: AbortSignal, timeoutMs: number): Promise<ProbeResult> {
  // Unique within the process, which is all a token must be: only this process's sandboxes read it.
  const token = `${++probes}-${Math.random().toString(36).slice(2)}`;
  const registry = sandboxRegistry();
  let link: SandboxStreamLink | undefined;
  registry.probes.set(token, (found) => {
    link = found;
  });
  try {
    const { response } = await client.HEAD('/', {
      baseUrl: httpUrlOf(wsUrl),
      signal,
      deadlineMs: timeoutMs,
      headers: { [SANDBOX_PROBE_HEADER]: token },
    });
    await response.body?.cancel().catch(() => undefined);
  } catch (error) {
    if (signal.aborted) throw error;
    if (link === undefined) return { kind: 'unknown', error };
  } finally {
    registry.probes.delete(token);
  }
  return link === undefined ? { kind: 'elsewhere' } : { kind: 'sandbox', link };
}
