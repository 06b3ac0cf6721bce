import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, h._score]);
const floatScores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);

describe('term', () => {
  it('matches the indexed token of a text field exactly, scored by BM25', () => {
    // name: "France" (1 token), "French Guiana" (2), "South Africa" (2): N = 3, avgdl = 5 / 3
    expect(floatScores({ term: { name: 'france' } })).toEqual([['1', f(expectedScore({ N: 3, n: 1, freq: 1, dl: 1, avgdl: 5 / 3 }))]]);
    expect(scores({ term: { name: 'france' } })[0][1]).toBe(1.1727304);
    expect(search({ term: { name: 'France' } }).total).toBe(0); // not analyzed
  });

  it('scores keyword terms without norms (dl = 1, avgdl = distinct terms per document)', () => {
    // code.keyword: one value per document: N = 3, n = 1, avgdl = 3 / 3
    const expected = expectedScore({ N: 3, n: 1, freq: 1, dl: 1, avgdl: 1 });
    expect(Math.fround(scores({ term: { 'code.keyword': 'FR' } })[0][1] as number)).toBe(expected);
    expect(Math.fround(scores({ term: { 'code.keyword': { value: 'FR', boost: 2 } } })[0][1] as number)).toBe(expectedScore({ N: 3, n: 1, freq: 1, dl: 1, avgdl: 1, boost: 2 }));
  });

  it('scores boolean terms like keywords', () => {
    // eu: true, true, false: N = 3, n = 2
    const expected = expectedScore({ N: 3, n: 2, freq: 1, dl: 1, avgdl: 1 });
    const hits = scores({ term: { eu: true } });
    expect(hits.map((h) => h[0])).toEqual(['1', '2']);
    expect(hits.map((h) => Math.fround(h[1] as number))).toEqual([expected, expected]);
    expect(scores({ term: { eu: 'false' } }).map((h) => h[0])).toEqual(['3']);
    expect(() => search({ term: { eu: 'yes' } })).toThrow(InvalidQueryError);
  });

  it('is constant-score on numbers and dates', () => {
    expect(scores({ term: { population: 68 } })).toEqual([['1', 1]]);
    expect(scores({ term: { population: '60' } })).toEqual([['3', 1]]);
    expect(search({ term: { population: 68.5 } }).total).toBe(0); // a long with a decimal part
    expect(() => search({ term: { population: 'many' } })).toThrow(InvalidQueryError);
    expect(scores({ term: { area: 551.5 } })).toEqual([['1', 1]]);
    // a date term covers the whole rounded unit: the whole day here
    expect(scores({ term: { created: '1958-10-04' } })).toEqual([['1', 1]]);
    expect(scores({ term: { created: { value: '1958-10', boost: 3 } } })).toEqual([]);
  });

  it('supports case_insensitive (constant-score) and _id', () => {
    expect(scores({ term: { 'code.keyword': { value: 'fr', case_insensitive: true } } })).toEqual([['1', 1]]);
    expect(scores({ term: { _id: '2' } })).toEqual([['2', 1]]);
    expect(() => search({ term: { population: { value: 1, case_insensitive: true } } })).toThrow('does not support case insensitive');
  });

  it('matches nothing on unmapped fields', () => {
    expect(search({ term: { nope: 'x' } }).total).toBe(0);
  });

  it('rejects malformed term queries', () => {
    expect(() => search({ term: { a: 'x', b: 'y' } })).toThrow('[term] query doesn\'t support multiple fields, found "a" and "b" at query.term');
    expect(() => search({ term: { a: null } })).toThrow('[term] value at query.term.a must be a string, a number or a boolean, got null');
    expect(() => search({ term: { a: { boost: 2 } } })).toThrow('needs a "value"');
    expect(() => search({ term: { a: { value: 'x', fuzzy: 1 } } })).toThrow('unsupported parameter "fuzzy" for [term] at query.term.a');
    expect(() => search({ term: {} })).toThrow(InvalidQueryError);
  });
});
