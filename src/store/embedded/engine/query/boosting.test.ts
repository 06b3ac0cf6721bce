import { floatToJson } from '../fieldValues';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex(), COUNTRIES);
const hits = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter).hits.map((h) => [h._id, h._score]);
const j = (x: number) => floatToJson(Math.fround(x));

// match "france french": France 1.1727304, French Guiana 0.9066489
const MATCH = { match: { name: 'france french' } };

describe('boosting', () => {
  it('multiplies the scores of the documents matching negative by negative_boost (in double, rounded once)', () => {
    expect(hits({ boosting: { positive: MATCH, negative: { term: { 'code.keyword': 'FR' } }, negative_boost: 0.5 } })).toEqual([
      ['2', 0.9066489],
      ['1', j(Math.fround(1.1727304) * Math.fround(0.5))],
    ]);
    // the outer boost multiplies the double product (Lucene's FunctionScoreQuery), not the sub-query's weight
    expect(hits({ boosting: { positive: MATCH, negative: { term: { 'code.keyword': 'GF' } }, negative_boost: 0.3, boost: 2 } })).toEqual([
      ['1', j(Math.fround(1.1727304) * 2)],
      ['2', j(Math.fround(0.9066489) * Math.fround(0.3) * 2)],
    ]);
    // negative matches nothing: the positive query's scores
    expect(hits({ boosting: { positive: MATCH, negative: { term: { 'code.keyword': 'ZZ' } }, negative_boost: 0.1 } })).toEqual([
      ['1', 1.1727304],
      ['2', 0.9066489],
    ]);
  });

  it('requires positive, negative and a non-negative negative_boost', () => {
    expect(() => hits({ boosting: { negative: MATCH, negative_boost: 0.5 } })).toThrow('requires a "positive" query');
    expect(() => hits({ boosting: { positive: MATCH, negative_boost: 0.5 } })).toThrow('requires a "negative" query');
    expect(() => hits({ boosting: { positive: MATCH, negative: MATCH } })).toThrow('requires a "negative_boost"');
    expect(() => hits({ boosting: { positive: MATCH, negative: MATCH, negative_boost: -1 } })).toThrow('must be a non-negative number');
    expect(() => hits({ boosting: { positive: MATCH, negative: MATCH, negative_boost: 0.5, tie: 1 } })).toThrow('unsupported parameter "tie" for [boosting]');
  });

  it('never shows or counts what the caller filter excludes', () => {
    const tenant = { terms: { 'code.keyword': ['GF', 'ZA'] } };
    const result = index.search({ query: { boosting: { positive: { match_all: {} }, negative: { term: { 'code.keyword': 'FR' } }, negative_boost: 0.5 } }, from: 0, size: 10 }, tenant);
    expect(result.hits.map((h) => h._id)).toEqual(['2', '3']);
    expect(result.total).toBe(2);
  });
});
