import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const hits = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, h._score]);

describe('prefix', () => {
  it('matches terms starting with the value, not analyzed, constant-score', () => {
    expect(hits({ prefix: { name: 'fren' } })).toEqual([['2', 1]]);
    expect(hits({ prefix: { name: 'Fren' } })).toEqual([]);
    expect(hits({ prefix: { 'name.keyword': 'Fr' } })).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
    expect(hits({ prefix: { 'name.keyword': { value: 'fr', case_insensitive: true, boost: 2 } } })).toEqual([
      ['1', 2],
      ['2', 2],
    ]);
  });

  it('matches nothing on unmapped fields and refuses other types', () => {
    expect(hits({ prefix: { nope: 'x' } })).toEqual([]);
    expect(() => hits({ prefix: { population: '6' } })).toThrow('can only use prefix queries on keyword and text fields');
    expect(() => hits({ prefix: { name: { boost: 1 } } })).toThrow('needs a "value"');
  });
});
