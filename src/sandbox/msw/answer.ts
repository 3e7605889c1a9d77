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

/** `type` of the 404 answer for a request the sandbox cannot serve (its `message` says why). */
export const SANDBOX_USAGE_ERROR_TYPE = 'SANDBOX_USAGE_ERROR';

/**
 * `request` answered by the sandbox at `url`: the request itself when the URL
 * stays, else its method, headers, body and signal at the new URL (one
 * `Request` made, by `sandbox.fetch`).
 */
export async function answerFromSandbox(sandbox: Pick<Sandbox, 'fetch'>, request: Request, url = request.url): Promise<Response> {
  const init = url === request.url ? undefined : await handOver(request);
  try {
    return await (init === undefined ? sandbox.fetch(request) : sandbox.fetch(url, init));
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

function handOver(request: Request): Promise<RequestInit> | RequestInit {
  const { method, headers, signal } = request;
  if (method === 'GET' || method === 'HEAD') return { method, headers, signal };
  return request.arrayBuffer().then((body) => ({ method, headers, body, signal }));
}
