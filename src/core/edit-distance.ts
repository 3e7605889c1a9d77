/**
 * Levenshtein distance of `a` and `b`, for "did you mean" suggestions (the
 * sandbox's fault names, the command line's names and flags). Stops early at
 * `limit`: any distance of `limit` or more comes back as `limit`, as good as
 * too far.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      rowBest = Math.min(rowBest, current[j]!);
    }
    if (rowBest >= limit) return limit;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit);
}
