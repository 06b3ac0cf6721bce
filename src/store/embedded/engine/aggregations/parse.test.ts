import { InvalidQueryError } from '../../../port';
import { SUPPORTED_AGGREGATIONS, hasTopHits, parseAggregations } from './parse';

describe('parseAggregations', () => {
  it('parses a tree with sub-aggregations under aggs or aggregations, and meta', () => {
    const nodes = parseAggregations({ a: { terms: { field: 'x' }, aggregations: { b: { avg: { field: 'y' } } }, meta: { color: 'blue' } } });
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ name: 'a', meta: { color: 'blue' } });
    expect(nodes[0].agg.type).toBe('terms');
    expect(nodes[0].subs[0].agg.type).toBe('avg');
    expect(hasTopHits(nodes)).toBe(false);
    expect(hasTopHits(parseAggregations({ a: { terms: { field: 'x' }, aggs: { t: { top_hits: {} } } } }))).toBe(true);
  });

  it('lists every supported type', () => {
    expect(SUPPORTED_AGGREGATIONS).toEqual(expect.arrayContaining(['terms', 'range', 'date_range', 'histogram', 'date_histogram', 'filter', 'filters', 'missing', 'global', 'composite', 'min', 'max', 'avg', 'sum', 'value_count', 'stats', 'extended_stats', 'cardinality', 'percentiles', 'top_hits']));
  });

  it.each([
    [[], /must be an object of named aggregations/],
    [{ 'a>b': { avg: { field: 'x' } } }, /Invalid aggregation name \[a>b\]/],
    [{ a: 1 }, /Expected \[START_OBJECT\] under \[a\]/],
    [{ a: {} }, /Missing definition for aggregation \[a\]/],
    [{ a: { avg: { field: 'x' }, max: { field: 'x' } } }, /Found two aggregation type definitions in \[a\]: \[avg\] and \[max\]/],
    [{ a: { terms: { field: 'x' }, aggs: {}, aggregations: {} } }, /Found two sub aggregation definitions under \[a\]/],
    [{ a: { significant_terms: { field: 'x' } } }, /Unknown aggregation type \[significant_terms\]/],
    [{ a: { terms: { field: 'x' }, meta: 1 } }, /\[meta\]/],
    [{ a: { avg: {} } }, /requires a "field"/],
    [{ a: { avg: { field: 'x', foo: 1 } } }, /unknown field \[foo\]/],
  ])('refuses %j', (aggs, message) => {
    expect(() => parseAggregations(aggs)).toThrow(InvalidQueryError);
    expect(() => parseAggregations(aggs)).toThrow(message);
  });

  it('names where a nested error is', () => {
    expect(() => parseAggregations({ a: { terms: { field: 'x' }, aggs: { b: { histogram: { field: 'y', interval: -1 } } } } })).toThrow(/aggs\.a\.aggs\.b\.histogram/);
  });
});
