import { aggregations } from './testing';

// the test countries: pop 68, 48, 125, 19, 34; area 551.5, 505.9, 377.9, -, 1285.2 stored as floats

describe('stats and extended_stats', () => {
  it('answers count, min, max, avg, sum and the variances as Elasticsearch computes them', () => {
    // sum 294, sum of squares 68² + 48² + 125² + 19² + 34² = 4624 + 2304 + 15625 + 361 + 1156 = 24070
    // population variance (24070 - 294²/5) / 5 = (24070 - 17287.2) / 5 = 1356.56; sampling: 6782.8 / 4 = 1695.7
    const r = aggregations({ s: { extended_stats: { field: 'pop', sigma: 1 } } }).s;
    expect(r).toMatchObject({ count: 5, min: 19, max: 125, avg: 58.8, sum: 294, sum_of_squares: 24070 });
    expect(r.variance).toBeCloseTo(1356.56, 9);
    expect(r.variance_sampling).toBeCloseTo(1695.7, 9);
    expect(r.std_deviation).toBeCloseTo(Math.sqrt(1356.56), 9);
    expect(r.std_deviation_bounds.upper).toBeCloseTo(58.8 + Math.sqrt(1356.56), 9);
    expect(r.std_deviation_bounds.lower_sampling).toBeCloseTo(58.8 - Math.sqrt(1695.7), 9);
    expect(aggregations({ s: { stats: { field: 'pop' } } }).s).toEqual({ count: 5, min: 19, max: 125, avg: 58.8, sum: 294 });
  });

  it('answers nulls over no values and "NaN" sampling figures over one', () => {
    expect(aggregations({ s: { stats: { field: 'pop' } } }, { match_none: {} }).s).toEqual({ count: 0, min: null, max: null, avg: null, sum: 0 });
    const empty = aggregations({ s: { extended_stats: { field: 'pop' } } }, { match_none: {} }).s;
    expect(empty.variance).toBeNull();
    expect(empty.std_deviation_bounds).toEqual({ upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null });
    const one = aggregations({ s: { extended_stats: { field: 'pop' } } }, { term: { 'name.keyword': 'Chile' } }).s;
    expect(one).toMatchObject({ count: 1, variance: 0, variance_sampling: 'NaN', std_deviation_sampling: 'NaN' });
    expect(() => aggregations({ s: { extended_stats: { field: 'pop', sigma: -1 } } })).toThrow(/\[sigma\] must be greater than or equal to 0/);
  });
});
