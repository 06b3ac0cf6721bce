import { aggregations } from './testing';

const EU = { term: { 'region.keyword': 'Europe' } };
const G7 = { term: { 'tags.keyword': 'g7' } };

describe('filters', () => {
  it('answers named filters keyed, in name order, with an other bucket', () => {
    expect(aggregations({ f: { filters: { filters: { g7: G7, eu: EU }, other_bucket: true } } }).f).toEqual({
      buckets: { eu: { doc_count: 2 }, g7: { doc_count: 2 }, _other_: { doc_count: 2 } },
    });
  });

  it('answers named filters as a list with keys when keyed is false, and anonymous ones as a list', () => {
    expect(aggregations({ f: { filters: { filters: { eu: EU }, keyed: false, other_bucket_key: 'rest' } } }).f).toEqual({
      buckets: [
        { key: 'eu', doc_count: 2 },
        { key: 'rest', doc_count: 3 },
      ],
    });
    expect(aggregations({ f: { filters: { filters: [G7, EU] }, aggs: { p: { sum: { field: 'pop' } } } } }).f).toEqual({
      buckets: [
        { doc_count: 2, p: { value: 193 } },
        { doc_count: 2, p: { value: 116 } },
      ],
    });
  });

  it('refuses empty or malformed filters and unsupported clauses', () => {
    expect(() => aggregations({ f: { filters: { filters: {} } } })).toThrow(/cannot be empty/);
    expect(() => aggregations({ f: { filters: { filters: 'eu' } } })).toThrow(/requires "filters"/);
    expect(() => aggregations({ f: { filters: { filters: { x: { nope: {} } } } } })).toThrow(/nope/);
  });
});
