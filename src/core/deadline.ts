import { startTimer } from './timer.js';

/** A signal that aborts when a caller's signal does or when time runs out; `clear()` releases both. */
export interface Deadline {
  signal: AbortSignal;
  /** True once the timer, not the caller, aborted the signal. */
  timedOut(): boolean;
  clear(): void;
}

/**
 * Links an optional caller signal with a timer, by hand: `AbortSignal.any` +
 * `AbortSignal.timeout` cost about 25 µs per call on Node 20 (measured), more
 * than the rest of a request through the client. `reason` gives the abort
 * reason when the time is up.
 */
export function deadlineAfter(callerSignal: AbortSignal | undefined, ms: number, reason: () => unknown): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const cancelTimer = startTimer(() => {
    timedOut = true;
    controller.abort(reason());
  }, ms);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      cancelTimer();
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
