import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex(), COUNTRIES);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });

describe('match_all and match_none', () => {
  it('match_all returns every document in index order, scoring the boost', () => {
    const r = search({ match_all: {} });
    expect(r.total).toBe(3);
    expect(r.hits.map((h) => [h._id, h._score])).toEqual([
      ['1', 1],
      ['2', 1],
      ['3', 1],
    ]);
    expect(search({ match_all: { boost: 2.5 } }).hits[0]._score).toBe(2.5);
    expect(search({ match_all: { boost: 0.1 } }).hits[0]._score).toBe(0.1); // Math.fround(0.1) printed as Java prints a float
  });

  it('match_none matches nothing', () => {
    expect(search({ match_none: {} })).toEqual({ hits: [], total: 0 });
  });

  it('rejects unknown parameters and negative boosts', () => {
    expect(() => search({ match_all: { foo: 1 } })).toThrow('unsupported parameter "foo" for [match_all] at query.match_all');
    expect(() => search({ match_all: { boost: -1 } })).toThrow(InvalidQueryError);
    expect(() => search({ match_all: [] })).toThrow('[match_all] at query.match_all must be an object, got an array');
  });
});
