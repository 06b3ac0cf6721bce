import fc from 'fast-check';
import { Budget, UNLIMITED, runToEnd } from '../budget/budget';
import { sortSteps } from './sortSteps';

describe('sortSteps', () => {
  it('sorts as Array.prototype.sort does, equal elements in their order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer())), (items) => {
        const byKey = (a: [number, number], b: [number, number]) => a[0] - b[0];
        expect(runToEnd(sortSteps([...items], byKey, UNLIMITED))).toEqual([...items].sort(byKey));
      }),
      { numRuns: 500 },
    );
  });

  it('merges runs already in order, and pauses while it does', () => {
    const items = [...Array.from({ length: 5000 }, (_, i) => 2 * i), ...Array.from({ length: 5000 }, (_, i) => 2 * i + 1)];
    const steps = sortSteps(items, (a, b) => a - b, new Budget(Infinity, 0));
    let pauses = 0;
    for (let next = steps.next(); !next.done; next = steps.next()) pauses++;
    expect(pauses).toBeGreaterThan(5);
    expect(items).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });
});
