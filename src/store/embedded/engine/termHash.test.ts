import fc from 'fast-check';
import { scanAscii } from './analyzer';
import { TermHash, hashSlice } from './termHash';

describe('TermHash', () => {
  it('numbers terms in order of addition, like a Map', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }), (terms) => {
        const hash = new TermHash();
        const map = new Map<string, number>();
        for (const t of terms) {
          if (!map.has(t)) map.set(t, map.size);
          expect(hash.intern(t)).toBe(map.get(t));
        }
        expect(hash.size).toBe(map.size);
        for (const [t, id] of map) expect(hash.get(t)).toBe(id);
        expect(hash.get('not there!')).toBe(map.get('not there!') ?? -1);
        expect(hash.strings).toEqual([...map.keys()]);
      }),
    );
  });

  it('finds terms from slices of a text, lower-casing ASCII', () => {
    const hash = new TermHash();
    const id = hash.intern('hello');
    expect(hash.getSlice('say HeLLo!', 4, 9, true)).toBe(id);
    expect(hash.getSlice('say HeLLo!', 4, 9, false)).toBe(-1);
    expect(hash.internSlice('a World', 2, 7, true)).toBe(1);
    expect(hash.strings[1]).toBe('world');
  });

  it('agrees with the hashes the analyzer computes while scanning', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ09 -') }), (text) => {
        const out = { data: new Int32Array(4), whole: 0 };
        const n = scanAscii(text, out);
        for (let i = 0; i < n; i++) {
          const [start, end, upper, h] = out.data.subarray(4 * i, 4 * i + 4);
          expect(h).toBe(hashSlice(text, start, end, upper === 1));
        }
        if (n >= 0) expect(out.whole).toBe(hashSlice(text, 0, text.length, false));
      }),
    );
  });
});
