import { aggregations } from './testing';

// the test countries: pop 68, 48, 125, 19, 34; area 551.5, 505.9, 377.9, -, 1285.2 stored as floats

describe('percentiles', () => {
  it('interpolates between sorted values as Elasticsearch’s Dist.quantile (19, 34, 48, 68, 125)', () => {
    // rank q·(n-1): 1% → 0.04: 19 + 0.04·15 = 19.6; 25% → 1: 34; 50% → 2: 48; 95% → 3.8: 68 + 0.8·57 = 113.6
    const r = aggregations({ p: { percentiles: { field: 'pop', percents: [1, 25, 50, 95, 100] } } }).p;
    expect(Object.keys(r.values)).toEqual(['1.0', '25.0', '50.0', '95.0', '100.0']);
    expect(r.values['1.0']).toBeCloseTo(19.6, 12);
    expect(r.values['25.0']).toBe(34);
    expect(r.values['50.0']).toBe(48);
    expect(r.values['95.0']).toBeCloseTo(113.6, 12);
    expect(r.values['100.0']).toBe(125);
  });

  it('answers keyed:false lists, nulls over no values, dates as strings', () => {
    expect(aggregations({ p: { percentiles: { field: 'pop', percents: [50], keyed: false } } }).p).toEqual({ values: [{ key: 50, value: 48 }] });
    expect(aggregations({ p: { percentiles: { field: 'pop', percents: [50] } } }, { match_none: {} }).p).toEqual({ values: { '50.0': null } });
    expect(aggregations({ p: { percentiles: { field: 'joined', percents: [0] } } }).p.values['0.0_as_string']).toBe('1945-10-24T00:00:00.000Z');
  });

  it('refuses percents out of range, empty, and hdr', () => {
    expect(() => aggregations({ p: { percentiles: { field: 'pop', percents: [101] } } })).toThrow(/percent must be in \[0,100\]/);
    expect(() => aggregations({ p: { percentiles: { field: 'pop', percents: [] } } })).toThrow(/must not be empty/);
    expect(() => aggregations({ p: { percentiles: { field: 'pop', hdr: {} } } })).toThrow(/"hdr"/);
  });
});
