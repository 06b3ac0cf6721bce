import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex(), COUNTRIES);
const scores = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, f(h._score as number)]);

const nameFrance = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1 });
const codeFr = expectedScore({ N: 3, avgdl: 1, n: 1, freq: 1, dl: 1 });

describe('dis_max', () => {
  it('takes the best score plus tie_breaker times the others', () => {
    const queries = [{ match: { name: 'france' } }, { term: { 'code.keyword': 'FR' } }];
    expect(scores({ dis_max: { queries } })).toEqual([['1', Math.max(nameFrance, codeFr)]]);
    expect(scores({ dis_max: { queries, tie_breaker: 0.7 } })).toEqual([['1', f(Math.max(nameFrance, codeFr) + Math.min(nameFrance, codeFr) * f(0.7))]]);
  });

  it('accepts a single query object and a boost', () => {
    expect(scores({ dis_max: { queries: { match: { name: 'france' } }, boost: 2 } })).toEqual([['1', expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1, boost: 2 })]]);
  });

  it('requires queries', () => {
    expect(() => scores({ dis_max: { queries: [] } })).toThrow('at least one query');
    expect(() => scores({ dis_max: {} })).toThrow('requires "queries"');
    expect(() => scores({ dis_max: { queries: [{ match_all: {} }], tie_breaker: -1 } })).toThrow('tie_breaker');
  });
});
