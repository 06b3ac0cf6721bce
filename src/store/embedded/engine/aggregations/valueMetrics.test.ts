import { aggregations } from './testing';

// the test countries: pop 68, 48, 125, 19, 34; area 551.5, 505.9, 377.9, -, 1285.2 stored as floats

describe('min, max, avg, sum, value_count', () => {
  it('answers the value, null over no values, sum 0', () => {
    const r = aggregations({ mn: { min: { field: 'pop' } }, mx: { max: { field: 'pop' } }, av: { avg: { field: 'pop' } }, sm: { sum: { field: 'pop' } }, vc: { value_count: { field: 'tags.keyword' } } });
    expect(r).toEqual({ mn: { value: 19 }, mx: { value: 125 }, av: { value: 58.8 }, sm: { value: 294 }, vc: { value: 4 } });
    const none = aggregations({ mn: { min: { field: 'pop' } }, av: { avg: { field: 'pop' } }, sm: { sum: { field: 'pop' } }, vc: { value_count: { field: 'pop' } } }, { match_none: {} });
    expect(none).toEqual({ mn: { value: null }, av: { value: null }, sm: { value: 0 }, vc: { value: 0 } });
  });

  it('reads floats as the double of the stored float, dates with value_as_string, and missing', () => {
    expect(aggregations({ a: { max: { field: 'area' } } }).a.value).toBe(Math.fround(1285.2));
    expect(aggregations({ a: { min: { field: 'area', missing: 0 } } }).a.value).toBe(0);
    expect(aggregations({ a: { value_count: { field: 'area', missing: 0 } } }).a.value).toBe(5);
    expect(aggregations({ j: { min: { field: 'joined' } } }).j).toEqual({ value: Date.UTC(1945, 9, 24), value_as_string: '1945-10-24T00:00:00.000Z' });
    expect(aggregations({ j: { max: { field: 'joined', format: 'yyyy' } } }).j.value_as_string).toBe('1986');
  });

  it('refuses keyword fields for numeric metrics and text fields everywhere', () => {
    expect(() => aggregations({ a: { avg: { field: 'region.keyword' } } })).toThrow('Field [region.keyword] of type [keyword] is not supported for aggregation [avg]');
    expect(() => aggregations({ a: { value_count: { field: 'region' } } })).toThrow(/Text fields/);
    expect(() => aggregations({ a: { avg: { field: 'pop' }, aggs: { b: { max: { field: 'pop' } } } } })).toThrow(/cannot accept sub-aggregations/);
  });
});
