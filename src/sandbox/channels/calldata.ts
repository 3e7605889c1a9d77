/**
 * The `execution_values` of a transaction's preview: its calldata's
 * arguments decoded by the preview's function signature. Only static
 * argument types (address, bool, intN, uintN, bytesN) are decoded, named
 * `arg0`, `arg1`, … since a signature carries no parameter names; anything
 * else (dynamic types, tuples, calldata that does not fit the signature)
 * gives no values rather than wrong ones.
 */
export function executionValues(functionSignature: string, data: string): Record<string, string | boolean> {
  const match = /^[A-Za-z_$][A-Za-z0-9_$]*\(([^()]*)\)$/.exec(functionSignature.trim());
  if (match === null) return {};
  const types = match[1] === '' ? [] : match[1]!.split(',').map((type) => type.trim());
  const hex = data.replace(/^0x/, '').toLowerCase();
  if (hex.length !== 8 + 64 * types.length) return {};
  const values: Record<string, string | boolean> = {};
  for (const [index, type] of types.entries()) {
    const value = decodeWord(type, hex.slice(8 + 64 * index, 8 + 64 * (index + 1)));
    if (value === undefined) return {};
    values[`arg${index}`] = value;
  }
  return values;
}

function decodeWord(type: string, word: string): string | boolean | undefined {
  if (type === 'address') return `0x${word.slice(24)}`;
  if (type === 'bool') return BigInt(`0x${word}`) !== 0n;
  const integer = /^(u?)int([0-9]*)$/.exec(type);
  if (integer !== null) {
    const unsigned = BigInt(`0x${word}`);
    if (integer[1] === 'u') return unsigned.toString();
    return (unsigned >= 1n << 255n ? unsigned - (1n << 256n) : unsigned).toString();
  }
  const fixedBytes = /^bytes([0-9]{1,2})$/.exec(type);
  if (fixedBytes !== null) {
    const size = Number(fixedBytes[1]);
    return size >= 1 && size <= 32 ? `0x${word.slice(0, size * 2)}` : undefined;
  }
  return undefined;
}
