/**
 * Timers for any duration. `setTimeout` keeps its delay in a signed 32-bit
 * integer: anything above 2^31 − 1 ms (about 24.8 days) fires after about
 * 1 ms instead. Every wait of the SDK (attempt timeouts, the overall
 * deadline, back-off, Retry-After, polling) goes through here, so a long or
 * infinite duration means what it says everywhere: long ones are chained,
 * `Infinity` never fires.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `fire` after `ms` (any number >= 0, or Infinity for never); returns the cancel function. */
export function startTimer(fire: () => void, ms: number): () => void {
  if (ms === Number.POSITIVE_INFINITY) return () => undefined;
  let timer: ReturnType<typeof setTimeout>;
  const arm = (left: number) => {
    timer = setTimeout(left > MAX_TIMER_MS ? () => arm(left - MAX_TIMER_MS) : fire, Math.min(Math.max(0, left), MAX_TIMER_MS));
  };
  arm(ms);
  return () => clearTimeout(timer);
}
