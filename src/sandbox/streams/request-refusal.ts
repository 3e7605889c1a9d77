/**
 * A request that breaks its spec (`request-check.ts`), as the report API
 * answers it: `MISSING_QUERY_ARGUMENT` or `INVALID_QUERY_ARGUMENT`, naming
 * the argument.
 */
import type { RequestProblem } from '../request-check.js';
import { SandboxHttpError } from '../types.js';

export function streamsRequestRefusal(problem: RequestProblem): SandboxHttpError {
  if (problem.kind === 'required') {
    return new SandboxHttpError(problem.status, 'BAD_REQUEST', `the query argument ${problem.field} is required`, 'MISSING_QUERY_ARGUMENT');
  }
  const code = problem.location === 'query' ? 'INVALID_QUERY_ARGUMENT' : undefined;
  return new SandboxHttpError(problem.status, 'BAD_REQUEST', `${problem.field} must be ${problem.expected}`, code);
}
