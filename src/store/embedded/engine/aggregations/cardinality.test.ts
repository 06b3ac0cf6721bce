import { aggregations } from './testing';

// the test countries: pop 68, 48, 125, 19, 34; area 551.5, 505.9, 377.9, -, 1285.2 stored as floats

describe('cardinality', () => {
  it('counts distinct values exactly', () => {
    expect(aggregations({ c: { cardinality: { field: 'tags.keyword' } } }).c).toEqual({ value: 2 });
    expect(aggregations({ c: { cardinality: { field: 'region.keyword' } } }).c).toEqual({ value: 3 });
    expect(aggregations({ c: { cardinality: { field: 'tags.keyword', missing: 'none' } } }).c).toEqual({ value: 3 });
    expect(aggregations({ c: { cardinality: { field: 'tags.keyword', missing: 'eu' } } }).c).toEqual({ value: 2 });
    expect(aggregations({ c: { cardinality: { field: 'pop', precision_threshold: 100 } } }).c).toEqual({ value: 5 });
  });
});
