import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';
import { wildcardRegExp } from './wildcard';

const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const ids = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);

describe('wildcard', () => {
  it('translates * ? and escapes', () => {
    expect(wildcardRegExp('F*e', false).test('France')).toBe(true);
    expect(wildcardRegExp('F?', false).test('FR')).toBe(true);
    expect(wildcardRegExp('F?', false).test('F')).toBe(false);
    expect(wildcardRegExp('a\\*', false).test('a*')).toBe(true);
    expect(wildcardRegExp('a\\*', false).test('ab')).toBe(false);
    expect(wildcardRegExp('(x).[y]-/', false).test('(x).[y]-/')).toBe(true);
    expect(wildcardRegExp('?', false).test('😀')).toBe(true); // one code point
  });

  it('matches keyword values and text terms', () => {
    expect(ids({ wildcard: { 'name.keyword': '*A*' } })).toEqual(['3']);
    expect(ids({ wildcard: { 'name.keyword': { value: '*a*', case_insensitive: true } } })).toEqual(['1', '2', '3']);
    expect(ids({ wildcard: { name: { wildcard: 'gui?na' } } })).toEqual(['2']);
    expect(ids({ wildcard: { 'code.keyword': 'F?' } })).toEqual(['1']);
  });

  it('refuses non-string fields', () => {
    expect(() => ids({ wildcard: { eu: 't*' } })).toThrow('can only use wildcard queries');
  });
});
