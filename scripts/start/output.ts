/**
 * How `npm start` prints: one line per step with its duration, values a
 * reader understands (prices with their unit, ISO dates, ms or s), and the
 * status changes a wait went through with when each was seen.
 */

/** `850 ms`, `2.4 s`. */
export function duration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

/** Unix seconds as an ISO date (UTC), without milliseconds. */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1_000).toISOString().replace('.000Z', 'Z');
}

/** An exact decimal string with its integer part grouped by thousands: `3,012.5`. */
export function grouped(decimal: string): string {
  const [whole = '0', fraction] = decimal.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${digits}${fraction ? `.${fraction}` : ''}`;
}

/** One step: what ran, how long it took, what came back. A failure prints its reason and rethrows. */
export async function step<T>(api: string, title: string, run: () => Promise<T>, describe: (result: T) => string): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    console.log(`  ✓ ${api.padEnd(9)} ${title.padEnd(46)} ${duration(performance.now() - started).padStart(7)}  ${describe(result)}`);
    return result;
  } catch (error) {
    console.log(`  ✗ ${api.padEnd(9)} ${title.padEnd(46)} ${duration(performance.now() - started).padStart(7)}  ${(error as Error).message}`);
    throw error;
  }
}

export function note(text: string): void {
  console.log(`    ${text}`);
}

/**
 * Collects the statuses a wait saw, each with the time since the trail
 * started: `accepted 0 ms → sending 110 ms → … → confirmed 1.2 s`.
 */
export function statusTrail(): { onStatus: (status: string) => void; toString: () => string } {
  const started = performance.now();
  const seen: string[] = [];
  return {
    onStatus: (status) => seen.push(`${status} ${duration(performance.now() - started)}`),
    toString: () => seen.join(' → '),
  };
}
