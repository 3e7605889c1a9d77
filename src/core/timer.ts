/**
 * Timers for any duration. `setTimeout` keeps its delay in a signed 32-bit
 * integer: anything above 2^31 − 1 ms (about 24.8 days) fires after about
 * 1 ms instead. Every wait of the SDK (attempt timeouts, the overall
 * deadline, back-off, Retry-After, polling) goes through here, so a long or
 * infinite duration means what it says everywhere: long ones are chained,
 * `Infinity` never fires.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TimerOptions {
  /** Whether the pending timer keeps a Node, Bun or Deno process alive. Default true. */
  keepAlive?: boolean;
}

/** Calls `fire` after `ms` (any number >= 0, or Infinity for never); returns the cancel function. */
export function startTimer(fire: () => void, ms: number, options?: TimerOptions): () => void {
  if (ms === Number.POSITIVE_INFINITY) return () => undefined;
  const keepAlive = options?.keepAlive ?? true;
  let timer: ReturnType<typeof setTimeout>;
  const arm = (left: number) => {
    timer = setTimeout(left > MAX_TIMER_MS ? () => arm(left - MAX_TIMER_MS) : fire, Math.min(Math.max(0, left), MAX_TIMER_MS));
    if (!keepAlive) letProcessExit(timer);
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/** Node and Bun timers have `unref()`; Deno has `Deno.unrefTimer(id)`; browsers and workers need neither. */
function letProcessExit(timer: ReturnType<typeof setTimeout>): void {
  if (typeof timer === 'object' && timer !== null && typeof (timer as { unref?: unknown }).unref === 'function') {
    (timer as { unref(): void }).unref();
    return;
  }
  const deno = (globalThis as { Deno?: { unrefTimer?: (id: unknown) => void } }).Deno;
  if (typeof timer === 'number' && typeof deno?.unrefTimer === 'function') deno.unrefTimer(timer);
}
