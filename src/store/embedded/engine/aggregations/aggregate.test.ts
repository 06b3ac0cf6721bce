import { QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';
import { countriesIndex } from './testing';

describe('aggregations in a search', () => {
  it('answers next to the hits of the same search, over every match (not only the page)', () => {
    const result = countriesIndex().search({ from: 0, size: 1, query: { match: { region: 'europe' } }, aggs: { n: { value_count: { field: 'pop' } } } });
    expect(result.hits).toHaveLength(1);
    expect(result.total).toBe(2);
    expect(result.aggregations).toEqual({ n: { value: 2 } });
  });

  it('echoes meta first and keeps names that are no identifiers', () => {
    const result = countriesIndex().search({ from: 0, size: 0, aggs: JSON.parse('{"__proto__": {"max": {"field": "pop"}}, "x y": {"min": {"field": "pop"}, "meta": {"a": 1}}}') });
    expect(Object.keys(result.aggregations as object)).toEqual(['__proto__', 'x y']);
    expect((result.aggregations as Record<string, unknown>)['x y']).toEqual({ meta: { a: 1 }, value: 19 });
  });

  it('enforces search.max_buckets over the whole answer with a QueryLimitError', () => {
    const index = countriesIndex({ limits: { ...DEFAULT_LIMITS, maxBuckets: 4 } });
    const run = (aggs: Record<string, unknown>) => index.search({ from: 0, size: 0, aggs });
    expect(() => run({ r: { terms: { field: 'region.keyword' }, aggs: { t: { terms: { field: 'tags.keyword' } } } } })).toThrow(QueryLimitError);
    expect(() => run({ r: { terms: { field: 'region.keyword' }, aggs: { t: { terms: { field: 'tags.keyword' } } } } })).toThrow(/Must be less than or equal to: \[4\]/);
    expect(run({ r: { terms: { field: 'region.keyword' } } }).aggregations).toBeDefined();
  });

  it('answers every aggregation over no documents when the search is past its deadline', async () => {
    let now = 0;
    const index = new SearchIndex(undefined, { timeoutMs: 10, sliceMs: 5, clock: () => (now += 20) });
    for (let i = 0; i < 3000; i++) index.put(`d${i}`, { region: i % 2 === 0 ? 'Europe' : 'Asia' });
    const result = await index.searchSliced({ from: 0, size: 0, aggs: { r: { terms: { field: 'region.keyword' } }, g: { global: {} } } });
    expect(result.timed_out).toBe(true);
    expect(result.aggregations).toEqual({ r: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] }, g: { doc_count: 0 } });
  });

  it('refuses a malformed aggregation before running anything', () => {
    expect(() => countriesIndex().search({ from: 0, size: 0, aggs: { r: { terms: {} } } })).toThrow(/requires a "field"/);
  });
});
