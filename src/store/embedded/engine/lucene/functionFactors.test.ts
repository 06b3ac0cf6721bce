import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { functionFactors } from './functionFactors';
import { ScoreFunction } from './query';

/** A function of a document's number, counting how often it is computed. */
function counting(key: string, of: (doc: number) => number): { fn: ScoreFunction; computed: () => number } {
  let n = 0;
  const fn: ScoreFunction = { filter: null, weight: 1, key, text: key, bind: () => (doc) => (n++, of(doc)), maxFactor: () => 100 };
  return { fn, computed: () => n };
}

function index(size: number): InvertedIndex {
  const ix = new InvertedIndex();
  const mapping = new IndexMapping();
  for (let i = 0; i < size; i++) ix.addSource(`d${i}`, { i }, mapping);
  return ix;
}

describe('functionFactors', () => {
  it('computes factors on first use, keeps them by document from the second, extended to documents added since', () => {
    const ix = index(10);
    const { fn, computed } = counting('double', (doc) => doc * 2);
    const first = functionFactors(fn, ix);
    expect(first.array).toBeNull();
    expect(first.compute!(3)).toBe(6);
    expect(computed()).toBe(1);
    ix.remove('d4');
    const second = functionFactors(fn, ix);
    expect(Array.from(second.array!.subarray(0, 10))).toEqual([0, 2, 4, 6, NaN, 10, 12, 14, 16, 18]); // a removed document is not computed
    expect(computed()).toBe(10);
    // a new document: only it is computed
    ix.addSource('d10', { i: 10 }, new IndexMapping());
    expect(functionFactors(fn, ix).array![10]).toBe(20);
    expect(computed()).toBe(11);
    // another function, another array; another index, another cache
    expect(functionFactors(counting('other', () => 1).fn, ix).array).toBeNull();
    expect(functionFactors(fn, index(3)).array).toBeNull();
  });

  it('drops the least recently used arrays past its size', () => {
    const ix = index(200_000); // 1.6 MB of factors per function: ten fit under 16 MB
    for (let k = 0; k < 12; k++) {
      const { fn } = counting(`f${k}`, () => k);
      functionFactors(fn, ix);
      functionFactors(fn, ix);
    }
    // f0 and f1 were dropped: their next use starts over
    expect(functionFactors(counting('f0', () => 0).fn, ix).array).toBeNull();
    expect(functionFactors(counting('f11', () => 11).fn, ix).array?.[5]).toBe(11);
  });
});
