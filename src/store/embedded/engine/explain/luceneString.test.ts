import { MATCH_ALL, booleanQuery } from '../lucene/query';
import { javaFloat, luceneString } from './luceneString';

describe('luceneString: queries as Lucene prints them', () => {
  it('prints floats as Java does', () => {
    expect(javaFloat(2)).toBe('2.0');
    expect(javaFloat(Math.fround(0.3))).toBe('0.3');
    expect(javaFloat(1.5)).toBe('1.5');
  });

  it('prints terms, phrases, boolean clauses, boosts and dis_max', () => {
    const term = { type: 'term', field: 'name', term: 'france' } as const;
    expect(luceneString(term)).toBe('name:france');
    expect(luceneString({ type: 'phrase', field: 'name', terms: ['south', 'africa'], positions: [0, 1], slop: 1 })).toBe('name:"south africa"~1');
    expect(luceneString(booleanQuery([{ occur: 'must', query: term }, { occur: 'filter', query: MATCH_ALL }, { occur: 'must_not', query: term }]))).toBe('+name:france #*:* -name:france');
    expect(luceneString({ type: 'boost', boost: 2, query: term })).toBe('(name:france)^2.0');
    expect(luceneString({ type: 'constantScore', query: term })).toBe('ConstantScore(name:france)');
    expect(luceneString({ type: 'disMax', disjuncts: [term, term], tieBreaker: Math.fround(0.3) })).toBe('(name:france | name:france)~0.3');
  });
});
