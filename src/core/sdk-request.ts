/**
 * The Request constructor our clients hand openapi-fetch. It builds a plain
 * Request and notes when the call passed no AbortSignal: then nothing but
 * the SDK's own time limits can abort it, and its attempts can share their
 * deadline's signal (`batched-deadline.ts`). A Request built any other way
 * (a user's middleware, a direct call of the transport) carries no note and
 * is treated as abortable by its caller.
 */
const NO_CALLER_SIGNAL = Symbol('noCallerSignal');

type Noted = Request & { [NO_CALLER_SIGNAL]?: true };

function SdkRequest(input: RequestInfo | URL, init?: RequestInit): Request {
  const request: Noted = new Request(input, init);
  if (init?.signal == null) request[NO_CALLER_SIGNAL] = true;
  return request;
}

// openapi-fetch checks a middleware's Request with `instanceof` this constructor: any Request passes.
Object.defineProperty(SdkRequest, Symbol.hasInstance, { value: (value: unknown) => value instanceof Request });

export const RequestNotingSignal = SdkRequest as unknown as typeof Request;

/** Whether the clients built `request` for a call with no AbortSignal of its own. */
export function noCallerSignal(request: Request): boolean {
  return (request as Noted)[NO_CALLER_SIGNAL] === true;
}
