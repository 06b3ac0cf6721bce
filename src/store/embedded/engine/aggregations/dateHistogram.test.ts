import { aggregations } from './testing';

describe('date_histogram', () => {
  it('buckets by calendar interval with key_as_string, empty buckets included', () => {
    const r = aggregations({ y: { date_histogram: { field: 'joined', calendar_interval: 'year', format: 'yyyy' } } }, { range: { joined: { lt: '1958-01-01' } } }).y;
    expect(r.buckets.map((b: any) => [b.key_as_string, b.doc_count])).toEqual([
      ['1945', 2],
      ['1946', 0],
      ['1947', 0],
      ['1948', 0],
      ['1949', 0],
      ['1950', 0],
      ['1951', 0],
      ['1952', 0],
      ['1953', 0],
      ['1954', 0],
      ['1955', 0],
      ['1956', 1],
      ['1957', 1],
    ]);
    expect(r.buckets[0].key).toBe(Date.UTC(1945, 0, 1));
  });

  it('buckets by fixed interval in a time zone, min_doc_count 1, keyed', () => {
    const r = aggregations({ d: { date_histogram: { field: 'joined', fixed_interval: '1d', time_zone: '-01:00', min_doc_count: 1, keyed: true } } }, { term: { 'name.keyword': 'Chile' } }).d;
    expect(r).toEqual({ buckets: { '1945-10-23T00:00:00.000-01:00': { key_as_string: '1945-10-23T00:00:00.000-01:00', key: Date.UTC(1945, 9, 23, 1), doc_count: 1 } } });
  });

  it('widens to extended_bounds given as dates', () => {
    const r = aggregations({ m: { date_histogram: { field: 'joined', calendar_interval: '1M', extended_bounds: { min: '1945-09-01', max: '1945-12-01' } } } }, { range: { joined: { lt: '1946-01-01' } } }).m;
    expect(r.buckets.map((b: any) => b.doc_count)).toEqual([0, 2, 0, 0]);
  });

  it('refuses interval, both or neither interval kind, and bad units', () => {
    expect(() => aggregations({ d: { date_histogram: { field: 'joined', interval: '1d' } } })).toThrow(/no longer supported/);
    expect(() => aggregations({ d: { date_histogram: { field: 'joined' } } })).toThrow(/Invalid interval specified/);
    expect(() => aggregations({ d: { date_histogram: { field: 'joined', calendar_interval: '1d', fixed_interval: '1d' } } })).toThrow(/Cannot use \[fixed_interval\] with \[calendar_interval\]/);
    expect(() => aggregations({ d: { date_histogram: { field: 'joined', calendar_interval: '2d' } } })).toThrow(/could not be parsed as a calendar interval/);
    expect(() => aggregations({ d: { date_histogram: { field: 'pop', calendar_interval: '1d' } } })).toThrow(/not supported for aggregation \[date_histogram\]/);
  });

  it('stops at search.max_buckets on a fine interval over a wide range', () => {
    expect(() => aggregations({ d: { date_histogram: { field: 'joined', fixed_interval: '1m' } } })).toThrow(/too many buckets/);
  });
});
