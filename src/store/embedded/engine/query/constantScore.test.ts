import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex(), COUNTRIES);
const hits = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, h._score]);

describe('constant_score', () => {
  it('scores the boost for every document of the filter', () => {
    expect(hits({ constant_score: { filter: { match: { name: 'france french' } } } })).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
    expect(hits({ constant_score: { filter: { term: { name: 'france' } }, boost: 1.5 } })).toEqual([['1', 1.5]]);
  });

  it('requires a filter', () => {
    expect(() => hits({ constant_score: {} })).toThrow('[constant_score] at query.constant_score requires a "filter"');
    expect(() => hits({ constant_score: { filter: {} } })).toThrow('query malformed, empty clause found at query.constant_score.filter');
  });
});
