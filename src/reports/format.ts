/**
 * An integer scaled by `10^decimals` as an exact decimal string, without
 * floating point: `formatScaled(3000123400000000000000n)` is `'3000.1234'`.
 * Trailing fractional zeros are dropped (`'3000'`, not `'3000.0'`), and a
 * negative value keeps its sign (`'-0.5'`), like viem's `formatUnits`.
 *
 * The report does not say its values' scale: 18 decimals is the usual one
 * (crypto prices are 18-decimal fixed point); a stream whose documentation
 * gives another needs it here. `headlineValues` picks each version's
 * headline fields and scales them in one call.
 *
 * @param decimals Decimal places of `value` (default 18).
 * @throws {RangeError} when `decimals` is not a non-negative safe integer.
 */
export function formatScaled(value: bigint, decimals = 18): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  const negative = value < 0n;
  const sign = negative ? '-' : '';
  let text = (negative ? -value : value).toString();
  if (decimals === 0) return sign + text;
  if (text.length <= decimals) text = '0'.repeat(decimals + 1 - text.length) + text;
  const cut = text.length - decimals;
  let end = text.length;
  while (end > cut && text.charCodeAt(end - 1) === 48) end--;
  return end === cut ? sign + text.slice(0, cut) : `${sign}${text.slice(0, cut)}.${text.slice(cut, end)}`;
}
