import { UNLIMITED, runToEnd } from '../budget/budget';
import { Matches } from '../lucene/matches';
import { intersect, notInAny } from './docSets';
import { splitDocs } from './run';
import { AggContext } from './types';

const ctx = { budget: UNLIMITED } as AggContext;

describe('document sets', () => {
  it('splits documents into buckets (a document in several)', () => {
    const lists = runToEnd(splitDocs(Int32Array.from([1, 2, 3, 4]), 2, (doc, emit) => {
      if (doc % 2 === 0) emit(0);
      if (doc > 2) emit(1);
    }, ctx));
    expect(lists.map((l) => [...l])).toEqual([[2, 4], [3, 4]]);
  });

  it('intersects with list and bitset matches, and keeps the documents in none', () => {
    const docs = Int32Array.from([1, 3, 5, 7]);
    expect([...runToEnd(intersect(docs, Matches.list(Int32Array.from([0, 3, 7, 9]), 4, null), ctx))]).toEqual([3, 7]);
    const bits = new Uint32Array(1);
    bits[0] = (1 << 5) | (1 << 1);
    expect([...runToEnd(intersect(docs, Matches.bitsCounted(bits), ctx))]).toEqual([1, 5]);
    expect([...runToEnd(notInAny(docs, [Int32Array.from([3]), Int32Array.from([7, 9])], ctx))]).toEqual([1, 5]);
  });
});
