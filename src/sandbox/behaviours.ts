import { createChannelsBehaviour } from './channels/index.js';
import type { BehaviourContext } from './context.js';
import { createPolicyBehaviours } from './policy/index.js';
import { createStreamsBehaviour } from './streams/index.js';
import type { ApiBehaviour } from './types.js';

/** Every API the sandbox serves, one behaviour each (the three policy APIs share their state). */
export function createBehaviours(context: BehaviourContext): ApiBehaviour[] {
  return [createChannelsBehaviour(context), createStreamsBehaviour(context), ...createPolicyBehaviours(context)];
}
