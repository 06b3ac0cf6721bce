import fc from 'fast-check';
import { SortedKeys } from './sortedKeys';

describe('SortedKeys', () => {
  it('keeps distinct values in order and finds bounds', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -20, max: 20 }))), fc.integer({ min: -25, max: 25 }), (batches, probe) => {
        const keys = new SortedKeys();
        const all = new Map<number, number>();
        for (const batch of batches) {
          for (const v of batch) {
            if (all.has(v)) continue; // a value is added once, when first seen, with its id
            keys.add(v, 100 + all.size);
            all.set(v, 100 + all.size);
          }
          const sorted = [...all.keys()].sort((a, b) => a - b);
          expect([...keys.values()]).toEqual(sorted);
          expect([...keys.ids()]).toEqual(sorted.map((v) => all.get(v)));
          expect(keys.lowerBound(probe, false)).toBe(sorted.filter((v) => v < probe).length);
          expect(keys.lowerBound(probe, true)).toBe(sorted.filter((v) => v <= probe).length);
        }
      }),
    );
  });
});
