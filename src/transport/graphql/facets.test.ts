import { aggregationType, facetsOf } from './facets';

describe('GraphQL facets', () => {
  it('types the buckets of terms, keyed ranges, histograms and filters; leaves metrics to aggregations', () => {
    const aggs = {
      regions: { terms: { field: 'region.keyword' }, aggs: { avg: { avg: { field: 'pop' } } } },
      sizes: { range: { field: 'pop', keyed: true, ranges: [{ to: 50 }] } },
      months: { date_histogram: { field: 'at', calendar_interval: 'month' }, meta: { x: 1 } },
      kinds: { filters: { filters: { big: {} } } },
      mean: { avg: { field: 'pop' } },
    };
    const facets = facetsOf(aggs, {
      regions: { doc_count_error_upper_bound: 0, sum_other_doc_count: 3, buckets: [{ key: 'Europe', doc_count: 52, avg: { value: 10 } }] },
      sizes: { buckets: { '*-50.0': { to: 50, doc_count: 2 } } },
      months: { meta: { x: 1 }, buckets: [{ key_as_string: '2024-01-01T00:00:00.000Z', key: 1704067200000, doc_count: 1 }] },
      kinds: { buckets: { big: { doc_count: 4 } } },
      mean: { value: 3 },
    });
    expect(facets).toEqual([
      { name: 'regions', type: 'terms', sumOtherDocCount: 3, buckets: [{ key: 'Europe', keyNumber: null, docCount: 52, from: null, to: null, aggregations: { avg: { value: 10 } } }] },
      { name: 'sizes', type: 'range', sumOtherDocCount: null, buckets: [{ key: '*-50.0', keyNumber: null, docCount: 2, from: null, to: 50, aggregations: null }] },
      { name: 'months', type: 'date_histogram', sumOtherDocCount: null, buckets: [{ key: '2024-01-01T00:00:00.000Z', keyNumber: 1704067200000, docCount: 1, from: null, to: null, aggregations: null }] },
      { name: 'kinds', type: 'filters', sumOtherDocCount: null, buckets: [{ key: 'big', keyNumber: null, docCount: 4, from: null, to: null, aggregations: null }] },
    ]);
    expect(facetsOf(undefined, undefined)).toEqual([]);
    expect(aggregationType({ aggs: {}, terms: {} })).toBe('terms');
  });
});
