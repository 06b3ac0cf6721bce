import fc from 'fast-check';
import { Matches, advance } from './matches';

describe('Matches', () => {
  it('converts between bitsets and lists', () => {
    const bits = new Uint32Array(2);
    bits[0] = 0b1010;
    bits[1] = 1;
    const m = Matches.bitsCounted(bits, 2);
    expect(m.size).toBe(3);
    expect([...m.docList()]).toEqual([1, 3, 32]);
    expect(m.toList().constant).toBe(2);
    expect(m.has(32)).toBe(true);
    expect(m.withConstant(2)).toBe(m);
    expect(m.withConstant(0).constant).toBe(0);
    const list = Matches.list(Int32Array.of(4, 9, 0), 2, Float32Array.of(1.5, 2.5, 0));
    expect([...list.docList()]).toEqual([4, 9]);
    expect(list.scoreAt(1)).toBe(2.5);
    expect(list.has(9)).toBe(true);
    expect(list.has(0)).toBe(false);
  });

  it('advances like a linear search', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 500 })), fc.integer({ min: 0, max: 510 }), fc.nat(), (values, target, start) => {
        const docs = Int32Array.from(values.sort((a, b) => a - b));
        const from = Math.min(start % (docs.length + 1), docs.length);
        let expected = from;
        while (expected < docs.length && docs[expected] < target) expected++;
        expect(advance(docs, from, docs.length, target)).toBe(expected);
      }),
    );
  });
});
