// Shared by the user's script (in each runtime) and the fixtures made in Node:
// both must write a decoding the same way for the comparison to mean anything.

/** JSON text with object keys sorted and bigints written as `<digits>n`, so two decodings compare as strings. */
export function canonical(value) {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    }
    return v;
  });
}
