import { InvertedIndex } from './invertedIndex';
import { IndexMapping } from './mapping';
import { buildQuery, parseSearchQuery, runQuery } from './search';
import { queryKey } from './lucene/query';

describe('search pipeline', () => {
  const mapping = new IndexMapping({ keyword: ['tenant'] });
  const index = new InvertedIndex();
  for (const [id, doc] of [
    ['1', { name: 'a', tenant: 't1' }],
    ['2', { name: 'a b', tenant: 't2' }],
  ] as const) {
    index.addSource(id, doc, mapping);
  }

  it('runs match_all when there is no query', () => {
    expect([...runQuery(parseSearchQuery(undefined, null), mapping, index, true)]).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it('adds the filter as a non-scoring FILTER clause', () => {
    const parsed = parseSearchQuery({ match: { name: 'a' } }, { term: { tenant: 't2' } });
    const scores = runQuery(parsed, mapping, index, true);
    const alone = runQuery(parseSearchQuery({ match: { name: 'a' } }, null), mapping, index, true);
    expect([...scores.keys()]).toEqual([1]);
    expect(scores.get(1)).toBe(alone.get(1));
  });

  it('rewrites match_all plus filter into a constant score query', () => {
    const q = buildQuery(parseSearchQuery(undefined, { term: { tenant: 't2' } }), mapping, 0);
    expect(queryKey(q)).toBe('C(T["tenant","t2"])');
  });

  it('reports filter errors at "filter"', () => {
    expect(() => parseSearchQuery(undefined, { nope: {} })).toThrow('unsupported query clause "nope" at filter');
  });
});
