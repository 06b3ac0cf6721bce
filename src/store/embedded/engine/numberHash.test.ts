import fc from 'fast-check';
import { NumberHash } from './numberHash';
import { StateReader, StateWriter, sectionBytes } from './persist/state';

describe('NumberHash', () => {
  it('numbers values in order of addition, as a Map of numbers keys them (-0 is 0, NaN is one value)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, NaN, 1.5, 1e300)), { maxLength: 300 }), (values) => {
        const hash = new NumberHash();
        const map = new Map<number, number>();
        const firsts: number[] = [];
        for (const v of values) {
          if (!map.has(v)) {
            map.set(v, map.size);
            firsts.push(v);
          }
          expect(hash.intern(v)).toBe(map.get(v));
        }
        expect(hash.size).toBe(map.size);
        firsts.forEach((v, id) => {
          expect(Object.is(hash.term(id), v)).toBe(true); // (the first of -0 and 0 is kept, as it was added)
          expect(hash.get(v)).toBe(id);
        });
        expect(hash.get(0.123456)).toBe(map.get(0.123456) ?? -1);
      }),
      { seed: 5 },
    );
  });

  it('keeps a million timestamps in typed arrays (8 bytes a value and its slots)', () => {
    const hash = new NumberHash();
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 1_000_000; i++) hash.intern(t0 + i * 7);
    expect(hash.size).toBe(1_000_000);
    expect(hash.bytes()).toBeLessThanOrEqual(1_000_000 * 8 * 1.1 + 4 * 2 ** 21);
    expect(hash.get(t0 + 7 * 123_456)).toBe(123_456);
  });

  it('reads back what it wrote (index file), then takes new values', () => {
    const hash = new NumberHash();
    for (const v of [3, -0, 2.5, 1e20]) hash.intern(v);
    const w = new StateWriter();
    hash.writeState(w);
    const read = new NumberHash();
    read.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
    expect([0, 1, 2, 3].map((t) => read.term(t))).toEqual([3, -0, 2.5, 1e20]);
    expect(read.get(0)).toBe(1);
    expect(read.intern(7)).toBe(4);
    expect(read.get(1e20)).toBe(3);
  });
});
