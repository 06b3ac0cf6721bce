import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['code'], long: ['population'] }), [
  ['uk', { name: 'United Kingdom', code: 'GB', population: 67 }],
  ['us', { name: 'United States', code: 'US', population: 333 }],
  ['ke', { name: 'Kenya', code: 'KE', population: 54 }],
  ['kr', { name: 'South Korea', code: 'KR', population: 52 }],
]);
const search = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter);
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);

// name: lengths 2, 2, 1, 2: N = 4, avgdl 7/4; "united" in 2 documents
const united = expectedScore({ N: 4, avgdl: 7 / 4, n: 2, freq: 1, dl: 2 });

describe('match_bool_prefix', () => {
  it('makes every token a term and the last one a prefix scoring its boost (constant score)', () => {
    expect(scores({ match_bool_prefix: { name: 'united k' } })).toEqual([
      ['uk', f(united + 1)],
      ['ke', 1],
      ['kr', 1],
      ['us', united],
    ]);
    expect(scores({ match_bool_prefix: { name: 'Ke' } })).toEqual([['ke', 1]]);
    expect(scores({ match_bool_prefix: { name: { query: 'ke', boost: 3 } } })).toEqual([['ke', 3]]);
  });

  it('takes the last token as a term when the text goes on after it', () => {
    expect(scores({ match_bool_prefix: { name: 'united k ' } })).toEqual([
      ['uk', united],
      ['us', united],
    ]);
    expect(search({ match_bool_prefix: { name: 'ken.' } }).total).toBe(0);
    expect(search({ match_bool_prefix: { name: 'kenya.' } }).total).toBe(1);
  });

  it('applies operator and minimum_should_match to the boolean query', () => {
    expect(scores({ match_bool_prefix: { name: { query: 'united k', operator: 'and' } } })).toEqual([['uk', f(united + 1)]]);
    expect(search({ match_bool_prefix: { name: { query: 'united k', minimum_should_match: 2 } } }).hits.map((h) => h._id)).toEqual(['uk']);
    // 3 clauses, all but one: "united" and "s" (states) are enough
    expect(search({ match_bool_prefix: { name: { query: 'united kingdom s', minimum_should_match: '-1' } } }).hits.map((h) => h._id)).toEqual(['uk', 'us']);
    // one token is no boolean query: minimum_should_match does not apply
    expect(search({ match_bool_prefix: { name: { query: 'k', minimum_should_match: 5 } } }).total).toBe(3); // kingdom, kenya, korea
  });

  it('prefixes a keyword value whole, and looks up a number as its term', () => {
    expect(search({ match_bool_prefix: { code: 'K' } }).hits.map((h) => h._id)).toEqual(['ke', 'kr']);
    expect(search({ match_bool_prefix: { code: 'k' } }).total).toBe(0); // keyword terms are case-sensitive
    expect(search({ match_bool_prefix: { population: '54' } }).hits.map((h) => h._id)).toEqual(['ke']);
    expect(() => search({ match_bool_prefix: { population: 'lots' } })).toThrow(InvalidQueryError);
    expect(search({ match_bool_prefix: { _id: 'ke' } }).hits.map((h) => h._id)).toEqual(['ke']);
  });

  it('makes the terms fuzzy with fuzziness, never the prefix', () => {
    // "untied": one transposition from "united" (AUTO: 2 edits for 6 letters); FuzzyTermsEnum's
    // boost 1 - 1/6, BM25 on the blended document frequency (top_terms_blended_freqs: united's own)
    const fuzzyUnited = expectedScore({ N: 4, avgdl: 7 / 4, n: 2, freq: 1, dl: 2, boost: f(1 - f(1 / 6)) });
    expect(scores({ match_bool_prefix: { name: { query: 'untied k', fuzziness: 'AUTO' } } })).toEqual([
      ['uk', f(fuzzyUnited + 1)],
      ['ke', 1],
      ['kr', 1],
      ['us', fuzzyUnited],
    ]);
    expect(search({ match_bool_prefix: { name: { query: 'untied k', fuzziness: 0 } } }).total).toBe(3);
    // the prefix is never fuzzy: "kx" prefixes nothing
    expect(search({ match_bool_prefix: { name: { query: 'kx', fuzziness: 2 } } }).total).toBe(0);
    expect(search({ match_bool_prefix: { name: { query: 'untied ', fuzziness: 'AUTO', prefix_length: 2 } } }).total).toBe(2); // a space: a term, fuzzy
    expect(search({ match_bool_prefix: { name: { query: 'untied ', fuzziness: 'AUTO', prefix_length: 3 } } }).total).toBe(0);
    expect(() => search({ match_bool_prefix: { population: { query: '54', fuzziness: 1 } } })).toThrow('Can only use fuzzy queries on keyword and text fields');
    expect(() => search({ match_bool_prefix: { name: { query: 'x', fuzziness: 3 } } })).toThrow('fuzziness');
  });

  it('analyzes a keyword field with the standard analyzer when asked to', () => {
    const lower = indexAll(new SearchIndex({ keyword: ['tag'] }), [['1', { tag: 'red' }], ['2', { tag: 'reddish' }]]);
    const hits = (query: Record<string, unknown>) => lower.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);
    expect(hits({ match_bool_prefix: { tag: { query: 'RED', analyzer: 'standard' } } })).toEqual(['1', '2']);
    expect(hits({ match_bool_prefix: { tag: 'RED' } })).toEqual([]);
  });

  it('matches nothing without tokens or on an unmapped field', () => {
    expect(search({ match_bool_prefix: { name: '!!!' } }).total).toBe(0);
    expect(search({ match_bool_prefix: { nothing: 'united' } }).total).toBe(0);
  });

  it('refuses malformed parameters with their place', () => {
    expect(() => search({ match_bool_prefix: { name: { query: 'x', slop: 1 } } })).toThrow('unsupported parameter "slop" for [match_bool_prefix] at query.match_bool_prefix.name');
    expect(() => search({ match_bool_prefix: { name: { query: 'x', max_expansions: 0 } } })).toThrow('max_expansions');
    expect(() => search({ match_bool_prefix: { name: { query: 'x', prefix_length: -1 } } })).toThrow('prefix_length');
    expect(() => search({ match_bool_prefix: { name: { query: 'x', fuzzy_rewrite: 'nope' } } })).toThrow('fuzzy_rewrite');
    expect(() => search({ match_bool_prefix: { name: { query: 'x', operator: 'xor' } } })).toThrow('operator');
    expect(() => search({ match_bool_prefix: { name: { query: 'x', minimum_should_match: [] } } })).toThrow('minimum_should_match');
    expect(() => search({ match_bool_prefix: { name: { operator: 'or' } } })).toThrow('needs a "query"');
    expect(() => search({ match_bool_prefix: { name: { query: {} } } })).toThrow(InvalidQueryError);
  });

  it("never answers or counts another tenant's entities", () => {
    const shared = indexAll(new SearchIndex({ keyword: ['tenant'] }), [
      ['a1', { name: 'United Kingdom', tenant: 'a' }],
      ['b1', { name: 'United Kingdom', tenant: 'b' }],
      ['b2', { name: 'Kiribati', tenant: 'b' }],
    ]);
    const forA = { term: { tenant: 'a' } };
    expect(shared.search({ query: { match_bool_prefix: { name: 'united k' } }, from: 0, size: 10 }, forA).hits.map((h) => h._id)).toEqual(['a1']);
    expect(shared.count({ match_bool_prefix: { name: 'k' } }, forA)).toBe(1);
  });
});
