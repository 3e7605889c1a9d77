/**
 * A request that breaks its spec (`request-check.ts`), worded as the policy
 * services word it: `body.name is required`, `body: unknown field "colour"`,
 * `body.chain_selector: expected …`, and for parameters `page_size must be
 * …, got "101"`.
 */
import type { RequestProblem } from '../request-check.js';
import { SandboxHttpError } from '../types.js';

export function policyRequestRefusal(problem: RequestProblem): SandboxHttpError {
  const type = problem.status === 404 ? 'NOT_FOUND' : problem.status === 403 ? 'FORBIDDEN' : 'BAD_REQUEST';
  return new SandboxHttpError(problem.status, type, wording(problem));
}

function wording(problem: RequestProblem): string {
  if (problem.kind === 'required') return `${problem.field} is required`;
  if (problem.kind === 'unknown') return `${problem.parent}: unknown field ${JSON.stringify(problem.key)}`;
  if (problem.location === 'body') return `${problem.field}: expected ${problem.expected}`;
  const sent = problem.value === undefined ? '' : `, got ${JSON.stringify(problem.value).slice(0, 100)}`;
  return `${problem.field} must be ${problem.expected}${sent}`;
}
