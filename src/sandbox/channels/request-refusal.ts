/**
 * A request that breaks its spec (`request-check.ts`), worded as the channels
 * service words it: the field, then what is wrong (`body.labels: unknown
 * field`, `body.name: required`, `query parameter limit: expected …`).
 */
import type { RequestProblem } from '../request-check.js';
import { SandboxHttpError } from '../types.js';
import type { ErrorCode } from './model.js';

/** A malformed identifier names nothing: the lookup's `404`, with its code. */
const NOT_FOUND_CODES: Readonly<Record<string, ErrorCode>> = {
  wallet_id: 'WALLET_NOT_FOUND',
  channel_id: 'CHANNEL_NOT_FOUND',
  watcher_id: 'WATCHER_NOT_FOUND',
  operation_id: 'OPERATION_NOT_FOUND',
  query_id: 'QUERY_NOT_FOUND',
};

export function channelsRequestRefusal(problem: RequestProblem): SandboxHttpError {
  const field = problem.location === 'body' ? problem.field : `${problem.location} parameter ${problem.field}`;
  const what = problem.kind === 'required' ? 'required' : problem.kind === 'unknown' ? 'unknown field' : `expected ${problem.expected}`;
  if (problem.status === 404) return new SandboxHttpError(404, 'NOT_FOUND', `${field}: ${what}`, NOT_FOUND_CODES[problem.field]);
  return new SandboxHttpError(problem.status, 'VALIDATION_ERROR', `${field}: ${what}`);
}
