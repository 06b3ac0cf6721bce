import { asciiOtherCase, charCount, charSet, codePointAt, complementRanges, isHighSurrogate, MAX_CODE_POINT, normalizeRanges } from './codePoints';

describe('codePoints', () => {
  test('code points of JavaScript strings, as Java reads them', () => {
    expect(codePointAt('a😀', 1)).toBe(0x1f600);
    expect(codePointAt('a😀', 2)).toBe(0xde00); // inside a pair: the low surrogate
    expect(codePointAt('\ud800a', 0)).toBe(0xd800); // a lone surrogate is its own code point
    expect(charCount(0x1f600)).toBe(2);
    expect(charCount(0xffff)).toBe(1);
    expect(isHighSurrogate(0xd83d)).toBe(true);
    expect(isHighSurrogate(0xde00)).toBe(false);
  });

  test('normalizeRanges sorts and merges overlapping and adjacent ranges', () => {
    expect(normalizeRanges([5, 6, 1, 2, 3, 3, 10, 12, 11, 20])).toEqual([1, 3, 5, 6, 10, 20]);
    expect(normalizeRanges([4, 4, 1, 3, 5, 9])).toEqual([1, 9]);
    expect(normalizeRanges([])).toEqual([]);
  });

  test('complementRanges covers the rest of [0, MAX_CODE_POINT]', () => {
    expect(complementRanges([])).toEqual([0, MAX_CODE_POINT]);
    expect(complementRanges([0, MAX_CODE_POINT])).toEqual([]);
    expect(complementRanges([0, 9, 20, 30])).toEqual([10, 19, 31, MAX_CODE_POINT]);
    expect(complementRanges([5, MAX_CODE_POINT])).toEqual([0, 4]);
  });

  test('ASCII case: only A-Z and a-z have another case (Elasticsearch 8, Lucene 9)', () => {
    expect(asciiOtherCase(0x61)).toBe(0x41);
    expect(asciiOtherCase(0x5a)).toBe(0x7a);
    expect(asciiOtherCase(0x40)).toBe(-1);
    expect(asciiOtherCase(0xe9)).toBe(-1); // é
    expect(charSet(0x62, true)).toEqual([0x42, 0x42, 0x62, 0x62]);
    expect(charSet(0x62, false)).toEqual([0x62, 0x62]);
    expect(charSet(0xc9, true)).toEqual([0xc9, 0xc9]);
  });
});
