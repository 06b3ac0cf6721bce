import { UNLIMITED, runToEnd } from '../budget/budget';
import { TermSource, unordered } from '../intervals/sources';
import { IndexMapping } from '../mapping';
import { InvertedIndex } from '../invertedIndex';
import { IntervalsQuery } from './query';
import { intervalMatchesSteps, saturation } from './intervalQuery';

describe('IntervalQuery', () => {
  it('scores boost * S / (S + 1), S summing 1 / (width - minExtent + 1) over the intervals (in double, then float)', () => {
    expect(saturation(1, 1)).toBe(0.5);
    expect(saturation(2, 1)).toBe(1);
    const inner = new InvertedIndex();
    inner.addSource('x', { body: 'a b x x a x b' }, new IndexMapping());
    const query: IntervalsQuery = { type: 'intervals', field: 'body', source: unordered([new TermSource('body', 'a'), new TermSource('body', 'b')], 4096), maxClauseCount: 4096 };
    const matches = runToEnd(intervalMatchesSteps(query, inner, 1, true, UNLIMITED));
    // intervals [0,1] (1), [1,4] (1/3), [4,6] (1/2): S = 11/6
    expect(matches?.size).toBe(1);
    expect(matches?.scoreAt(0)).toBe(Math.fround(1 - 1 / (1 + Math.fround(Math.fround(1 + 1 / 3) + 1 / 2))));
  });
});
