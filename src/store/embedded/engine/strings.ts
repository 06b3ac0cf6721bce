/**
 * Lucene orders terms (and keyword doc values) by their UTF-8 bytes. For valid Unicode strings that
 * is the order of code points, which differs from JavaScript's UTF-16 code unit order for characters
 * above U+FFFF against U+E000..U+FFFF. Lone surrogates (invalid UTF-16) are compared as code units.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Both in the surrogate range or both outside it: code unit order is code point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs === ys) return x - y;
    // A surrogate (a supplementary code point, U+10000 and up) sorts after any BMP code point.
    return xs ? 1 : -1;
  }
  return a.length - b.length;
}
