import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { NestedDocs } from '../nested/nestedDocs';
import { ancestorOf, childrenOfParent, descendantsOf, joinToParents } from './blockJoin';
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
    const parents = joinToParents(children, ancestorOf([docs()]), 'avg', true);
    expect([...parents.docList()]).toEqual([0, 2]);
  });

  it('sums in a double and casts once to float (avg divides first)', () => {
    const nested = docs();
    const avg = joinToParents(children, ancestorOf([nested]), 'avg', true);
    expect(avg.scoreAt(0)).toBe(f((f(0.1) + f(0.7)) / 2));
    expect(avg.scoreAt(1)).toBe(f((f(0.3) + f(0.3)) / 2));
    const sum = joinToParents(children, ancestorOf([nested]), 'sum', true);
    expect(sum.scoreAt(0)).toBe(f(f(0.1) + f(0.7)));
    expect(joinToParents(children, ancestorOf([nested]), 'max', true).scoreAt(0)).toBe(f(0.7));
    expect(joinToParents(children, ancestorOf([nested]), 'min', true).scoreAt(0)).toBe(f(0.1));
  });

  it('scores 0 with none, and without scores', () => {
    const nested = docs();
    expect(joinToParents(children, ancestorOf([nested]), 'none', true).scoreAt(1)).toBe(0);
    expect(joinToParents(children, ancestorOf([nested]), 'max', false).scores).toBeNull();
  });

  it('finds a parent\'s matching children', () => {
    const nested = docs();
    expect(childrenOfParent(children, [nested], 0)).toEqual({ from: 0, to: 2 });
    expect(childrenOfParent(children, [nested], 1)).toEqual({ from: 0, to: 0 });
    expect(childrenOfParent(children, [nested], 2)).toEqual({ from: 2, to: 4 });
  });
});

describe('several levels (a nested field inside another)', () => {
  /** Root 0: drivers 0 (vehicles 0, 1) and 1 (none); root 1: driver 2 (vehicle 2); root 2: none. */
  function levels() {
    const mapping = new IndexMapping();
    mapping.declareNested('driver', false);
    mapping.declareNested('driver.vehicle', false);
    const root = new InvertedIndex(false);
    root.addSource('r0', { driver: [{ vehicle: [{ make: 'a' }, { make: 'b' }] }, { name: 'x' }] }, mapping);
    root.addSource('r1', { driver: { vehicle: { make: 'c' } } }, mapping);
    root.addSource('r2', { other: 1 }, mapping);
    const drivers = root.nested.get('driver')!;
    return [drivers, drivers.index.nested.get('driver.vehicle')!];
  }

  it('finds each root document\'s descendants, a run at each level', () => {
    const l = levels();
    expect(l[1].relative).toBe('vehicle');
    expect([0, 1, 2].map((root) => descendantsOf(l, root))).toEqual([{ first: 0, end: 2 }, { first: 2, end: 3 }, { first: 0, end: 0 }]);
  });

  it('joins the deepest documents to the root ones', () => {
    const l = levels();
    const vehicles = Matches.list(Int32Array.of(0, 1, 2), 3, Float32Array.of(1, 2, 4));
    const joined = joinToParents(vehicles, ancestorOf(l), 'sum', true);
    expect([...joined.docList()]).toEqual([0, 1]);
    expect([joined.scoreAt(0), joined.scoreAt(1)]).toEqual([3, 4]);
  });
});
