/**
 * The sandbox's answer to one request that MSW intercepted, as a `Response`
 * MSW can give back. `sandbox.fetch` rejects where a server would have no
 * answer to give (a request it cannot serve, a dropped connection, a
 * broken answer); under MSW each becomes what the application would meet
 * from a server, so a test fails with the reason instead of a hang or a
 * request sent on to the network.
 */
import type { Sandbox } from '../sandbox.js';
import { SandboxUsageError } from '../errors.js';
import { InjectedDrop } from '../faults.js';
import { SANDBOX_PROBE_HEADER } from '../../streams/report-stream/sandbox-link.js';

/** `type` of the 404 answer for a request the sandbox cannot serve (its `message` says why). */
export const SANDBOX_USAGE_ERROR_TYPE = 'SANDBOX_USAGE_ERROR';

/**
 * `request` answered by the sandbox at `url`: the request itself when the URL
 * stays, else a request with its method, headers, body and signal at `url`.
 */
export async function answerFromSandbox(sandbox: Pick<Sandbox, 'fetch' | 'dispatch'>, request: Request, url = request.url): Promise<Response> {
  const target = url === request.url ? request : new Request(url, await handOver(request));
  try {
    // MSW's request is its own copy of the application's, read by nobody after: dispatched as it is, where
    // sandbox.fetch would copy it once more (a Request, and an AbortSignal that follows this one's).
    // A report stream's probe goes through sandbox.fetch, which recognises it (see in-process-link.ts).
    return await (target.headers.has(SANDBOX_PROBE_HEADER) ? sandbox.fetch(target) : sandbox.dispatch(target, false));
  } catch (error) {
    // A `drop` fault closes the connection; an aborted request has nobody to answer.
    if (error instanceof InjectedDrop || request.signal.aborted) return Response.error();
    // `{ type, message }`: the SDK's clients read it into an ApiError with that message.
    if (error instanceof SandboxUsageError) return Response.json({ type: SANDBOX_USAGE_ERROR_TYPE, message: error.message }, { status: 404 });
    // A SandboxViolationError (kept in sandbox.violations too) or a failure of the sandbox itself: loud, as the listener answers it.
    const name = error instanceof Error ? error.name : 'Error';
    const message = error instanceof Error ? error.message : String(error);
    return Response.json({ type: 'SANDBOX_ERROR', message: `${name}: ${message}` }, { status: 500 });
  }
}

/** What a request at another URL takes from `request` (its body read, so that no stream is handed on). */
function handOver(request: Request): Promise<RequestInit> | RequestInit {
  const { method, headers, signal } = request;
  if (method === 'GET' || method === 'HEAD') return { method, headers, signal };
  return request.arrayBuffer().then((body) => ({ method, headers, body, signal }));
}
