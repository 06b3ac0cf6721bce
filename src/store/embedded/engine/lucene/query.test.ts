import { MATCH_ALL, booleanQuery, boostQuery, disMax, isPureDisjunction, leaf, matchNone, queryKey, sameQuery, termQuery, withBoost } from './query';

describe('Lucene query values', () => {
  it('compares boolean queries as Lucene does: MUST/SHOULD multisets, FILTER/MUST_NOT sets', () => {
    const a = termQuery('f', 'a');
    const b = termQuery('f', 'b');
    expect(sameQuery(booleanQuery([{ occur: 'should', query: a }, { occur: 'should', query: b }]), booleanQuery([{ occur: 'should', query: b }, { occur: 'should', query: a }]))).toBe(true);
    expect(sameQuery(booleanQuery([{ occur: 'should', query: a }]), booleanQuery([{ occur: 'should', query: a }, { occur: 'should', query: a }]))).toBe(false);
    expect(sameQuery(booleanQuery([{ occur: 'filter', query: a }]), booleanQuery([{ occur: 'filter', query: a }, { occur: 'filter', query: a }]))).toBe(true);
    expect(sameQuery(booleanQuery([{ occur: 'must', query: a }], 0), booleanQuery([{ occur: 'must', query: a }], 1))).toBe(false);
  });

  it('distinguishes fields, terms, boosts and tie breakers', () => {
    expect(queryKey(termQuery('f', 'a'))).not.toBe(queryKey(termQuery('g', 'a')));
    expect(queryKey(boostQuery(MATCH_ALL, 2))).not.toBe(queryKey(boostQuery(MATCH_ALL, 3)));
    expect(queryKey(disMax([MATCH_ALL], 0.1))).not.toBe(queryKey(disMax([MATCH_ALL], 0.2)));
    expect(queryKey(leaf('x', () => []))).toBe(queryKey(leaf('x', () => [1])));
  });

  it('wraps boosts as AbstractQueryBuilder does', () => {
    const t = termQuery('f', 'a');
    expect(withBoost(t, 1)).toBe(t);
    expect(withBoost(t, 2)).toEqual(boostQuery(t, 2));
    expect(withBoost(matchNone('x'), 2).type).toBe('matchNone');
    expect(boostQuery(t, 0.1).boost).toBe(Math.fround(0.1));
  });

  it('recognizes pure disjunctions', () => {
    const t = termQuery('f', 'a');
    expect(isPureDisjunction(booleanQuery([{ occur: 'should', query: t }], 1))).toBe(true);
    expect(isPureDisjunction(booleanQuery([{ occur: 'should', query: t }], 2))).toBe(false);
    expect(isPureDisjunction(booleanQuery([{ occur: 'must', query: t }]))).toBe(false);
  });
});
