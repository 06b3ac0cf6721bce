import { InvalidQueryError } from '../../../port';
import { bucketComparator, parseOrder } from './order';
import { parseAggregations } from './parse';

const subs = parseAggregations({ avg_p: { avg: { field: 'p' } }, st: { stats: { field: 'p' } }, pct: { percentiles: { field: 'p' } }, f: { filter: { match_all: {} }, aggs: { m: { max: { field: 'p' } } } } });

describe('bucket order', () => {
  it('appends the key tie-break unless the order has a key', () => {
    expect(parseOrder({ _count: 'desc' }, [], 'o')).toEqual([{ kind: 'count', asc: false }, { kind: 'key', asc: true }]);
    expect(parseOrder([{ _key: 'desc' }], [], 'o')).toEqual([{ kind: 'key', asc: false }]);
  });

  it('reads metric paths and sorts buckets without a value last either way', () => {
    const orders = parseOrder({ avg_p: 'asc' }, subs, 'o');
    const compare = bucketComparator(orders, (a, b) => a.localeCompare(b));
    const bucket = (key: string, value: number | null) => ({ key, count: 1, subs: { avg_p: { value } } });
    const sorted = [bucket('a', 3), bucket('b', null), bucket('c', 1)].sort(compare).map((b) => b.key);
    expect(sorted).toEqual(['c', 'a', 'b']);
    const desc = bucketComparator(parseOrder({ avg_p: 'desc' }, subs, 'o'), (a, b) => a.localeCompare(b));
    expect([bucket('a', 3), bucket('b', null), bucket('c', 1)].sort(desc).map((b) => b.key)).toEqual(['a', 'c', 'b']);
    expect(parseOrder({ 'st.max': 'asc' }, subs, 'o')[0]).toMatchObject({ kind: 'path', steps: ['st'], metric: 'max' });
    expect(parseOrder({ 'pct[99]': 'asc' }, subs, 'o')[0]).toMatchObject({ steps: ['pct'], metric: '99' });
    expect(parseOrder({ 'f>m': 'asc' }, subs, 'o')[0]).toMatchObject({ steps: ['f', 'm'], metric: null });
  });

  it.each([
    [{ nope: 'asc' }, /Unknown aggregation \[nope\]/],
    [{ st: 'asc' }, /requires a metric key/],
    [{ 'st.nope': 'asc' }, /Unknown metric name/],
    [{ avg_p: 'up' }, /Unknown order direction/],
    [{ 'avg_p>x': 'asc' }, /single-bucket/],
  ])('refuses %j', (order, message) => {
    expect(() => parseOrder(order, subs, 'o')).toThrow(InvalidQueryError);
    expect(() => parseOrder(order, subs, 'o')).toThrow(message);
  });
});
