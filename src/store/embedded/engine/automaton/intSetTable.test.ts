import fc from 'fast-check';
import { IntSetTable } from './intSetTable';

const valuesOf = (table: IntSetTable, id: number): number[] => {
  const out: number[] = [];
  for (let k = table.start(id); k < table.end(id); k++) out.push(table.at(k));
  return out;
};

describe('IntSetTable', () => {
  test('numbers sets in order of first appearance, finds them again, keeps their values', () => {
    const table = new IntSetTable();
    const buffer = Int32Array.of(9, 1, 2, 3, 9);
    expect(table.intern(buffer, 1, 4)).toBe(0);
    expect(table.intern(Int32Array.of(1, 2), 0, 2)).toBe(1);
    expect(table.intern(Int32Array.of(), 0, 0)).toBe(2);
    expect(table.intern(Int32Array.of(1, 2, 3), 0, 3)).toBe(0);
    expect(table.intern(Int32Array.of(), 0, 0)).toBe(2);
    expect(table.size).toBe(3);
    expect(valuesOf(table, 0)).toEqual([1, 2, 3]);
    expect(valuesOf(table, 2)).toEqual([]);
  });

  test('behaves as a map from the sets to their first index (many sets, rehashing)', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: -1, max: 40 }), { maxLength: 6 }), { maxLength: 600 }), (sets) => {
        const table = new IntSetTable();
        const reference = new Map<string, number>();
        for (const set of sets) {
          const key = set.join(',');
          if (!reference.has(key)) reference.set(key, reference.size);
          expect(table.intern(Int32Array.from(set), 0, set.length)).toBe(reference.get(key));
        }
        expect(table.size).toBe(reference.size);
        for (const [key, id] of reference) expect(valuesOf(table, id).join(',')).toBe(key);
      }),
      { numRuns: 50 },
    );
  });
});
