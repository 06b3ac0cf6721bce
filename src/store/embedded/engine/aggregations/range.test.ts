import { aggregations } from './testing';

describe('range', () => {
  it('counts each range, from included and to excluded, sorted by from then to, keys as Java prints doubles', () => {
    expect(aggregations({ p: { range: { field: 'pop', ranges: [{ from: 100 }, { to: 48 }, { from: 48, to: 100 }] } } }).p).toEqual({
      buckets: [
        { key: '*-48.0', to: 48, doc_count: 2 },
        { key: '48.0-100.0', from: 48, to: 100, doc_count: 2 },
        { key: '100.0-*', from: 100, doc_count: 1 },
      ],
    });
  });

  it('keys buckets by custom keys, keyed, with sub-aggregations and missing', () => {
    const r = aggregations({ a: { range: { field: 'area', keyed: true, missing: 0, ranges: [{ key: 'small', to: 500 }, { key: 'big', from: 500 }] }, aggs: { n: { value_count: { field: 'pop' } } } } }).a;
    expect(r).toEqual({ buckets: { small: { to: 500, doc_count: 2, n: { value: 2 } }, big: { from: 500, doc_count: 3, n: { value: 3 } } } });
  });

  it('counts a document once per range and every overlapping range', () => {
    expect(aggregations({ p: { range: { field: 'pop', ranges: [{ to: 100 }, { from: 0 }] } } }).p.buckets.map((b: any) => b.doc_count)).toEqual([4, 5]);
  });

  it('answers date fields with formatted bounds', () => {
    const r = aggregations({ j: { range: { field: 'joined', ranges: [{ to: '1950-01-01' }] } } }).j;
    expect(r.buckets).toEqual([{ key: '*-1950-01-01T00:00:00.000Z', to: -631152000000, to_as_string: '1950-01-01T00:00:00.000Z', doc_count: 2 }]);
  });

  it('refuses ranges that are missing or malformed', () => {
    expect(() => aggregations({ p: { range: { field: 'pop' } } })).toThrow(/No \[ranges\] specified/);
    expect(() => aggregations({ p: { range: { field: 'pop', ranges: [{ from: [] }] } } })).toThrow(/must be a number or a string/);
    expect(() => aggregations({ p: { range: { field: 'pop', ranges: [{ too: 1 }] } } })).toThrow(/unknown field \[too\]/);
  });
});

describe('date_range', () => {
  it('takes dates in the format, date math, and answers keys in the format', () => {
    const r = aggregations({ d: { date_range: { field: 'joined', format: 'yyyy', ranges: [{ to: '1950' }, { from: '1950', to: 'now' }] } } }).d;
    expect(r.buckets[0]).toEqual({ key: '*-1950', to: -631152000000, to_as_string: '1950', doc_count: 2 });
    expect(r.buckets[1].doc_count).toBe(3);
    expect(r.buckets[1].key.startsWith('1950-')).toBe(true);
  });

  it('reads bounds in the time zone', () => {
    const r = aggregations({ d: { date_range: { field: 'joined', time_zone: '+01:00', ranges: [{ from: '1945-10-24' }] } } }).d;
    expect(r.buckets[0].from).toBe(Date.UTC(1945, 9, 23, 23));
    expect(r.buckets[0].from_as_string).toBe('1945-10-24T00:00:00.000+01:00');
  });

  it('refuses non-date fields and dates it cannot read', () => {
    expect(() => aggregations({ d: { date_range: { field: 'pop', ranges: [{ to: 'now' }] } } })).toThrow(/of type \[long\] is not supported for aggregation \[date_range\]/);
    expect(() => aggregations({ d: { date_range: { field: 'joined', ranges: [{ to: 'yesterday' }] } } })).toThrow(/failed to parse date/);
  });
});
