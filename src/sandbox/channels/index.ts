// Placeholder until the behaviour module lands: answers 501 to everything.
import type { BehaviourContext } from '../context.js';
import { SandboxHttpError, type ApiBehaviour } from '../types.js';

export function createChannelsBehaviour(_context: BehaviourContext): ApiBehaviour {
  return {
    api: 'channels',
    handlers: new Proxy({}, { get: () => () => { throw new SandboxHttpError(501, 'NOT_IMPLEMENTED', 'not yet'); } }),
    authenticate: () => 'ok',
    errorAnswer: (error) => ({ status: error.status, body: { type: error.type, message: error.message } }),
    reset: () => undefined,
  };
}
