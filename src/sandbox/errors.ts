import { SdkError } from '../core/errors.js';

/**
 * The sandbox gave (or was about to give) an answer its spec does not allow,
 * or one of its handlers failed. A sandbox that answers wrongly would make
 * users' tests pass for the wrong reasons, so this is loud: the request
 * fails with this error and `sandbox.violations` keeps it.
 */
export class SandboxViolationError extends SdkError {
  override name = 'SandboxViolationError';
  constructor(
    readonly operation: string,
    readonly problem: string,
  ) {
    super(`sandbox answer of ${operation} violates its spec: ${problem}`);
  }
}

/** A sandbox option or call was malformed. */
export class SandboxUsageError extends SdkError {
  override name = 'SandboxUsageError';
}
