/**
 * Times as people read them: a field named like a time (`created_at`,
 * `observationsTimestamp`, `expiresAt`) holding epoch seconds (or
 * milliseconds, past 1e12) is shown as ISO 8601. Used where the command line
 * prints for people (tables, decoded reports); JSON output keeps the
 * service's values.
 */
const TIME_FIELD = /(Timestamp|At|_at|_time|_timestamp)$/;

export function isTimeField(key: string): boolean {
  return TIME_FIELD.test(key);
}

/** `value` as ISO 8601 when it is an epoch time in seconds or milliseconds; else undefined. */
export function epochToIso(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return new Date(value < 1e12 ? value * 1000 : value).toISOString();
}
