import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { NestedDocs } from '../nested/nestedDocs';
import { childrenOfParent, joinToParents } from './blockJoin';
import { Matches } from './matches';

/** Parents 0 (three children: 0, 1, 2), 1 (none), 2 (two: 3, 4). */
function docs(): NestedDocs {
  const mapping = new IndexMapping();
  mapping.declareNested('parts', false);
  const nested = new NestedDocs('parts', new InvertedIndex(false));
  nested.add(0, { parts: [{ a: 1 }, { a: 2 }, { a: 3 }] }, mapping);
  nested.add(1, { parts: [] }, mapping);
  nested.add(2, { parts: [{ a: 4 }, { a: 5 }] }, mapping);
  return nested;
}

const f = Math.fround;

describe('joinToParents (BlockJoinScorer.setScoreAndFreq)', () => {
  const children = Matches.list(Int32Array.of(0, 2, 3, 4), 4, Float32Array.of(f(0.1), f(0.7), f(0.3), f(0.3)));

  it('groups the children by parent, in order', () => {
    const parents = joinToParents(children, docs(), 'avg', true);
    expect([...parents.docList()]).toEqual([0, 2]);
  });

  it('sums in a double and casts once to float (avg divides first)', () => {
    const nested = docs();
    const avg = joinToParents(children, nested, 'avg', true);
    expect(avg.scoreAt(0)).toBe(f((f(0.1) + f(0.7)) / 2));
    expect(avg.scoreAt(1)).toBe(f((f(0.3) + f(0.3)) / 2));
    const sum = joinToParents(children, nested, 'sum', true);
    expect(sum.scoreAt(0)).toBe(f(f(0.1) + f(0.7)));
    expect(joinToParents(children, nested, 'max', true).scoreAt(0)).toBe(f(0.7));
    expect(joinToParents(children, nested, 'min', true).scoreAt(0)).toBe(f(0.1));
  });

  it('scores 0 with none, and without scores', () => {
    const nested = docs();
    expect(joinToParents(children, nested, 'none', true).scoreAt(1)).toBe(0);
    expect(joinToParents(children, nested, 'max', false).scores).toBeNull();
  });

  it('finds a parent\'s matching children', () => {
    const nested = docs();
    expect(childrenOfParent(children, nested, 0)).toEqual({ from: 0, to: 2 });
    expect(childrenOfParent(children, nested, 1)).toEqual({ from: 0, to: 0 });
    expect(childrenOfParent(children, nested, 2)).toEqual({ from: 2, to: 4 });
  });
});
