import { aggregations } from './testing';

describe('histogram', () => {
  it('buckets values by interval with the empty buckets between (min_doc_count 0)', () => {
    expect(aggregations({ h: { histogram: { field: 'pop', interval: 40 } } }).h).toEqual({
      buckets: [
        { key: 0, doc_count: 2 },
        { key: 40, doc_count: 2 },
        { key: 80, doc_count: 0 },
        { key: 120, doc_count: 1 },
      ],
    });
  });

  it('applies offset, min_doc_count, extended and hard bounds, keyed and order', () => {
    expect(aggregations({ h: { histogram: { field: 'pop', interval: 40, offset: 10, min_doc_count: 1 } } }).h.buckets).toEqual([
      { key: 10, doc_count: 3 },
      { key: 50, doc_count: 1 },
      { key: 90, doc_count: 1 },
    ]);
    expect(aggregations({ h: { histogram: { field: 'pop', interval: 50, extended_bounds: { min: -50, max: 200 } } } }).h.buckets.map((b: any) => b.key)).toEqual([-50, 0, 50, 100, 150, 200]);
    expect(aggregations({ h: { histogram: { field: 'pop', interval: 50, hard_bounds: { min: 50, max: 100 } } } }).h.buckets).toEqual([
      { key: 50, doc_count: 1 },
      { key: 100, doc_count: 1 },
    ]);
    expect(aggregations({ h: { histogram: { field: 'pop', interval: 100, keyed: true } } }).h).toEqual({ buckets: { '0.0': { key: 0, doc_count: 4 }, '100.0': { key: 100, doc_count: 1 } } });
    expect(aggregations({ h: { histogram: { field: 'pop', interval: 100, order: { _count: 'asc' } } } }).h.buckets.map((b: any) => b.key)).toEqual([100, 0]);
  });

  it('stops at search.max_buckets instead of filling a huge range', () => {
    expect(() => aggregations({ h: { histogram: { field: 'pop', interval: 1e-6 } } })).toThrow(/Trying to create too many buckets. Must be less than or equal to: \[65536\]/);
  });

  it('refuses a missing or non-positive interval', () => {
    expect(() => aggregations({ h: { histogram: { field: 'pop' } } })).toThrow(/\[interval\] must be >0/);
    expect(() => aggregations({ h: { histogram: { field: 'pop', interval: 0 } } })).toThrow(/\[interval\] must be >0/);
    expect(() => aggregations({ h: { histogram: { field: 'pop', interval: 1, extended_bounds: { min: 5, max: 1 } } } })).toThrow(/cannot be greater than/);
  });
});
