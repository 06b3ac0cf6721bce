import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { codeOf, functionFactors } from './functionFactors';
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
    const ix = index(200_000); // 1.6 MB of factors and 0.2 MB of codes per function: eight fit under 16 MB
    for (let k = 0; k < 12; k++) {
      const { fn } = counting(`f${k}`, () => k);
      functionFactors(fn, ix);
      functionFactors(fn, ix);
    }
    // f0 and f1 were dropped: their next use starts over
    expect(functionFactors(counting('f0', () => 0).fn, ix).array).toBeNull();
    expect(functionFactors(counting('f11', () => 11).fn, ix).array?.[5]).toBe(11);
  });

  it('codes each factor with a byte whose level is its smallest bound, coded again when a larger factor comes', () => {
    const ix = index(300);
    const { fn } = counting('curve', (doc) => Math.sqrt(doc) / 7);
    functionFactors(fn, ix);
    const f = functionFactors(fn, ix);
    const top = Math.sqrt(299) / 7;
    expect(f.levels![255]).toBe(top);
    for (let doc = 0; doc < 300; doc++) {
      const c = f.codes![doc];
      expect(f.levels![c]).toBeGreaterThanOrEqual(f.array![doc]);
      if (c > 0) expect(f.levels![c - 1]).toBeLessThan(f.array![doc]);
    }
    expect(f.codes![0]).toBe(0);
    expect(f.codes![299]).toBe(255);
    // a document with a larger factor than every other: every code is made again against it
    ix.addSource('d300', { i: 300 }, new IndexMapping());
    const { fn: same } = counting('curve', (doc) => (doc === 300 ? 10 * top : Math.sqrt(doc) / 7));
    const again = functionFactors(same, ix);
    expect(again.levels![255]).toBe(10 * top);
    expect(again.codes![300]).toBe(255);
    expect(again.codes![299]).toBe(26); // top / (10 top) * 255 = 25.5: the level above
    for (let doc = 0; doc <= 300; doc++) expect(again.levels![again.codes![doc]]).toBeGreaterThanOrEqual(again.array![doc]);
  });

  it('codes the edges: zero, the largest, a dead document', () => {
    const levels = new Float64Array(256);
    for (let c = 0; c < 255; c++) levels[c] = (3 * c) / 255;
    levels[255] = 3;
    expect(codeOf(0, levels)).toBe(0);
    expect(codeOf(3, levels)).toBe(255);
    expect(codeOf(Number.NaN, levels)).toBe(255);
    expect(codeOf(levels[17], levels)).toBe(17);
    expect(codeOf(levels[17] + 1e-12, levels)).toBe(18);
    expect(codeOf(Number.MIN_VALUE, levels)).toBe(1);
  });
});
