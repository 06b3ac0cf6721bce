import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, h._score]);

describe('terms', () => {
  it('matches any of the values, constant-score', () => {
    expect(scores({ terms: { 'code.keyword': ['FR', 'ZA', 'XX'] } })).toEqual([
      ['1', 1],
      ['3', 1],
    ]);
    expect(scores({ terms: { id: ['2'], boost: 4 } })).toEqual([['2', 4]]);
    expect(scores({ terms: { name: ['france', 'africa'] } }).map((h) => h[0])).toEqual(['1', '3']);
  });

  it('works on numbers, booleans and _id', () => {
    expect(scores({ terms: { population: [60, '68', 1.5] } }).map((h) => h[0])).toEqual(['1', '3']);
    expect(scores({ terms: { eu: [false] } }).map((h) => h[0])).toEqual(['3']);
    expect(scores({ terms: { _id: ['3', '1'] } }).map((h) => h[0])).toEqual(['1', '3']);
  });

  it('matches nothing for an empty list or an unmapped field', () => {
    expect(search({ terms: { code: [] } }).total).toBe(0);
    expect(search({ terms: { nope: ['x'] } }).total).toBe(0);
  });

  it('rejects lookups and malformed values', () => {
    expect(() => search({ terms: { code: { index: 'x', id: '1', path: 'p' } } })).toThrow('[terms] lookup');
    expect(() => search({ terms: { code: 'FR' } })).toThrow('must be an array');
    expect(() => search({ terms: { a: ['x'], b: ['y'] } })).toThrow('multiple fields');
    expect(() => search({ terms: { a: [{}] } })).toThrow('query.terms.a[0]');
    expect(() => search({ terms: { boost: 2 } })).toThrow('needs a field');
  });
});
