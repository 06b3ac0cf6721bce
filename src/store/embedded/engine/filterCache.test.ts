import { Bitset } from './bitset';
import { FilterCache } from './filterCache';
import { Matches } from './lucene/matches';

/** A fake index whose documents match when `matches(doc)`. */
function fakeIndex(matches: (doc: number) => boolean) {
  const live = new Bitset();
  const index = { maxDoc: 0, deletes: 0, live, evaluated: 0 };
  const add = (n: number) => {
    for (let i = 0; i < n; i++) live.add(index.maxDoc++);
  };
  const remove = (doc: number) => {
    live.delete(doc);
    index.deletes++;
  };
  const compute = (fromDoc: number) => {
    index.evaluated += index.maxDoc - fromDoc;
    const docs: number[] = [];
    for (let d = fromDoc; d < index.maxDoc; d++) if (live.has(d) && matches(d)) docs.push(d);
    return Matches.list(Int32Array.from(docs), docs.length, null, 0);
  };
  return { index, add, remove, compute };
}

const docsOf = (m: Matches) => [...m.docList()];

describe('FilterCache', () => {
  it('computes once, then only new documents, and drops removed ones', () => {
    const { index, add, remove, compute } = fakeIndex((d) => d % 2 === 0);
    const cache = new FilterCache();
    add(10);
    expect(docsOf(cache.get('even', index, compute))).toEqual([0, 2, 4, 6, 8]);
    expect(index.evaluated).toBe(10);
    expect(docsOf(cache.get('even', index, compute))).toEqual([0, 2, 4, 6, 8]);
    expect(index.evaluated).toBe(10); // a hit
    add(4);
    remove(2);
    expect(docsOf(cache.get('even', index, compute))).toEqual([0, 4, 6, 8, 10, 12]);
    expect(index.evaluated).toBe(14); // only documents 10-13 were evaluated
    expect(cache.hits).toBe(2);
    expect(cache.misses).toBe(1);
  });

  it('switches dense sets to bitsets and keeps them exact', () => {
    const { index, add, remove, compute } = fakeIndex(() => true);
    const cache = new FilterCache();
    add(100);
    const first = cache.get('all', index, compute);
    expect(first.isBits).toBe(true);
    expect(first.size).toBe(100);
    remove(5);
    add(50);
    const next = cache.get('all', index, compute);
    expect(next.size).toBe(149);
    expect(next.has(5)).toBe(false);
    expect(next.has(149)).toBe(true);
  });

  it('evicts the least recently used sets', () => {
    const { index, add, compute } = fakeIndex(() => true);
    const cache = new FilterCache();
    add(3);
    for (let i = 0; i < 100; i++) cache.get(`k${i}`, index, compute);
    expect(cache.size).toBe(64);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
