import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ text: ['first', 'last'], keyword: ['code'], long: ['year'] }), [
  ['0', { first: 'Paul', last: 'Simon', code: 'ps', year: 1941 }],
  ['1', { first: 'Simon', last: 'Garfunkel', code: 'sg', year: 1941 }],
  ['2', { first: 'Carly', last: 'Simon', code: 'cs', year: 1945 }],
  ['3', { first: 'Paul', last: 'Anka', code: 'pa', year: 1941 }],
]);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);
const crossFields = (query: string, fields: string[], more: Record<string, unknown> = {}) => ({ multi_match: { query, fields, type: 'cross_fields', ...more } });

// first and last: 4 documents of one token each (N = 4, avgdl 1)
const score = (n: number, boost = 1) => expectedScore({ N: 4, avgdl: 1, n, freq: 1, dl: 1, boost });

describe('multi_match cross_fields', () => {
  it('scores a term with the document frequencies blended over the fields (a rare first name is not a strong match)', () => {
    // "simon": last name of 2, first name of 1; blended: last 2, first 2 + 1 = 3 (it would be 1 alone)
    expect(scores(crossFields('simon', ['first', 'last']))).toEqual([
      ['0', score(2)],
      ['2', score(2)],
      ['1', score(3)],
    ]);
    expect(scores({ multi_match: { query: 'simon', fields: ['first', 'last'] } })[0]).toEqual(['1', score(1)]); // best_fields: the rare first name wins
  });

  it('sums the tokens, each the best of its fields, with operator and minimum_should_match over the tokens', () => {
    // "paul": first name of 2 (no last name): 2
    expect(scores(crossFields('paul simon', ['first', 'last']))).toEqual([
      ['0', f(score(2) + score(2))],
      ['2', score(2)],
      ['3', score(2)],
      ['1', score(3)],
    ]);
    expect(search(crossFields('paul simon', ['first', 'last'], { operator: 'and' })).hits.map((h) => h._id)).toEqual(['0']);
    expect(search(crossFields('paul simon', ['first', 'last'], { minimum_should_match: '100%' })).hits.map((h) => h._id)).toEqual(['0']);
  });

  it("applies each field's boost to its term query, and tie_breaker between the fields of a token", () => {
    expect(scores(crossFields('simon', ['first^2', 'last']))).toEqual([
      ['1', score(3, 2)],
      ['0', score(2)],
      ['2', score(2)],
    ]);
    const both = indexAll(new SearchIndex({ text: ['first', 'last'] }), [
      ['a', { first: 'simon', last: 'simon' }],
      ['b', { first: 'x', last: 'simon' }],
    ]);
    // "simon": first 1, last 2 -> last 2, first 3 (capped at first's docCount 2 and maxDoc 2): both 2
    const s = expectedScore({ N: 2, avgdl: 1, n: 2, freq: 1, dl: 1 });
    const hits = both.search({ query: crossFields('simon', ['first', 'last'], { tie_breaker: 0.5 }), from: 0, size: 10 }).hits.map((h) => [h._id, f(h._score as number)]);
    expect(hits).toEqual([
      ['a', f(s + s * f(0.5))],
      ['b', s],
    ]);
  });

  it('groups the fields by analyzer: keyword and numeric fields take the value whole, in a dis_max with the text fields', () => {
    const keyword = expectedScore({ N: 4, avgdl: 1, n: 1, freq: 1, dl: 1 });
    expect(scores(crossFields('ps', ['first', 'last', 'code']))).toEqual([['0', keyword]]);
    expect(scores(crossFields('paul', ['first', 'last', 'code^3']))).toEqual([
      ['0', score(2)],
      ['3', score(2)],
    ]);
    // a number field's term query is no term: it joins the blended keywords as its own disjunct
    expect(scores(crossFields('1941', ['first', 'code', 'year']))).toEqual([
      ['0', 1],
      ['1', 1],
      ['3', 1],
    ]);
  });

  it('puts every field in one group when an analyzer is given', () => {
    expect(search(crossFields('PS', ['first', 'last', 'code'], { analyzer: 'standard' })).hits.map((h) => h._id)).toEqual(['0']);
    expect(search(crossFields('PS', ['first', 'last', 'code'])).total).toBe(0);
  });

  it('refuses a value a field cannot hold unless lenient (the default for fields: ["*"])', () => {
    expect(() => search(crossFields('simon', ['first', 'year']))).toThrow(InvalidQueryError);
    expect(search(crossFields('simon', ['first', 'year'], { lenient: true })).total).toBe(1);
    expect(search({ multi_match: { query: 'simon', type: 'cross_fields' } }).total).toBe(3);
  });

  it('applies zero_terms_query, and matches nothing without a mapped field', () => {
    expect(search(crossFields('!!!', ['first', 'last'])).total).toBe(0);
    expect(search(crossFields('!!!', ['first', 'last'], { zero_terms_query: 'all' })).total).toBe(4);
    expect(search(crossFields('simon', ['nothing'])).total).toBe(0);
  });
});
