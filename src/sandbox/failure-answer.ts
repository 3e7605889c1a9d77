/**
 * What a server answers when the sandbox cannot serve a request, one mapping
 * for every HTTP edge (the listener and the MSW handlers alike):
 * - a `drop` fault, or a request aborted by its sender: no answer at all;
 * - a request the sandbox will not serve (a SandboxUsageError): 404
 *   `{ type: 'SANDBOX_USAGE_ERROR', message }`, which the SDK's clients read
 *   into an ApiError carrying the usage error's words;
 * - anything else (a SandboxViolationError, kept in `sandbox.violations` too,
 *   or a failure of the sandbox itself): 500 `{ type: 'SANDBOX_ERROR', message }`,
 *   loud, and never a crashed process.
 */
import { SandboxUsageError } from './errors.js';
import { InjectedDrop } from './faults.js';

/** `type` of the 404 answer for a request the sandbox cannot serve (its `message` says why). */
export const SANDBOX_USAGE_ERROR_TYPE = 'SANDBOX_USAGE_ERROR';
/** `type` of the 500 answer when the sandbox itself failed. */
export const SANDBOX_ERROR_TYPE = 'SANDBOX_ERROR';

/** The answer to a request whose dispatch failed with `error`; `'no answer'` when the connection is to be closed. */
export function failureAnswer(error: unknown, aborted: boolean): Response | 'no answer' {
  if (error instanceof InjectedDrop || aborted) return 'no answer';
  if (error instanceof SandboxUsageError) return Response.json({ type: SANDBOX_USAGE_ERROR_TYPE, message: error.message }, { status: 404 });
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return Response.json({ type: SANDBOX_ERROR_TYPE, message: `${name}: ${message}` }, { status: 500 });
}
