/**
 * The sandbox's answer to one request that MSW intercepted, as a `Response`
 * MSW can give back. `sandbox.fetch` rejects where a server would have no
 * answer to give (a request it cannot serve, a dropped connection, a
 * broken answer); under MSW each becomes what the application would meet
 * from a server, so a test fails with the reason instead of a hang or a
 * request sent on to the network.
 */
import { failureAnswer } from '../failure-answer.js';
import { SANDBOX_PROBE_HEADER } from '../../streams/report-stream/sandbox-link.js';

export { SANDBOX_USAGE_ERROR_TYPE } from '../failure-answer.js';

/** What of a sandbox an answer needs (the type, not the module: the sandbox itself imports its HTTP edges). */
interface Dispatching {
  fetch(request: Request): Promise<Response>;
  dispatch(request: Request, listening: boolean): Promise<Response>;
}

/**
 * `request` answered by the sandbox at `url`: the request itself when the URL
 * stays, else a request with its method, headers, body and signal at `url`.
 */
export async function answerFromSandbox(sandbox: Dispatching, request: Request, url = request.url): Promise<Response> {
  const target = url === request.url ? request : new Request(url, await handOver(request));
  try {
    // MSW's request is its own copy of the application's, read by nobody after: dispatched as it is, where
    // sandbox.fetch would copy it once more (a Request, and an AbortSignal that follows this one's).
    // A report stream's probe goes through sandbox.fetch, which recognises it (see in-process-link.ts).
    return await (target.headers.has(SANDBOX_PROBE_HEADER) ? sandbox.fetch(target) : sandbox.dispatch(target, false));
  } catch (error) {
    const answer = failureAnswer(error, request.signal.aborted);
    // No answer: MSW's network error, as a closed connection would be.
    return answer === 'no answer' ? Response.error() : answer;
  }
}

/** What a request at another URL takes from `request` (its body read, so that no stream is handed on). */
function handOver(request: Request): Promise<RequestInit> | RequestInit {
  const { method, headers, signal } = request;
  if (method === 'GET' || method === 'HEAD') return { method, headers, signal };
  return request.arrayBuffer().then((body) => ({ method, headers, body, signal }));
}
