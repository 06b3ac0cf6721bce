import fc from 'fast-check';
import { SortedKeys } from './sortedKeys';

describe('SortedKeys', () => {
  it('keeps distinct values in order and finds bounds', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -20, max: 20 }))), fc.integer({ min: -25, max: 25 }), (batches, probe) => {
        const keys = new SortedKeys();
        const all = new Set<number>();
        for (const batch of batches) {
          for (const v of batch) {
            keys.add(v);
            all.add(v);
          }
          const sorted = [...all].sort((a, b) => a - b);
          expect([...keys.values()]).toEqual(sorted);
          expect(keys.lowerBound(probe, false)).toBe(sorted.filter((v) => v < probe).length);
          expect(keys.lowerBound(probe, true)).toBe(sorted.filter((v) => v <= probe).length);
        }
      }),
    );
  });
});
