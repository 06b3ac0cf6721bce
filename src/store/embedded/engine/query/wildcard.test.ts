import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';
import { compileWildcard } from '../automaton';

const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const ids = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);

describe('wildcard', () => {
  it('compiles * ? and escapes', () => {
    const test = (pattern: string, term: string) => compileWildcard(pattern).run(term);
    expect(test('F*e', 'France')).toBe(true);
    expect(test('F?', 'FR')).toBe(true);
    expect(test('F?', 'F')).toBe(false);
    expect(test('a\\*', 'a*')).toBe(true);
    expect(test('a\\*', 'ab')).toBe(false);
    expect(test('(x).[y]-/', '(x).[y]-/')).toBe(true);
    expect(test('?', '😀')).toBe(true); // one code point
  });

  it('runs patterns of many stars over many long terms without backtracking (the issue 13 reproduction)', () => {
    const long = new SearchIndex();
    for (let i = 0; i < 1000; i++) long.put(`w${i}`, { name: `${'a'.repeat(40)}${i}` });
    const count = (value: string) => long.search({ query: { wildcard: { 'name.keyword': { value } } }, from: 0, size: 0 }).total;
    expect(count('*a*a*a*a*b')).toBe(0);
    expect(count('*a'.repeat(10))).toBe(0);
    expect(count(`${'*a'.repeat(10)}*7`)).toBe(100);
    expect(count('*a*a*a*a*1?')).toBe(100);
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
