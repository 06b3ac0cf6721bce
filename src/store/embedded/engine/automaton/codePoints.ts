/**
 * Code points and sets of code points for the automaton library.
 *
 * Characters are Unicode code points, as in Lucene's automata (Character.MIN_CODE_POINT ..
 * Character.MAX_CODE_POINT). JavaScript strings are read like Java's String.codePointAt: a surrogate
 * pair is one code point, a lone surrogate is its own code point (0xD800..0xDFFF).
 *
 * A character set is a sorted list of disjoint, non-adjacent inclusive ranges, flattened:
 * [from0, to0, from1, to1, ...].
 */

export const MAX_CODE_POINT = 0x10ffff;

/** Every code point: Lucene's Automata.makeAnyChar. */
export const ANY_CHAR: readonly number[] = [0, MAX_CODE_POINT];

/** The code point at code unit `i` (Java String.codePointAt). */
export function codePointAt(text: string, i: number): number {
  return text.codePointAt(i)!;
}

/** Code units taken by a code point (Java Character.charCount). */
export function charCount(codePoint: number): number {
  return codePoint > 0xffff ? 2 : 1;
}

/** The code points of a string, as Java's String.codePoints (a lone surrogate is its own). */
export function codePoints(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; ) {
    const c = codePointAt(text, i);
    out.push(c);
    i += charCount(c);
  }
  return out;
}

export function isHighSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xd800 && codeUnit <= 0xdbff;
}

/** Sorts and merges ranges (overlapping or adjacent) into a character set. */
export function normalizeRanges(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [from, to] of pairs) {
    const last = out.length - 1;
    if (last > 0 && from <= out[last] + 1) out[last] = Math.max(out[last], to);
    else out.push(from, to);
  }
  return out;
}

/** The code points of [0, MAX_CODE_POINT] not in the set. */
export function complementRanges(set: readonly number[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i] > next) out.push(next, set[i] - 1);
    next = set[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/**
 * The other case of an ASCII letter, or -1. Elasticsearch 8's AutomatonQueries.toCaseInsensitiveChar
 * and Lucene 9's RegExp ASCII_CASE_INSENSITIVE only look at code points up to 128, where Java's
 * Character.toUpperCase / toLowerCase change exactly the letters A-Z and a-z.
 */
export function asciiOtherCase(codePoint: number): number {
  if (codePoint >= 0x61 && codePoint <= 0x7a) return codePoint - 0x20;
  if (codePoint >= 0x41 && codePoint <= 0x5a) return codePoint + 0x20;
  return -1;
}

/** The set {c} or, case-insensitively, {c, other case of c} (ASCII letters only, as Elasticsearch 8). */
export function charSet(codePoint: number, caseInsensitive: boolean): number[] {
  const other = caseInsensitive ? asciiOtherCase(codePoint) : -1;
  if (other < 0) return [codePoint, codePoint];
  return other < codePoint ? [other, other, codePoint, codePoint] : [codePoint, codePoint, other, other];
}
