import { InvalidQueryError, QueryLimitError, SearchResult } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { compileMatcher } from '../matcher';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedIdf, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id', 'code'] }), COUNTRIES);
const search = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter);
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);

// name: "France" (1 token), "French Guiana" (2), "South Africa" (2): N = 3, avgdl 5/3
const NAME = { N: 3, avgdl: 5 / 3 };
const france = expectedScore({ ...NAME, n: 1, freq: 1, dl: 1 });
const french = expectedScore({ ...NAME, n: 1, freq: 1, dl: 2 });

describe('match_phrase_prefix', () => {
  it('expands a single token to the terms starting with it (a disjunction of their term queries)', () => {
    expect(scores({ match_phrase_prefix: { name: 'fran' } })).toEqual([['1', france]]);
    expect(scores({ match_phrase_prefix: { name: 'Fr' } })).toEqual([
      ['1', france],
      ['2', french],
    ]);
    expect(search({ match_phrase_prefix: { name: 'xyz' } }).total).toBe(0);
  });

  it('keeps the first max_expansions terms in term order (0 keeps one, as in Elasticsearch)', () => {
    expect(scores({ match_phrase_prefix: { name: { query: 'fr', max_expansions: 1 } } })).toEqual([['1', france]]);
    expect(scores({ match_phrase_prefix: { name: { query: 'fr', max_expansions: 0 } } })).toEqual([['1', france]]);
    expect(search({ match_phrase_prefix: { name: { query: 'fr', max_expansions: 2 } } }).total).toBe(2);
  });

  it('scores a phrase whose last term is a prefix as a MultiPhraseQuery (summed idf, phrase frequency)', () => {
    const idf = f(expectedIdf(3, 1) + expectedIdf(3, 1));
    const phrase = expectedScore({ ...NAME, n: 0, freq: 1, dl: 2, idf });
    expect(scores({ match_phrase_prefix: { name: 'French Gu' } })).toEqual([['2', phrase]]);
    expect(search({ match_phrase_prefix: { name: 'guiana fre' } }).total).toBe(0);
    // reversed: a sloppy match of distance 2, frequency 1 / 3
    expect(scores({ match_phrase_prefix: { name: { query: 'guiana fre', slop: 2 } } })).toEqual([['2', expectedScore({ ...NAME, n: 0, freq: f(1 / 3), dl: 2, idf })]]);
    expect(scores({ match_phrase_prefix: { name: { query: 'french gu', boost: 2 } } })).toEqual([['2', expectedScore({ ...NAME, n: 0, freq: 1, dl: 2, idf, boost: 2 })]]);
  });

  it('applies zero_terms_query when the text has no token, and matches nothing on an unmapped field', () => {
    expect(search({ match_phrase_prefix: { name: '!!!' } }).total).toBe(0);
    expect(scores({ match_phrase_prefix: { name: { query: '...', zero_terms_query: 'all' } } }).map((h) => h[1])).toEqual([1, 1, 1]);
    expect(search({ match_phrase_prefix: { nothing: 'fr' } }).total).toBe(0);
  });

  it('refuses fields other than text, as Elasticsearch does', () => {
    expect(() => search({ match_phrase_prefix: { code: 'F' } })).toThrow('Can only use phrase prefix queries on text fields - not on [code] which is of type [keyword]');
    expect(() => search({ match_phrase_prefix: { population: '6' } })).toThrow('which is of type [long]');
    expect(() => search({ match_phrase_prefix: { _id: '1' } })).toThrow('which is of type [_id]');
    expect(() => search({ match_phrase_prefix: { code: { query: 'F', analyzer: 'standard' } } })).toThrow('Can only use phrase prefix queries on text fields');
  });

  it('refuses malformed parameters with their place', () => {
    expect(() => search({ match_phrase_prefix: { name: { query: 'x', slop: -1 } } })).toThrow(InvalidQueryError);
    expect(() => search({ match_phrase_prefix: { name: { query: 'x', max_expansions: -1 } } })).toThrow('max_expansions');
    expect(() => search({ match_phrase_prefix: { name: { query: 'x', operator: 'and' } } })).toThrow('unsupported parameter "operator" for [match_phrase_prefix] at query.match_phrase_prefix.name');
    expect(() => search({ match_phrase_prefix: { name: { slop: 1 } } })).toThrow('needs a "query"');
    expect(() => search({ match_phrase_prefix: { name: { query: 'x', analyzer: 'french' } } })).toThrow('analyzer [french] not found');
    expect(() => search({ match_phrase_prefix: { name: { query: 'x', zero_terms_query: 'some' } } })).toThrow('zero_terms_query');
    expect(() => search({ match_phrase_prefix: { name: 'x', code: 'y' } })).toThrow("doesn't support multiple fields");
    expect(() => search({ match_phrase_prefix: { name: ['x'] } })).toThrow(InvalidQueryError);
  });

  it('refuses an expansion over maxClauseCount clauses', () => {
    const small = indexAll(new SearchIndex({ keyword: ['id'] }, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 1 } }), COUNTRIES);
    expect(small.search({ query: { match_phrase_prefix: { name: 'fran' } }, from: 0, size: 10 }).total).toBe(1);
    expect(() => small.search({ query: { match_phrase_prefix: { name: 'fr' } }, from: 0, size: 10 })).toThrow(QueryLimitError);
  });

  it("never answers another tenant's entities, although the expansions come from the whole collection (as in Elasticsearch)", () => {
    const shared = new SearchIndex({ keyword: ['tenant'] });
    shared.put('a1', { name: 'France', tenant: 'a' });
    shared.put('b1', { name: 'Fraggle Rock', tenant: 'b' });
    shared.put('b2', { name: 'France', tenant: 'b' });
    const forA = { term: { tenant: 'a' } };
    const result: SearchResult = shared.search({ query: { match_phrase_prefix: { name: 'fra' } }, from: 0, size: 10 }, forA);
    expect(result.hits.map((h) => h._id)).toEqual(['a1']);
    expect(shared.count({ match_phrase_prefix: { name: 'fra' } }, forA)).toBe(1);
    // the first expansion in term order is "fraggle", a term only b holds: a finds nothing with one expansion
    expect(shared.count({ match_phrase_prefix: { name: { query: 'fra', max_expansions: 1 } } }, forA)).toBe(0);
  });

  it('matches single documents for live subscriptions as a search does', () => {
    const matches = compileMatcher({ match_phrase_prefix: { name: 'united k' } }, { keyword: ['code'] });
    expect(matches({ name: 'United Kingdom' })).toBe(true);
    expect(matches({ name: 'United States' })).toBe(false);
    expect(compileMatcher({ match_bool_prefix: { name: { query: 'k united', operator: 'and' } } })({ name: 'Kingdom of the United' })).toBe(false);
    expect(compileMatcher({ match_bool_prefix: { name: 'kingdom u' } })({ name: 'United Kingdom' })).toBe(true);
  });

  it('walks the term dictionary within the search budget (a paused search answers the same)', async () => {
    const paused = indexAll(new SearchIndex({ keyword: ['id'] }, { sliceMs: 0 }), COUNTRIES);
    const request = { query: { match_phrase_prefix: { name: 'fr' } }, from: 0, size: 10 };
    const answer = paused.searchSliced(request);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual(index.search(request));
  });
});
