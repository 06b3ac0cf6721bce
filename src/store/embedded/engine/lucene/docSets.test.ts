import fc from 'fast-check';
import { Bitset } from '../bitset';
import { bitsFrom, fromIterable, unionOfPostings } from './docSets';

describe('leaf document sets', () => {
  it('unite posting lists from a document on, skipping dead documents, as lists or bitsets', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }), { maxLength: 5 }), fc.uniqueArray(fc.integer({ min: 0, max: 200 })), fc.integer({ min: 0, max: 210 }), (lists, dead, fromDoc) => {
        const present = new Bitset();
        for (let d = 0; d <= 200; d++) present.add(d);
        for (const d of dead) present.delete(d);
        const sorted = lists.map((l) => Int32Array.from(l.sort((a, b) => a - b)));
        const m = unionOfPostings(sorted, { present, deleted: dead.length }, fromDoc, 201);
        const expected = [...new Set(lists.flat())].filter((d) => d >= fromDoc && !dead.includes(d)).sort((a, b) => a - b);
        expect([...m.docList()]).toEqual(expected);
        expect(m.size).toBe(expected.length);
      }),
    );
  });

  it('read unsorted iterables and bitsets from a document on', () => {
    expect([...fromIterable([5, 1, 5, 3], 2).docList()]).toEqual([3, 5]);
    const bits = new Bitset();
    for (const d of [1, 31, 32, 33, 64]) bits.add(d);
    expect([...bitsFrom(bits.words, 32, 65).docList()]).toEqual([32, 33, 64]);
    expect([...bitsFrom(bits.words, 33, 65).docList()]).toEqual([33, 64]);
  });
});
