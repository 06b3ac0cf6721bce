import { byte4ToInt, int4ToLong, intToByte4, longToInt4 } from './smallFloat';

describe('SmallFloat (Lucene 9 intToByte4 / byte4ToInt)', () => {
  it('stores lengths below 41 exactly', () => {
    for (let i = 0; i <= 40; i++) expect(byte4ToInt(intToByte4(i))).toBe(i);
  });

  it('is lossy from 41 on, rounding down to a representable length', () => {
    // 41 - 24 = 17 = 0b10001: keeping 4 significant bits gives 16, so 24 + 16 = 40
    expect(intToByte4(41)).toBe(40);
    expect(byte4ToInt(intToByte4(41))).toBe(40);
    expect(byte4ToInt(intToByte4(42))).toBe(42);
    // 100 - 24 = 76 = 0b1001100 -> 0b1001000 = 72, so 96
    expect(byte4ToInt(intToByte4(100))).toBe(96);
    for (let i = 0; i < 100_000; i += 7) {
      const decoded = byte4ToInt(intToByte4(i));
      expect(decoded).toBeLessThanOrEqual(i);
      expect(intToByte4(decoded)).toBe(intToByte4(i));
    }
  });

  it('is monotonic and uses the whole byte', () => {
    let previous = -1;
    for (let b = 0; b < 256; b++) {
      const length = byte4ToInt(b);
      expect(length).toBeGreaterThan(previous);
      previous = length;
    }
    expect(intToByte4(0x7fffffff)).toBe(255);
    // 255 - 24 = 231: mantissa 0b111 with the implicit bit, shift 27: 15 * 2^27, plus 24
    expect(byte4ToInt(255)).toBe(15 * 2 ** 27 + 24);
  });

  it('encodes small values as subnormals', () => {
    expect(longToInt4(0)).toBe(0);
    expect(longToInt4(7)).toBe(7);
    expect(longToInt4(8)).toBe(8); // shift 0: (8 & 7) | (1 << 3)
    expect(int4ToLong(longToInt4(15))).toBe(15);
  });
});
