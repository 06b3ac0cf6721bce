/**
 * Java's number reading where the query string syntaxes use it: Float.parseFloat (boosts, slops,
 * fuzzy distances) and the (int) cast of a float.
 */

/** Float.parseFloat on decimal text (optional sign, exponent, f/d suffix, surrounding control characters and spaces); NaN where Java throws. */
export function javaParseFloat(text: string): number {
  // eslint-disable-next-line no-control-regex
  const t = text.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  if (!/^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/.test(t)) return NaN;
  return Math.fround(Number(t.replace(/[fFdD]$/, '')));
}

/** Java's (int) cast of a float: truncation, NaN to 0, saturating. */
export function javaInt(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(value)));
}
