import { createChannelsBehaviour } from './channels/index.js';
import type { BehaviourContext } from './context.js';
import type { PreparedSeed } from './seed.js';
import { createPolicyBehaviours } from './policy/index.js';
import { createStreamsBehaviour } from './streams/index.js';
import type { ApiBehaviour } from './types.js';

/** Every API the sandbox serves, one behaviour each (the three policy APIs share their state), with the user's seed where given. */
export function createBehaviours(context: BehaviourContext, seed?: PreparedSeed): ApiBehaviour[] {
  return [createChannelsBehaviour(context, { seed: seed?.channels }), createStreamsBehaviour(context), ...createPolicyBehaviours(context)];
}
