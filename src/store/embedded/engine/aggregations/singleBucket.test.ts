import { aggregations } from './testing';

describe('filter, missing, global', () => {
  it('filter: the bucket documents a clause matches, with sub-aggregations', () => {
    expect(aggregations({ f: { filter: { range: { pop: { gte: 50 } } }, aggs: { r: { terms: { field: 'region.keyword' } } } } }).f).toEqual({
      doc_count: 2,
      r: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'Asia', doc_count: 1 }, { key: 'Europe', doc_count: 1 }] },
    });
  });

  it('filter never widens the search: only documents the query and the caller filter let through', () => {
    expect(aggregations({ f: { filter: { match_all: {} } } }, undefined, { term: { tenant: 'b' } }).f).toEqual({ doc_count: 2 });
  });

  it('missing: documents without a value (every one on a field nobody has)', () => {
    expect(aggregations({ m: { missing: { field: 'area' } } }).m).toEqual({ doc_count: 1 });
    expect(aggregations({ m: { missing: { field: 'tags.keyword' } } }).m).toEqual({ doc_count: 2 });
    expect(aggregations({ m: { missing: { field: 'nothing' } } }).m).toEqual({ doc_count: 5 });
  });

  it('global: ignores the query but never the caller filter', () => {
    const r = aggregations({ g: { global: {}, aggs: { n: { value_count: { field: 'pop' } } } } }, { term: { 'name.keyword': 'Chile' } }, { term: { tenant: 'a' } });
    expect(r.g).toEqual({ doc_count: 3, n: { value: 3 } });
    expect(aggregations({ g: { global: {} } }, { match_none: {} }).g).toEqual({ doc_count: 5 });
  });

  it('global is top-level only', () => {
    expect(() => aggregations({ f: { filter: { match_all: {} }, aggs: { g: { global: {} } } } })).toThrow(/global aggregations can only be top level/);
  });
});
