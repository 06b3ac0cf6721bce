import fc from 'fast-check';
import { Bitset, bitsToDocs, countBits, hasBit, nextSetBit, popcount, wordsFor } from './bitset';

describe('bitsets', () => {
  it('count bits of a word', () => {
    expect(popcount(0)).toBe(0);
    expect(popcount(0xffffffff)).toBe(32);
    expect(popcount(0x80000001)).toBe(2);
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (w) => expect(popcount(w)).toBe(w.toString(2).split('1').length - 1)));
  });

  it('grow, add, delete, count and list like a Set of numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3000 }))), (ops) => {
        const bits = new Bitset();
        const set = new Set<number>();
        for (const [add, n] of ops) {
          if (add) {
            bits.add(n);
            set.add(n);
          } else {
            expect(bits.delete(n)).toBe(set.delete(n));
          }
        }
        const sorted = [...set].sort((a, b) => a - b);
        expect(bits.size).toBe(set.size);
        expect([...bits]).toEqual(sorted);
        expect(countBits(bits.words)).toBe(set.size);
        const out = new Int32Array(set.size);
        expect(bitsToDocs(bits.words, out)).toBe(set.size);
        expect([...out]).toEqual(sorted);
        for (const n of [0, 31, 32, 1000, 5000]) expect(bits.has(n)).toBe(set.has(n));
        expect(nextSetBit(bits.words, 33)).toBe(sorted.find((n) => n >= 33) ?? -1);
      }),
    );
  });

  it('read past the end as empty', () => {
    const words = new Uint32Array(1);
    expect(hasBit(words, 100)).toBe(false);
    expect(nextSetBit(words, 64)).toBe(-1);
    expect(wordsFor(33)).toBe(2);
  });
});
