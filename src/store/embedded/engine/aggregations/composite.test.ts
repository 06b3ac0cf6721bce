import { aggregations } from './testing';

describe('composite', () => {
  const sources = [{ region: { terms: { field: 'region.keyword' } } }, { big: { histogram: { field: 'pop', interval: 50 } } }];

  it('pages through every combination in order, after_key leading to the next page', () => {
    const first = aggregations({ c: { composite: { size: 2, sources } } }).c;
    expect(first).toEqual({
      after_key: { region: 'Asia', big: 100 },
      buckets: [
        { key: { region: 'Americas', big: 0 }, doc_count: 2 },
        { key: { region: 'Asia', big: 100 }, doc_count: 1 },
      ],
    });
    const second = aggregations({ c: { composite: { size: 2, sources, after: first.after_key } } }).c;
    expect(second.buckets.map((b: any) => b.key)).toEqual([
      { region: 'Europe', big: 0 },
      { region: 'Europe', big: 50 },
    ]);
    const last = aggregations({ c: { composite: { size: 2, sources, after: second.after_key } } }).c;
    expect(last).toEqual({ buckets: [] });
  });

  it('orders descending, keeps missing values with missing_bucket, formats dates, runs sub-aggregations', () => {
    const r = aggregations({
      c: { composite: { size: 3, sources: [{ t: { terms: { field: 'tags.keyword', order: 'desc', missing_bucket: true } } }] }, aggs: { p: { max: { field: 'pop' } } } },
    }).c;
    expect(r.buckets).toEqual([
      { key: { t: 'g7' }, doc_count: 2, p: { value: 125 } },
      { key: { t: 'eu' }, doc_count: 2, p: { value: 68 } },
      { key: { t: null }, doc_count: 2, p: { value: 34 } },
    ]);
    const d = aggregations({ c: { composite: { size: 1, sources: [{ y: { date_histogram: { field: 'joined', calendar_interval: 'year', format: 'yyyy' } } }] } } }).c;
    expect(d).toEqual({ after_key: { y: '1945' }, buckets: [{ key: { y: '1945' }, doc_count: 2 }] });
    const next = aggregations({ c: { composite: { size: 1, sources: [{ y: { date_histogram: { field: 'joined', calendar_interval: 'year', format: 'yyyy' } } }], after: d.after_key } } }).c;
    expect(next.buckets).toEqual([{ key: { y: '1956' }, doc_count: 1 }]);
  });

  it('refuses bad sources, after keys, and a parent', () => {
    expect(() => aggregations({ c: { composite: { sources: [] } } })).toThrow(/cannot be null or empty/);
    expect(() => aggregations({ c: { composite: { sources: [{ a: { avg: { field: 'pop' } } }] } } })).toThrow(/source type \[avg\]/);
    expect(() => aggregations({ c: { composite: { sources, after: { region: 'Asia' } } } })).toThrow(/\[after\] has 1 value/);
    expect(() => aggregations({ f: { filter: { match_all: {} }, aggs: { c: { composite: { sources } } } } })).toThrow(/cannot be used with a parent aggregation/);
  });
});
