import { InvalidQueryError } from '../../../port';
import { aggregations } from './testing';

describe('terms', () => {
  it('counts documents per term, most first then by key, with the shape Elasticsearch answers', () => {
    expect(aggregations({ r: { terms: { field: 'region.keyword' } } }).r).toEqual({
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [
        { key: 'Americas', doc_count: 2 },
        { key: 'Europe', doc_count: 2 },
        { key: 'Asia', doc_count: 1 },
      ],
    });
  });

  it('keeps `size` buckets and counts the others in sum_other_doc_count (per term, a multi-valued document in each)', () => {
    // tags: eu(France, Spain) g7(France, Japan): 4 values over 3 documents
    expect(aggregations({ t: { terms: { field: 'tags.keyword', size: 1 } } }).t).toEqual({ doc_count_error_upper_bound: 0, sum_other_doc_count: 2, buckets: [{ key: 'eu', doc_count: 2 }] });
  });

  it('orders by key, by count ascending (key breaking ties), and by a sub-aggregation metric', () => {
    expect(aggregations({ r: { terms: { field: 'region.keyword', order: { _key: 'desc' } } } }).r.buckets.map((b: any) => b.key)).toEqual(['Europe', 'Asia', 'Americas']);
    expect(aggregations({ r: { terms: { field: 'region.keyword', order: { _count: 'asc' } } } }).r.buckets.map((b: any) => b.key)).toEqual(['Asia', 'Americas', 'Europe']);
    const byAvg = aggregations({ r: { terms: { field: 'region.keyword', order: { avg_pop: 'desc' } }, aggs: { avg_pop: { avg: { field: 'pop' } } } } }).r;
    expect(byAvg.buckets.map((b: any) => [b.key, b.avg_pop.value])).toEqual([
      ['Asia', 125],
      ['Europe', 58],
      ['Americas', 26.5],
    ]);
    const byMax = aggregations({ r: { terms: { field: 'region.keyword', order: { 's.max': 'asc' } }, aggs: { s: { stats: { field: 'pop' } } } } }).r;
    expect(byMax.buckets.map((b: any) => b.key)).toEqual(['Americas', 'Europe', 'Asia']);
  });

  it('filters terms with min_doc_count, include/exclude (regex, values, partitions)', () => {
    const keys = (terms: Record<string, unknown>) => aggregations({ r: { terms: { field: 'region.keyword', ...terms } } }).r.buckets.map((b: any) => b.key);
    expect(keys({ min_doc_count: 2 })).toEqual(['Americas', 'Europe']);
    expect(keys({ include: 'A.*' })).toEqual(['Americas', 'Asia']);
    expect(keys({ exclude: ['Asia', 'Europe'] })).toEqual(['Americas']);
    expect(keys({ include: 'A.*', exclude: 'As.*' })).toEqual(['Americas']);
    const parts = [0, 1, 2].map((p) => keys({ include: { partition: p, num_partitions: 3 } }));
    expect(parts.flat().sort()).toEqual(['Americas', 'Asia', 'Europe']);
  });

  it('counts documents without a value under `missing`', () => {
    expect(aggregations({ t: { terms: { field: 'tags.keyword', missing: 'none' } } }).t.buckets).toEqual([
      { key: 'eu', doc_count: 2 },
      { key: 'g7', doc_count: 2 },
      { key: 'none', doc_count: 2 },
    ]);
    expect(aggregations({ t: { terms: { field: 'tags.keyword', missing: 'eu' } } }).t.buckets[0]).toEqual({ key: 'eu', doc_count: 4 });
  });

  it('keys numbers as numbers, dates as millis with key_as_string', () => {
    expect(aggregations({ p: { terms: { field: 'pop', size: 1, order: { _key: 'asc' } } } }).p.buckets).toEqual([{ key: 19, doc_count: 1 }]);
    expect(aggregations({ j: { terms: { field: 'joined', size: 1, order: { _key: 'asc' } } } }).j.buckets).toEqual([{ key: -763344000000, key_as_string: '1945-10-24T00:00:00.000Z', doc_count: 1 }]);
    expect(aggregations({ j: { terms: { field: 'joined', size: 1, order: { _key: 'asc' }, format: 'yyyy' } } }).j.buckets[0].key_as_string).toBe('1945');
  });

  it('runs sub-aggregations within each bucket', () => {
    const r = aggregations({ r: { terms: { field: 'region.keyword', size: 1 }, aggs: { n: { terms: { field: 'name.keyword' } } } } }).r;
    expect(r.buckets[0].n.buckets.map((b: any) => b.key)).toEqual(['Chile', 'Peru']);
  });

  it('answers no buckets on a field no document has, and counts only matching documents', () => {
    expect(aggregations({ x: { terms: { field: 'nothing' } } }).x).toEqual({ doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] });
    expect(aggregations({ r: { terms: { field: 'region.keyword' } } }, { range: { pop: { gte: 50 } } }).r.buckets).toEqual([
      { key: 'Asia', doc_count: 1 },
      { key: 'Europe', doc_count: 1 },
    ]);
  });

  it('never counts what the caller filter hides', () => {
    const r = aggregations({ r: { terms: { field: 'region.keyword' } } }, undefined, { term: { tenant: 'b' } }).r;
    expect(r.buckets).toEqual([
      { key: 'Americas', doc_count: 1 },
      { key: 'Asia', doc_count: 1 },
    ]);
  });

  it('refuses text fields, bad sizes, min_doc_count 0, unknown parameters and regexes on numbers', () => {
    expect(() => aggregations({ r: { terms: { field: 'region' } } })).toThrow(/Text fields are not optimised/);
    expect(() => aggregations({ r: { terms: { field: 'region.keyword', size: 0 } } })).toThrow(/\[size\] must be greater than or equal to 1/);
    expect(() => aggregations({ r: { terms: { field: 'region.keyword', min_doc_count: 0 } } })).toThrow(/caller may not see/);
    expect(() => aggregations({ r: { terms: { field: 'region.keyword', script: 1 } } })).toThrow(InvalidQueryError);
    expect(() => aggregations({ r: { terms: { field: 'pop', include: '1.*' } } })).toThrow(/regular expression style include/);
    expect(() => aggregations({ r: { terms: { field: 'region.keyword', order: { nope: 'asc' } } } })).toThrow(/Unknown aggregation \[nope\]/);
  });
});
