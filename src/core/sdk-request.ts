import type { CallContext } from './call-options.js';

/**
 * The Request constructor our clients hand openapi-fetch. It builds a plain
 * Request and notes when the call passed no AbortSignal: then nothing but
 * the SDK's own time limits can abort it, and its attempts can share their
 * deadline's signal (`batched-deadline.ts`). A Request built any other way
 * (a user's middleware, a direct call of the transport) carries no note and
 * is treated as abortable by its caller.
 */
const NO_CALLER_SIGNAL = Symbol('noCallerSignal');
/**
 * The call's context (its operation, its own options, its attempts), put in
 * the request init by the client's call wrapper under this symbol: openapi-fetch
 * spreads the init it is given into the one it builds the Request with.
 */
export const CALL_CONTEXT = Symbol('callContext');

type Noted = Request & { [NO_CALLER_SIGNAL]?: true; [CALL_CONTEXT]?: CallContext };

function SdkRequest(input: RequestInfo | URL, init?: RequestInit & { [CALL_CONTEXT]?: CallContext }): Request {
  const request: Noted = new Request(input, init);
  if (init?.signal == null) request[NO_CALLER_SIGNAL] = true;
  const context = init?.[CALL_CONTEXT];
  if (context !== undefined) request[CALL_CONTEXT] = context;
  return request;
}

/** The context of the call `request` was built for, when one of our clients built it. */
export function callContextOfRequest(request: Request): CallContext | undefined {
  return (request as Noted)[CALL_CONTEXT];
}

// openapi-fetch checks a middleware's Request with `instanceof` this constructor: any Request passes.
Object.defineProperty(SdkRequest, Symbol.hasInstance, { value: (value: unknown) => value instanceof Request });

export const RequestNotingSignal = SdkRequest as unknown as typeof Request;

/** Whether the clients built `request` for a call with no AbortSignal of its own. */
export function noCallerSignal(request: Request): boolean {
  return (request as Noted)[NO_CALLER_SIGNAL] === true;
}
