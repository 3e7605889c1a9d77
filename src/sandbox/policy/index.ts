// Placeholder until the behaviour modules land: answers 501 to everything.
import type { BehaviourContext } from '../context.js';
import { SandboxHttpError, type ApiBehaviour, type SandboxApi } from '../types.js';

export function createPolicyBehaviours(_context: BehaviourContext): ApiBehaviour[] {
  return (['policy-coordinator', 'policy-evaluation', 'policy-reporting'] as SandboxApi[]).map((api) => ({
    api,
    handlers: new Proxy({}, { get: () => () => { throw new SandboxHttpError(501, 'NOT_IMPLEMENTED', 'not yet'); } }),
    authenticate: () => 'ok' as const,
    errorAnswer: (error) => ({ status: error.status, body: { error: error.type, message: error.message } }),
    reset: () => undefined,
  }));
}
