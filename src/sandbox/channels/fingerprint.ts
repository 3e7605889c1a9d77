/**
 * Whether two request bodies are "the same body" for deduplication: the same
 * JSON value whatever the order of object keys, as a re-serialised retry may
 * reorder them.
 */
export function fingerprint(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
