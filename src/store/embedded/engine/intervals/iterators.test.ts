import { BlockIterator, DisjunctionIterator, DocPositions, DuplicateIterator, IntervalIterator, NO_MORE_INTERVALS, OrderedIterator, TermIterator, UnorderedIterator } from './iterators';

/** A document given as term positions (term ids by name). */
function doc(positions: Record<string, number[]>): DocPositions {
  return { positions: (_field, t) => positions[String.fromCharCode(97 + t)] ?? null };
}
const term = (name: string) => new TermIterator('f', name.charCodeAt(0) - 97);
function intervals(it: IntervalIterator, d: DocPositions): [number, number][] {
  if (!it.enter(d)) return [];
  const out: [number, number][] = [];
  while (it.nextInterval() !== NO_MORE_INTERVALS) out.push([it.start(), it.end()]);
  return out;
}

describe('interval iterators (Lucene 9)', () => {
  // "a b a c b" : a at 0, 2; b at 1, 4; c at 3
  const d = doc({ a: [0, 2], b: [1, 4], c: [3] });

  it('terms, and a document without the term is not entered', () => {
    expect(intervals(term('a'), d)).toEqual([
      [0, 0],
      [2, 2],
    ]);
    expect(term('z').enter(d)).toBe(false);
  });

  it('ordered and unordered give minimal intervals', () => {
    expect(intervals(new OrderedIterator([term('a'), term('b')]), d)).toEqual([
      [0, 1],
      [2, 4],
    ]);
    expect(intervals(new UnorderedIterator([term('a'), term('b')]), d)).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
    ]);
    expect(intervals(new OrderedIterator([term('b'), term('c')]), d)).toEqual([[1, 3]]);
  });

  it('a block is a phrase; a disjunction drops intervals containing the current one; repeats take successive intervals', () => {
    expect(intervals(new BlockIterator([term('a'), term('b')]), d)).toEqual([[0, 1]]);
    expect(intervals(new DisjunctionIterator([new OrderedIterator([term('a'), term('c')]), term('c')]), d)).toEqual([[3, 3]]);
    expect(intervals(new DuplicateIterator(term('a'), 2), d)).toEqual([[0, 2]]);
  });
});
