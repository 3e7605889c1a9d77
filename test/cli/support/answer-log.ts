// What reached the sandbox: every answer it gave, by operation, recorded
// through its answer validator (which still checks each answer against the
// specs). For tests that must prove a command sent nothing, or how often a
// wait read.
import type { SandboxOptions } from '../../../src/sandbox/index.js';
import { sandboxValidator } from '../../support/sandbox-validator.js';

export interface AnswerLog {
  /** Options for `useListeningSandbox`/`createSandbox`: the validator that records. */
  readonly options: Pick<SandboxOptions, 'validate'>;
  /** How many requests for `operationId` the sandbox has answered so far. */
  count(operationId: string): number;
}

/** A log of the sandbox's answers (operationIds, in order), kept across the sandboxes it is given to. */
export function answerLog(): AnswerLog {
  const answered: string[] = [];
  const check = sandboxValidator();
  return {
    options: {
      validate: (answer) => {
        answered.push(answer.operationId);
        check(answer);
      },
    },
    count: (operationId) => answered.filter((id) => id === operationId).length,
  };
}
