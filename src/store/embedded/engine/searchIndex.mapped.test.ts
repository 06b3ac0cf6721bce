/**
 * An index large enough that its arrays are mappings of their own (growable.ts: MAPPED_MIN_BYTES)
 * answers what it answers when they are ordinary arrays: matches, counts, sorts, ranges, gets,
 * deletes, and the same after an index file.
 */
import type { SearchRequest } from '../../port';
import { StateReader, StateWriter, sectionBytes } from './persist/state';
import { isMapped } from './growable';
import type { InvertedIndex } from './invertedIndex';
import { SearchIndex } from './searchIndex';

const N = 70_000;
const WORDS = ['red', 'green', 'blue', 'cyan', 'teal', 'gold', 'pink'];
const page = (request: Partial<SearchRequest>): SearchRequest => ({ from: 0, size: 3, ...request });

function build(): SearchIndex {
  const index = new SearchIndex({ keyword: ['id', 'color'] }, { idField: 'id' });
  for (let i = 0; i < N; i++) index.put(`e${i}`, { id: `e${i}`, color: WORDS[i % 7], text: `${WORDS[i % 7]} ${WORDS[(i * 3) % 7]} item`, rank: (i * 7919) % N });
  return index;
}

function answers(index: SearchIndex) {
  const ids = (request: Partial<SearchRequest>) => {
    const result = index.search(page(request));
    return { total: result.total, hits: result.hits.map((h) => [h._id, h.sort ?? null]) };
  };
  return {
    term: ids({ query: { term: { color: 'gold' } }, sort: [{ rank: 'desc' }] }),
    match: ids({ query: { match: { text: 'teal pink' } } }),
    range: ids({ query: { range: { rank: { gte: 100, lt: 200 } } }, sort: [{ rank: 'asc' }] }),
    id: ids({ query: { term: { id: `e${N - 1}` } } }),
    count: index.count({ match: { text: 'red' } }),
    get: index.get('e12345'),
  };
}

describe('an index whose arrays are mappings of their own', () => {
  it('answers as an index of ordinary arrays does, before and after an index file', () => {
    const index = build();
    const inverted = (index as unknown as { index: InvertedIndex }).index;
    const rank = inverted.fields.get('rank')!;
    expect(isMapped(rank.values!.entries)).toBe(true);

    const got = answers(index);
    expect(got.term.total).toBe(N / 7);
    const goldRanks = Array.from({ length: N / 7 }, (_, k) => ((5 + 7 * k) * 7919) % N).sort((a, b) => b - a);
    expect(got.term.hits.map((h) => h[1])).toEqual(goldRanks.slice(0, 3).map((r) => [r]));
    expect(got.range.total).toBe(100);
    expect(got.range.hits.map((h) => h[1])).toEqual([[100], [101], [102]]);
    expect(got.id.hits.map((h) => h[0])).toEqual([`e${N - 1}`]);
    expect(got.count).toBe(Array.from({ length: N }, (_, i) => i % 7 === 0 || (i * 3) % 7 === 0).filter(Boolean).length);
    expect(got.get).toEqual({ id: 'e12345', color: WORDS[12345 % 7], text: `${WORDS[12345 % 7]} ${WORDS[(12345 * 3) % 7]} item`, rank: (12345 * 7919) % N });

    const w = new StateWriter();
    index.writeState(w);
    const restored = SearchIndex.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
    expect(answers(restored)).toEqual(got);

    expect(index.remove('e12345')).toBe(true);
    expect(index.get('e12345')).toBeUndefined();
    expect(index.count({ term: { color: WORDS[12345 % 7] } })).toBe(N / 7 - 1);
  });
});
