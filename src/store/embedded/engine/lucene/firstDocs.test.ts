import { UNLIMITED, runToEnd } from '../budget/budget';
import { SearchIndex } from '../searchIndex';
import { buildQuery, parseSearchQuery } from '../search';
import { IndexMapping } from '../mapping';
import { InvertedIndex } from '../invertedIndex';
import { firstDocsSteps } from './firstDocs';

const mapping = new IndexMapping({ keyword: ['tenant'] });
const index = new InvertedIndex();
for (let i = 0; i < 300; i++) index.addSource(`d${i}`, { tenant: i % 3 === 0 ? 'a' : 'b', n: i, name: i % 2 === 0 ? 'even thing' : 'odd thing' }, mapping);
const first = (query: Record<string, unknown> | undefined, filter: Record<string, unknown> | null, limit: number) =>
  runToEnd(firstDocsSteps(buildQuery(parseSearchQuery(query, filter), mapping, Date.now()), index, limit, true, UNLIMITED));

describe('firstDocs: the first matches of a constant-scoring query', () => {
  it('walks match_all under a filter from the first document, stopping at the limit', () => {
    const out = first(undefined, { term: { tenant: 'a' } }, 5);
    expect(Array.from(out?.docs.subarray(0, out.size) ?? [])).toEqual([0, 3, 6, 9, 12]);
    expect(out?.score).toBe(1);
    expect(first(undefined, { term: { tenant: 'a' } }, 1000)?.size).toBe(100);
  });

  it('takes must_not and ranges, and leaves scoring queries to the full evaluation', () => {
    const out = first({ bool: { filter: [{ range: { n: { gte: 10 } } }], must_not: [{ term: { tenant: 'a' } }] } }, null, 3);
    expect(Array.from(out?.docs.subarray(0, out.size) ?? [])).toEqual([10, 11, 13]);
    expect(out?.score).toBe(0);
    expect(first({ match: { name: 'even' } }, null, 3)).toBeNull();
    expect(first({ term: { tenant: 'zzz' } }, null, 3)?.size).toBe(0);
  });

  it('gives a search with track_total_hits: false the hits of the exact search', () => {
    const search = new SearchIndex({ keyword: ['tenant'] });
    for (let i = 0; i < 50; i++) search.put(`d${i}`, { tenant: i % 2 === 0 ? 'a' : 'b' });
    const exact = search.search({ from: 5, size: 5 }, { term: { tenant: 'a' } });
    const early = search.search({ from: 5, size: 5, track_total_hits: false }, { term: { tenant: 'a' } });
    expect(early.hits).toEqual(exact.hits);
    expect(early.total).toBe(-1);
    expect(search.search({ from: 0, size: 5, track_total_hits: 7 }, { term: { tenant: 'a' } })).toMatchObject({ total: 7, total_relation: 'gte' });
  });
});
